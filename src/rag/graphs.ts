import type { Log } from '../domain/log.js';
import { queryRows, sql, type Database } from '../db/client.js';
import { EXACT_KNN_MAX } from './retrieval.js';

/**
 * A workspace's own HNSW graph (docs/retrieval.md, "Large workspaces").
 *
 * A workspace up to EXACT_KNN_MAX live chunks is searched by exact kNN. A larger one
 * walks an HNSW graph; walking its partition's graph with the workspace as a filter
 * finds fewer of the true neighbours the smaller the workspace's share of the partition
 * (recall@10 0.89 at one sixteenth of a 1M-chunk table, docs/performance.md). So a
 * workspace past the threshold gets a graph of its own chunks: a partial HNSW index on
 * its partition, `WHERE workspace_id = '<id>' AND deleted_at IS NULL`, which the
 * retrieval statement (planned with its parameter values) reads instead of the
 * partition's graph: the walk is unfiltered, recall as for a table of that workspace.
 *
 * Built after an ingestion commits (`ensure`), concurrently on PostgreSQL so that
 * ingestion and answers go on meanwhile; dropped with the workspace (`drop`). A build
 * that fails leaves retrieval as it was (the partition's graph) and is tried again after
 * the next ingestion.
 */
export interface WorkspaceGraphs {
  /** Builds the workspace's graph when it has more live chunks than the threshold and none yet. Returns true when one was built. */
  ensure(workspaceId: string): Promise<boolean>;
  /** Drops the workspace's graph, if any. */
  drop(workspaceId: string): Promise<void>;
  /** Whether the workspace has a valid graph of its own. */
  has(workspaceId: string): Promise<boolean>;
  /** Builds the graph of every workspace past the threshold that has none; returns how many were built. */
  sweep(): Promise<number>;
  /**
   * Sweeps once in the background (instances with workers, at start): a workspace that
   * grew past the threshold before this release, or whose build failed, gets its graph
   * without waiting for its next ingestion.
   */
  start(): void;
  /** Waits for the sweep and any build under way. */
  stop(): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The index's name: `chunks_ws_<32 hex digits>_hnsw` (47 characters, under PostgreSQL's 63). */
export function graphIndexName(workspaceId: string): string {
  if (!UUID.test(workspaceId)) throw new Error(`not a workspace id: ${workspaceId}`);
  return `chunks_ws_${workspaceId.replace(/-/g, '').toLowerCase()}_hnsw`;
}

export function workspaceGraphs(deps: {
  database: Database;
  /** Live chunks above which a workspace gets its own graph (default EXACT_KNN_MAX). */
  threshold?: number;
  /** Memory for one build (PostgreSQL `maintenance_work_mem`), so that the graph is built in memory. */
  buildMemory?: string;
  log?: Log;
}): WorkspaceGraphs {
  const { database } = deps;
  const db = database.db;
  const threshold = deps.threshold ?? EXACT_KNN_MAX;
  const buildMemory = deps.buildMemory ?? '256MB';
  // One build per workspace at a time in this process (another process is kept out by an advisory lock).
  const building = new Map<string, Promise<boolean>>();
  let sweeping: Promise<number> | undefined;
  let stopped = false;

  async function state(name: string): Promise<'valid' | 'invalid' | 'none'> {
    const [row] = await queryRows<{ valid: boolean }>(
      db,
      sql`SELECT i.indisvalid AS valid FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid WHERE c.relname = ${name} AND c.relkind = 'i'`,
    );
    return row ? (row.valid ? 'valid' : 'invalid') : 'none';
  }

  async function build(workspaceId: string): Promise<boolean> {
    const name = graphIndexName(workspaceId);
    if ((await state(name)) === 'valid') return false;
    const [size] = await queryRows<{ n: number | string; part: string | null }>(
      db,
      sql`SELECT count(*) AS n, min(tableoid::regclass::text) AS part
          FROM (SELECT tableoid FROM chunks WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL LIMIT ${threshold + 1}) s`,
    );
    if (!size?.part || Number(size.n) <= threshold) return false;
    // Identifiers and the literal are built from a checked UUID and a catalog name, never from input.
    const partition = size.part.replace(/"/g, '');
    const ddl = `CREATE INDEX CONCURRENTLY IF NOT EXISTS "${name}" ON "${partition}" USING hnsw (embedding vector_cosine_ops) WHERE workspace_id = '${workspaceId}' AND deleted_at IS NULL`;
    const started = performance.now();
    if (database.kind === 'pglite') {
      // One connection: the build holds it (an embedded deployment is small, builds take seconds).
      await db.execute(sql.raw(ddl.replace(' CONCURRENTLY', '')));
    } else {
      const conn = await database.pg!.reserve();
      try {
        const [lock] = await conn<{ ok: boolean }[]>`SELECT pg_try_advisory_lock(hashtextextended(${`chunks-graph:${workspaceId}`}, 0)) AS ok`;
        if (!lock?.ok) return false; // another process is building it
        try {
          // A build that failed half-way leaves an invalid index behind: dropped, then built again.
          if ((await state(name)) === 'invalid') await conn.unsafe(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
          await conn.unsafe(`SET maintenance_work_mem = '${buildMemory.replace(/[^0-9A-Za-z]/g, '')}'`);
          await conn.unsafe(ddl);
        } finally {
          await conn.unsafe('RESET maintenance_work_mem').catch(() => {});
          await conn`SELECT pg_advisory_unlock(hashtextextended(${`chunks-graph:${workspaceId}`}, 0))`.catch(() => {});
        }
      } finally {
        conn.release();
      }
    }
    const valid = (await state(name)) === 'valid';
    deps.log?.info?.({ workspaceId, index: name, chunks: Number(size.n), ms: Math.round(performance.now() - started), valid }, 'workspace graph built');
    return valid;
  }

  async function sweep(): Promise<number> {
    const rows = await queryRows<{ workspace_id: string }>(
      db,
      sql`SELECT workspace_id FROM chunks WHERE workspace_id IS NOT NULL AND deleted_at IS NULL GROUP BY workspace_id HAVING count(*) > ${threshold}`,
    );
    let built = 0;
    for (const { workspace_id } of rows) {
      if (stopped) break;
      if (await ensure(workspace_id)) built++;
    }
    return built;
  }

  function ensure(workspaceId: string): Promise<boolean> {
    const running = building.get(workspaceId);
    if (running) return running;
    const p = build(workspaceId)
      .catch((err) => {
        deps.log?.error({ err, workspaceId }, 'workspace graph build failed');
        return false;
      })
      .finally(() => building.delete(workspaceId));
    building.set(workspaceId, p);
    return p;
  }

  return {
    ensure,
    async drop(workspaceId) {
      const name = graphIndexName(workspaceId);
      await building.get(workspaceId);
      try {
        // Concurrently on PostgreSQL: answers in other workspaces of the partition go on.
        await db.execute(sql.raw(`DROP INDEX ${database.kind === 'postgres' ? 'CONCURRENTLY ' : ''}IF EXISTS "${name}"`));
      } catch (err) {
        // The workspace is gone either way; an index left behind is empty of live rows and costs only disk.
        deps.log?.error({ err, workspaceId, index: name }, 'workspace graph drop failed');
      }
    },

    async has(workspaceId) {
      return (await state(graphIndexName(workspaceId))) === 'valid';
    },

    sweep,

    start() {
      sweeping ??= sweep().catch((err) => {
        deps.log?.error({ err }, 'workspace graph sweep failed');
        return 0;
      });
    },

    async stop() {
      stopped = true;
      await sweeping;
      await Promise.all(building.values());
    },
  };
}
