import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db, withIdempotencyMark } from '../../db/client.js';
import { mcpResources, mcpSources, mcpSyncRuns, type McpSyncError, type McpSyncStatus, type McpSyncTrigger } from '../../db/schema/mcp.js';
import type { Scope } from '../../domain/scope.js';

/** The workspace a query is confined to: a request's `Scope`, or `{ workspaceId }` for the scheduler (no user). */
type InWorkspace = Pick<Scope, 'workspaceId'>;

export type McpSourceRow = typeof mcpSources.$inferSelect;
export type McpResourceRow = typeof mcpResources.$inferSelect;
export type McpSyncRunRow = typeof mcpSyncRuns.$inferSelect;

export const MCP_SORT_COLUMNS = {
  createdAt: mcpSources.createdAt,
  updatedAt: mcpSources.updatedAt,
  name: mcpSources.name,
} as const;
export type McpSortField = keyof typeof MCP_SORT_COLUMNS;

/** The constraint a unique violation hit (postgres-js: constraint_name, PGlite: constraint), else null. */
function uniqueViolation(err: unknown): string | null {
  for (let e = err as Record<string, unknown> | undefined, i = 0; e && i < 4; e = e.cause as Record<string, unknown> | undefined, i++) {
    if (String(e.code) === '23505') return String(e.constraint_name ?? e.constraint ?? 'unknown');
  }
  return null;
}

export interface RunCounts {
  resourcesListed: number;
  resourcesAdded: number;
  resourcesUpdated: number;
  resourcesUnchanged: number;
  resourcesRemoved: number;
  resourcesFailed: number;
  chunksIndexed: number;
}

/** All SQL of MCP sources, their per-resource state and their sync runs. */
export function mcpSourcesRepository(db: Db) {
  /**
   * The workspace `syncStatus` counts, read by the workspace detail and GET /sync-status (the list
   * reads them kept in `workspace_sync_counts`); built once, prepared per connection. The correlated subqueries name `mcp_sources` columns qualified: drizzle
   * writes a single table's columns unqualified, which inside them would mean the run's.
   */
  const syncCountsQuery = db
    .select({
      workspaceId: mcpSources.workspaceId,
      syncing: sql<number>`count(*) FILTER (WHERE EXISTS (
        SELECT 1 FROM ${mcpSyncRuns} r WHERE r.source_id = mcp_sources.id AND r.status IN ('queued', 'running')))::int`,
      failed: sql<number>`count(*) FILTER (WHERE mcp_sources.enabled AND (
        SELECT r.status FROM ${mcpSyncRuns} r
        WHERE r.source_id = mcp_sources.id AND r.status IN ('succeeded', 'partial', 'failed')
        ORDER BY r.queued_at DESC, r.id DESC LIMIT 1) = 'failed')::int`,
    })
    .from(mcpSources)
    .where(sql`${mcpSources.workspaceId} = ANY(${sql.placeholder('ids')}::text[])`)
    .groupBy(mcpSources.workspaceId)
    .prepare('mcp_sources_sync_counts');
  return {
    /** Inserts a source; `seal` receives the new id (secrets are bound to it) and returns the sealed value. */
    async create(
      scope: InWorkspace,
      values: Omit<typeof mcpSources.$inferInsert, 'id' | 'secrets' | 'workspaceId'>,
      seal: (id: string) => string | null,
    ): Promise<McpSourceRow> {
      const id = crypto.randomUUID();
      // With an Idempotency-Key claim, marked in the same commit (src/db/client.ts).
      const [row] = await withIdempotencyMark(db, (tx) =>
        tx
          .insert(mcpSources)
          .values({ ...values, workspaceId: scope.workspaceId, id, secrets: seal(id) })
          .returning(),
      );
      return row!;
    },

    async get(scope: InWorkspace, id: string): Promise<McpSourceRow | null> {
      const [row] = await db
        .select()
        .from(mcpSources)
        .where(and(eq(mcpSources.id, id), eq(mcpSources.workspaceId, scope.workspaceId)));
      return row ?? null;
    },

    async byId(id: string): Promise<McpSourceRow | null> {
      const [row] = await db.select().from(mcpSources).where(eq(mcpSources.id, id));
      return row ?? null;
    },

    async list(
      scope: InWorkspace,
      q: { offset: number; limit: number; sort: McpSortField; descending: boolean },
    ): Promise<{ rows: McpSourceRow[]; total: number }> {
      const where = eq(mcpSources.workspaceId, scope.workspaceId);
      const col = MCP_SORT_COLUMNS[q.sort];
      const [rows, [t]] = await Promise.all([
        db
          .select()
          .from(mcpSources)
          .where(where)
          .orderBy(q.descending ? desc(col) : asc(col), desc(mcpSources.createdAt), asc(mcpSources.id))
          .limit(q.limit)
          .offset(q.offset),
        db.select({ n: count() }).from(mcpSources).where(where),
      ]);
      return { rows, total: Number(t?.n ?? 0) };
    },

    /** Ids of the enabled sources of a workspace (scheduled syncs). */
    async enabledIds(scope: InWorkspace): Promise<string[]> {
      const rows = await db
        .select({ id: mcpSources.id })
        .from(mcpSources)
        .where(and(eq(mcpSources.workspaceId, scope.workspaceId), eq(mcpSources.enabled, true)));
      return rows.map((r) => r.id);
    },

    async update(scope: InWorkspace, id: string, values: Partial<typeof mcpSources.$inferInsert>, bumpConfig: boolean): Promise<McpSourceRow | null> {
      const [row] = await db
        .update(mcpSources)
        .set({ ...values, updatedAt: new Date(), ...(bumpConfig ? { configVersion: sql`${mcpSources.configVersion} + 1` } : {}) })
        .where(and(eq(mcpSources.id, id), eq(mcpSources.workspaceId, scope.workspaceId)))
        .returning();
      return row ?? null;
    },

    async setServerInfo(id: string, info: Record<string, unknown>): Promise<void> {
      await db.update(mcpSources).set({ serverInfo: info }).where(eq(mcpSources.id, id));
    },

    /** Deletes the source; its resources and runs go with it (ON DELETE CASCADE). */
    async delete(scope: InWorkspace, id: string): Promise<boolean> {
      const rows = await db
        .delete(mcpSources)
        .where(and(eq(mcpSources.id, id), eq(mcpSources.workspaceId, scope.workspaceId)))
        .returning({ id: mcpSources.id });
      return rows.length > 0;
    },

    // --- sync runs ---

    /**
     * Queues a run unless one is already queued for the source (a partial unique index
     * allows one queued run per source). Returns the run and whether it is new.
     */
    async queueRun(v: {
      sourceId: string;
      workspaceId: string;
      trigger: McpSyncTrigger;
      requestedBy: string | null;
    }): Promise<{ run: McpSyncRunRow; created: boolean }> {
      // The queued run the insert collided with may start running before it is read back (a worker took it):
      // then nothing is queued any more, and this request queues its own run on the next attempt.
      for (let attempt = 0; ; attempt++) {
        try {
          const [run] = await db
            .insert(mcpSyncRuns)
            .values({ ...v, status: 'queued' })
            .returning();
          return { run: run!, created: true };
        } catch (err) {
          if (!uniqueViolation(err)) throw err;
          const [run] = await db
            .select()
            .from(mcpSyncRuns)
            .where(and(eq(mcpSyncRuns.sourceId, v.sourceId), eq(mcpSyncRuns.status, 'queued')));
          if (run) return { run, created: false };
          if (attempt >= 2) throw err;
        }
      }
    },

    async setRunJob(runId: string, jobId: string): Promise<void> {
      await db.update(mcpSyncRuns).set({ jobId }).where(eq(mcpSyncRuns.id, runId));
    },

    async run(runId: string): Promise<McpSyncRunRow | null> {
      const [row] = await db.select().from(mcpSyncRuns).where(eq(mcpSyncRuns.id, runId));
      return row ?? null;
    },

    /**
     * Moves a queued run (or its own interrupted `running` attempt) to `running`.
     * `busy` when another run of the source is running (one at a time, enforced by a
     * partial unique index); a running run older than `staleAfterMs` is first failed as
     * interrupted.
     */
    async startRun(runId: string, staleAfterMs: number): Promise<'started' | 'busy' | 'gone'> {
      const [run] = await db.select().from(mcpSyncRuns).where(eq(mcpSyncRuns.id, runId));
      if (!run || (run.status !== 'queued' && run.status !== 'running')) return 'gone';
      if (run.status === 'running') {
        await db.update(mcpSyncRuns).set({ startedAt: new Date() }).where(eq(mcpSyncRuns.id, runId));
        return 'started';
      }
      await db
        .update(mcpSyncRuns)
        .set({ status: 'failed', finishedAt: new Date(), error: 'Sync interrupted (worker stopped); it was not completed' })
        .where(
          and(
            eq(mcpSyncRuns.sourceId, run.sourceId),
            eq(mcpSyncRuns.status, 'running'),
            sql`${mcpSyncRuns.startedAt} < now() - make_interval(secs => ${staleAfterMs / 1000})`,
          ),
        );
      try {
        const rows = await db
          .update(mcpSyncRuns)
          .set({ status: 'running', startedAt: new Date() })
          .where(and(eq(mcpSyncRuns.id, runId), eq(mcpSyncRuns.status, 'queued')))
          .returning({ id: mcpSyncRuns.id });
        return rows.length ? 'started' : 'gone';
      } catch (err) {
        if (uniqueViolation(err)) return 'busy';
        throw err;
      }
    },

    async finishRun(
      runId: string,
      v: { status: McpSyncStatus; durationMs: number; counts: RunCounts; error: string | null; errors: McpSyncError[] },
    ): Promise<void> {
      await db
        .update(mcpSyncRuns)
        .set({ status: v.status, finishedAt: new Date(), durationMs: v.durationMs, error: v.error, errors: v.errors.slice(0, 100), ...v.counts })
        .where(eq(mcpSyncRuns.id, runId));
    },

    /** Counts of a running run so far (its progress, read by GET /sync-status). */
    async runProgress(runId: string, counts: RunCounts): Promise<void> {
      await db
        .update(mcpSyncRuns)
        .set(counts)
        .where(and(eq(mcpSyncRuns.id, runId), eq(mcpSyncRuns.status, 'running')));
    },

    /**
     * The sync state of every MCP source of a workspace: per source its queued or running
     * run, its latest finished run and the end of its latest successful run (four queries).
     */
    async syncRows(scope: InWorkspace) {
      const sources = await db
        .select({ id: mcpSources.id, name: mcpSources.name, enabled: mcpSources.enabled })
        .from(mcpSources)
        .where(eq(mcpSources.workspaceId, scope.workspaceId))
        .orderBy(asc(mcpSources.createdAt), asc(mcpSources.id));
      const ids = sources.map((s) => s.id);
      if (!ids.length) return [];
      const latest = (statuses: McpSyncStatus[]) =>
        db
          .selectDistinctOn([mcpSyncRuns.sourceId])
          .from(mcpSyncRuns)
          .where(and(inArray(mcpSyncRuns.sourceId, ids), inArray(mcpSyncRuns.status, statuses)))
          .orderBy(mcpSyncRuns.sourceId, desc(mcpSyncRuns.queuedAt), desc(mcpSyncRuns.id));
      // A source has at most one running and one queued run: the running one is shown.
      const [running, queued, finished, succeeded] = await Promise.all([
        latest(['running']),
        latest(['queued']),
        latest(['succeeded', 'partial', 'failed']),
        latest(['succeeded', 'partial']),
      ]);
      const by = (rows: McpSyncRunRow[]) => new Map(rows.map((r) => [r.sourceId, r]));
      const [r, q, f, s] = [by(running), by(queued), by(finished), by(succeeded)];
      return sources.map((src) => ({
        ...src,
        active: r.get(src.id) ?? q.get(src.id) ?? null,
        lastFinished: f.get(src.id) ?? null,
        lastSuccessAt: s.get(src.id)?.finishedAt ?? null,
      }));
    },

    /** The latest run of each source (queued, running or finished). */
    async latestRuns(sourceIds: string[]): Promise<Map<string, McpSyncRunRow>> {
      if (!sourceIds.length) return new Map();
      const rows = await db
        .selectDistinctOn([mcpSyncRuns.sourceId])
        .from(mcpSyncRuns)
        .where(inArray(mcpSyncRuns.sourceId, sourceIds))
        .orderBy(mcpSyncRuns.sourceId, desc(mcpSyncRuns.queuedAt), desc(mcpSyncRuns.id));
      return new Map(rows.map((r) => [r.sourceId, r]));
    },

    /**
     * Per workspace: sources with a sync queued or running, and enabled sources whose
     * latest finished sync failed (the workspace `syncStatus`).
     */
    async syncCounts(workspaceIds: string[]): Promise<Map<string, { syncing: number; failed: number }>> {
      if (!workspaceIds.length) return new Map();
      const rows = await syncCountsQuery.execute({ ids: workspaceIds });
      return new Map(rows.map((r) => [r.workspaceId, { syncing: Number(r.syncing), failed: Number(r.failed) }]));
    },

    /** The latest finished run of a source with status succeeded or partial. */
    async lastSuccessfulRun(sourceId: string): Promise<McpSyncRunRow | null> {
      const [row] = await db
        .select()
        .from(mcpSyncRuns)
        .where(and(eq(mcpSyncRuns.sourceId, sourceId), inArray(mcpSyncRuns.status, ['succeeded', 'partial'])))
        .orderBy(desc(mcpSyncRuns.finishedAt))
        .limit(1);
      return row ?? null;
    },

    async runTotals(sourceId: string): Promise<{ total: number; succeeded: number; partial: number; failed: number; averageDurationMs: number | null }> {
      const rows = await queryRows<{ total: number; succeeded: number; partial: number; failed: number; avg: number | null }>(
        db,
        sql`SELECT count(*)::int AS total,
                   count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
                   count(*) FILTER (WHERE status = 'partial')::int AS partial,
                   count(*) FILTER (WHERE status = 'failed')::int AS failed,
                   round(avg(duration_ms) FILTER (WHERE duration_ms IS NOT NULL))::int AS avg
            FROM ${mcpSyncRuns} WHERE ${mcpSyncRuns.sourceId} = ${sourceId}`,
      );
      const r = rows[0];
      return {
        total: Number(r?.total ?? 0),
        succeeded: Number(r?.succeeded ?? 0),
        partial: Number(r?.partial ?? 0),
        failed: Number(r?.failed ?? 0),
        averageDurationMs: r?.avg === null || r?.avg === undefined ? null : Number(r.avg),
      };
    },

    // --- per-resource state ---

    async resources(sourceId: string): Promise<McpResourceRow[]> {
      return db.select().from(mcpResources).where(eq(mcpResources.sourceId, sourceId));
    },

    /** Inserts or updates the state of one resource (by source and uri). */
    async putResource(v: Omit<typeof mcpResources.$inferInsert, 'id'> & { sourceId: string; uri: string }): Promise<void> {
      await db
        .insert(mcpResources)
        .values(v)
        .onConflictDoUpdate({ target: [mcpResources.sourceId, mcpResources.uri], set: { ...v, firstSeenAt: undefined } });
    },

    async touchResources(sourceId: string, uris: string[]): Promise<void> {
      if (!uris.length) return;
      await db
        .update(mcpResources)
        .set({ lastSeenAt: new Date() })
        .where(and(eq(mcpResources.sourceId, sourceId), inArray(mcpResources.uri, uris)));
    },

    async markRemoved(sourceId: string, uris: string[]): Promise<void> {
      if (!uris.length) return;
      await db
        .update(mcpResources)
        .set({ status: 'removed', removedAt: new Date(), chunkCount: 0, charCount: 0 })
        .where(and(eq(mcpResources.sourceId, sourceId), inArray(mcpResources.uri, uris)));
    },

    /** Per-source resource counts: indexed documents, their chunks and characters, failures. */
    async resourceTotals(
      sourceIds: string[],
    ): Promise<Map<string, { documents: number; chunks: number; characters: number; indexed: number; failed: number; removed: number; tracked: number }>> {
      const out = new Map<
        string,
        { documents: number; chunks: number; characters: number; indexed: number; failed: number; removed: number; tracked: number }
      >();
      if (!sourceIds.length) return out;
      const rows = await db
        .select({
          sourceId: mcpResources.sourceId,
          documents: sql<number>`count(*) FILTER (WHERE ${mcpResources.documentId} IS NOT NULL AND ${mcpResources.status} <> 'removed')::int`,
          chunks: sql<number>`coalesce(sum(${mcpResources.chunkCount}) FILTER (WHERE ${mcpResources.status} <> 'removed'), 0)::int`,
          characters: sql<number>`coalesce(sum(${mcpResources.charCount}) FILTER (WHERE ${mcpResources.status} <> 'removed'), 0)::int`,
          indexed: sql<number>`count(*) FILTER (WHERE ${mcpResources.status} = 'indexed')::int`,
          failed: sql<number>`count(*) FILTER (WHERE ${mcpResources.status} = 'failed')::int`,
          removed: sql<number>`count(*) FILTER (WHERE ${mcpResources.status} = 'removed')::int`,
          tracked: sql<number>`count(*) FILTER (WHERE ${mcpResources.status} <> 'removed')::int`,
        })
        .from(mcpResources)
        .where(inArray(mcpResources.sourceId, sourceIds))
        .groupBy(mcpResources.sourceId);
      for (const r of rows) {
        out.set(r.sourceId, {
          documents: Number(r.documents),
          chunks: Number(r.chunks),
          characters: Number(r.characters),
          indexed: Number(r.indexed),
          failed: Number(r.failed),
          removed: Number(r.removed),
          tracked: Number(r.tracked),
        });
      }
      return out;
    },

    async failedResources(sourceId: string, limit: number): Promise<McpResourceRow[]> {
      return db
        .select()
        .from(mcpResources)
        .where(and(eq(mcpResources.sourceId, sourceId), eq(mcpResources.status, 'failed')))
        .orderBy(desc(mcpResources.lastSeenAt))
        .limit(limit);
    },
  };
}
export type McpSourcesRepository = ReturnType<typeof mcpSourcesRepository>;
