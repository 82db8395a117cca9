import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.js';

/**
 * Scheduler state of a workspace's sync schedule (docs/sync-schedule.md): when its
 * scheduled sync last ran. A tick claims a due workspace by moving `last_run_at`
 * forward in one conditional UPDATE, so exactly one instance wins.
 */
export const workspaceSyncScheduleState = pgTable('workspace_sync_schedule_state', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  /** Sources whose sync the last scheduled run queued. */
  lastRunSources: integer('last_run_sources').notNull().default(0),
  /** Sources that could not be queued in the last scheduled run. */
  lastRunErrors: jsonb('last_run_errors').$type<string[]>().notNull().default([]),
});
