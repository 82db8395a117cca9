import { eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';
import { workspaceSyncScheduleState } from '../../db/schema/syncSchedule.js';

/** All SQL of the sync scheduler's state (docs/sync-schedule.md). */
export function syncScheduleRepository(db: Db) {
  return {
    /**
     * Claims the workspaces whose scheduled sync is due: `last_run_at` older than their
     * interval, or never run. One conditional UPDATE, evaluated on the database clock:
     * when two instances tick at once, the second waits for the first's row locks,
     * re-checks the condition on the updated rows and claims nothing. Returns the ids claimed.
     */
    async claimDue(candidates: { workspaceId: string; intervalHours: number }[]): Promise<string[]> {
      if (!candidates.length) return [];
      const ids = candidates.map((c) => c.workspaceId);
      const hours = candidates.map((c) => Math.max(1, Math.floor(c.intervalHours)));
      await db
        .insert(workspaceSyncScheduleState)
        .values(ids.map((workspaceId) => ({ workspaceId })))
        .onConflictDoNothing();
      const rows = await queryRows<{ workspace_id: string }>(
        db,
        sql`UPDATE workspace_sync_schedule_state AS s
            SET last_run_at = now()
            FROM (SELECT unnest(${sql.param(ids)}::text[]) AS workspace_id, unnest(${sql.param(hours)}::int[]) AS interval_hours) AS c
            WHERE s.workspace_id = c.workspace_id
              AND (s.last_run_at IS NULL OR s.last_run_at <= now() - make_interval(hours => c.interval_hours))
            RETURNING s.workspace_id`,
      );
      return rows.map((r) => r.workspace_id);
    },

    async record(workspaceId: string, sources: number, errors: string[]): Promise<void> {
      await db
        .update(workspaceSyncScheduleState)
        .set({ lastRunSources: sources, lastRunErrors: errors.slice(0, 50) })
        .where(eq(workspaceSyncScheduleState.workspaceId, workspaceId));
    },

    async state(workspaceId: string): Promise<{ lastRunAt: Date | null; lastRunSources: number; lastRunErrors: string[] } | null> {
      const [row] = await db.select().from(workspaceSyncScheduleState).where(eq(workspaceSyncScheduleState.workspaceId, workspaceId));
      return row ? { lastRunAt: row.lastRunAt, lastRunSources: row.lastRunSources, lastRunErrors: row.lastRunErrors } : null;
    },
  };
}
export type SyncScheduleRepository = ReturnType<typeof syncScheduleRepository>;
