import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { workspaces } from './workspaces.js';

/**
 * What the workspace list shows of a workspace's sources, kept per workspace by triggers on
 * data_sources, documents, mcp_sources and mcp_sync_runs (migration 0013; docs/sync-status.md,
 * "The list's counts"). Read only: nothing in the service writes it.
 */
export const workspaceSyncCounts = pgTable('workspace_sync_counts', {
  workspaceId: text('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  /** Live data sources with an ingestion queued or running / whose last ingestion failed; newest successful sync. */
  dsSyncing: integer('ds_syncing').notNull().default(0),
  dsFailed: integer('ds_failed').notNull().default(0),
  dsLastSyncedAt: timestamp('ds_last_synced_at', { withTimezone: true }),
  /** MCP sources with a run queued or running / enabled ones whose latest finished run failed; newest successful (or partial) run end. */
  mcpSyncing: integer('mcp_syncing').notNull().default(0),
  mcpFailed: integer('mcp_failed').notNull().default(0),
  mcpLastSyncedAt: timestamp('mcp_last_synced_at', { withTimezone: true }),
  /** Live indexed documents (data-source files and MCP resources). */
  documents: integer('documents').notNull().default(0),
});
