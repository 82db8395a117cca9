import path from 'node:path';
import type { McpSyncError, McpSyncStatus, McpSyncTrigger } from '../../db/schema/mcp.js';
import type { McpServerInfo } from '../../mcp/client.js';
import type { SourceSyncState } from '../../domain/syncState.js';
import type { McpResourceRow, McpSourceRow, McpSourcesRepository, McpSyncRunRow, RunCounts } from './repository.js';

/** What the API shows of MCP sources and their sync runs: pure mappings of rows. */

export interface SyncRunView {
  id: string;
  status: McpSyncStatus;
  trigger: McpSyncTrigger;
  jobId: string | null;
  queuedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  resources: { listed: number; added: number; updated: number; unchanged: number; removed: number; failed: number };
  chunksIndexed: number;
  error: string | null;
  errors: McpSyncError[];
}

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function runView(r: McpSyncRunRow): SyncRunView {
  return {
    id: r.id,
    status: r.status,
    trigger: r.trigger,
    jobId: r.jobId,
    queuedAt: r.queuedAt.toISOString(),
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
    durationMs: r.durationMs,
    resources: {
      listed: r.resourcesListed,
      added: r.resourcesAdded,
      updated: r.resourcesUpdated,
      unchanged: r.resourcesUnchanged,
      removed: r.resourcesRemoved,
      failed: r.resourcesFailed,
    },
    chunksIndexed: r.chunksIndexed,
    error: r.error,
    errors: r.errors,
  };
}

export function sourceView(s: McpSourceRow, lastSync: McpSyncRunRow | undefined, totals: { documents: number; chunks: number } | undefined) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    transport: s.transport,
    url: s.url,
    command: s.command,
    args: s.args,
    headerNames: s.headerNames,
    envNames: s.envNames,
    enabled: s.enabled,
    server: (s.serverInfo as McpServerInfo | null) ?? null,
    syncStatus: lastSync ? lastSync.status : ('never' as const),
    lastSync: lastSync ? runView(lastSync) : null,
    documentCount: totals?.documents ?? 0,
    chunkCount: totals?.chunks ?? 0,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
export type McpSourceView = ReturnType<typeof sourceView>;

/** Views of stored sources, with their last run and document totals (two queries for all rows). */
export async function sourceViews(repo: Pick<McpSourcesRepository, 'latestRuns' | 'resourceTotals'>, rows: McpSourceRow[]): Promise<McpSourceView[]> {
  const ids = rows.map((r) => r.id);
  const [runs, totals] = await Promise.all([repo.latestRuns(ids), repo.resourceTotals(ids)]);
  return rows.map((r) => sourceView(r, runs.get(r.id), totals.get(r.id)));
}

/** Counts of a run before anything happened. */
export const emptyCounts = (): RunCounts => ({
  resourcesListed: 0,
  resourcesAdded: 0,
  resourcesUpdated: 0,
  resourcesUnchanged: 0,
  resourcesRemoved: 0,
  resourcesFailed: 0,
  chunksIndexed: 0,
});

type SyncRow = Awaited<ReturnType<McpSourcesRepository['syncRows']>>[number];

/** The sync state of one MCP source for GET /sync-status. */
export function syncStateOf(s: SyncRow): SourceSyncState {
  const run = s.active;
  const last = s.lastFinished;
  const state: SourceSyncState['state'] = run
    ? run.status === 'running'
      ? 'syncing'
      : 'queued'
    : !s.enabled
      ? 'disabled'
      : !last
        ? 'never'
        : last.status === 'failed'
          ? 'error'
          : 'ready';
  const done = run ? run.resourcesAdded + run.resourcesUpdated + run.resourcesUnchanged + run.resourcesFailed : 0;
  const firstError = last?.errors[0];
  return {
    id: s.id,
    kind: 'mcp_source' as const,
    name: s.name,
    state,
    status: run?.status ?? last?.status ?? 'never',
    lastSyncAt: iso(last?.finishedAt ?? null),
    lastSuccessAt: iso(s.lastSuccessAt),
    nextSyncAt: null,
    job: run
      ? {
          id: run.jobId,
          runId: run.id,
          state: run.status === 'running' ? ('running' as const) : ('queued' as const),
          trigger: run.trigger,
          queuedAt: run.queuedAt.toISOString(),
          startedAt: iso(run.startedAt),
          attempt: 1,
          progress:
            run.status === 'running' && run.resourcesListed > 0
              ? { done: Math.min(done, run.resourcesListed), total: run.resourcesListed, unit: 'resources' as const }
              : null,
        }
      : null,
    lastError:
      last?.status === 'failed'
        ? { code: null, message: last.error ?? 'The sync failed', at: iso(last.finishedAt) }
        : last?.status === 'partial'
          ? {
              code: null,
              message:
                `${last.resourcesFailed} of ${last.resourcesListed} resources failed${firstError ? `; first: ${firstError.uri ? `${firstError.uri}: ` : ''}${firstError.message}` : ''}`.slice(
                  0,
                  1000,
                ),
              at: iso(last.finishedAt),
            }
          : null,
  };
}

/** GET /mcp-sources/:id/stats. */
export function statsView(
  id: string,
  t: { documents: number; chunks: number; characters: number; tracked: number; indexed: number; failed: number; removed: number } | undefined,
  last: McpSyncRunRow | undefined,
  lastOk: McpSyncRunRow | null | undefined,
  syncs: Awaited<ReturnType<McpSourcesRepository['runTotals']>>,
  failed: McpResourceRow[],
) {
  return {
    mcpSourceId: id,
    documents: t?.documents ?? 0,
    chunks: t?.chunks ?? 0,
    characters: t?.characters ?? 0,
    resources: { tracked: t?.tracked ?? 0, indexed: t?.indexed ?? 0, failed: t?.failed ?? 0, removed: t?.removed ?? 0 },
    lastSync: last ? runView(last) : null,
    lastSyncAt: iso(last?.finishedAt ?? null),
    lastSyncStatus: last?.status ?? ('never' as const),
    lastSyncDurationMs: last?.durationMs ?? null,
    lastSuccessfulSyncAt: iso(lastOk?.finishedAt ?? null),
    syncs,
    errors: failed.map((r) => ({ uri: r.uri, message: r.error ?? 'failed', at: r.lastSeenAt.toISOString() })),
  };
}
export type McpSourceStats = ReturnType<typeof statsView>;

const TEXT_EXTENSIONS: Record<string, string> = {
  'text/markdown': '.md',
  'text/x-markdown': '.md',
  'text/plain': '.txt',
  'text/html': '.html',
  'application/xhtml+xml': '.html',
  'application/json': '.json',
  'application/pdf': '.pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': '.docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': '.xlsx',
};

/** A file name for the parser: the URI's last path segment, with an extension from the media type when it has none. */
export function resourceFilename(uri: string, mimeType?: string): string {
  let base = '';
  try {
    const u = new URL(uri);
    base = decodeURIComponent(u.pathname.split('/').filter(Boolean).pop() ?? '') || u.hostname;
  } catch {
    base = uri.split(/[/\\]/).filter(Boolean).pop() ?? '';
  }
  base = base.replace(/[\0-\x1f]/g, '').slice(0, 200) || 'resource';
  const mime = (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!path.extname(base) && TEXT_EXTENSIONS[mime]) base += TEXT_EXTENSIONS[mime];
  return base;
}

/**
 * Where a citation of a resource points: the resource URI itself when it is a web
 * address, else this API's link to the MCP source with the resource in the fragment.
 */
export function resourceLink(sourceId: string, uri: string): string {
  if (/^https?:\/\//i.test(uri)) return uri;
  return `/api/v1/mcp-sources/${encodeURIComponent(sourceId)}#resource=${encodeURIComponent(uri)}`;
}
