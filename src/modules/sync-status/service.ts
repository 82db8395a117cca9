import { pageOf, type PageRequest } from '../../domain/paging.js';
import { SOURCE_SYNC_STATES, type SourceSyncState } from '../../domain/syncState.js';
import type { SyncSchedule } from '../../db/schema/workspaces.js';
import { iso } from '../../lib/envelope.js';
import type { Scope } from '../../domain/scope.js';

/**
 * `GET /sync-status` (docs/sync-status.md): the sync state of one workspace in one call,
 * so that the dashboard and REST clients need not read every source. It reads, never
 * writes: data sources and MCP sources report their sources in one shape
 * (src/domain/syncState.ts), the workspace gives its schedule, the scheduler its last run.
 */

export const SYNC_STATUS_SORTS = ['state', 'name', 'kind', 'lastSyncAt'] as const;
export type SyncStatusSort = (typeof SYNC_STATUS_SORTS)[number];
export type WorkspaceSyncStatusName = 'active' | 'syncing' | 'error';

export interface SyncStatusDeps {
  dataSources: { syncStates(scope: Scope): Promise<SourceSyncState[]> };
  mcpSources: { syncStates(scope: Scope): Promise<SourceSyncState[]> };
  workspaces: { get(workspaceId: string): Promise<{ syncSchedule: SyncSchedule } | null> };
  schedule: { state(workspaceId: string): Promise<{ lastRunAt: Date | null } | null> };
  /** Seconds between scheduler passes (a due workspace starts within one pass). */
  schedulerIntervalSec: number;
}

export interface SyncStatusQuery extends PageRequest {
  sort: SyncStatusSort;
  descending: boolean;
  state?: SourceSyncState['state'];
}

const RANK = new Map(SOURCE_SYNC_STATES.map((s, i) => [s, i]));

function compare(sort: SyncStatusSort): (a: SourceSyncState, b: SourceSyncState) => number {
  const byName = (a: SourceSyncState, b: SourceSyncState) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);
  switch (sort) {
    case 'state':
      return (a, b) => RANK.get(a.state)! - RANK.get(b.state)! || byName(a, b);
    case 'kind':
      return (a, b) => a.kind.localeCompare(b.kind) || byName(a, b);
    case 'lastSyncAt':
      // Never synced sorts first ascending (oldest first), last descending.
      return (a, b) => (a.lastSyncAt ?? '').localeCompare(b.lastSyncAt ?? '') || byName(a, b);
    default:
      return byName;
  }
}

/** The workspace `syncStatus` from its sources: the rule of docs/organizations-and-workspaces.md. */
export function workspaceSyncStatus(sources: SourceSyncState[]): WorkspaceSyncStatusName {
  if (sources.some((s) => s.state === 'syncing' || s.state === 'queued')) return 'syncing';
  if (sources.some((s) => s.state === 'error')) return 'error';
  return 'active';
}

export type SyncStatus = ReturnType<typeof statusOf>;

/** The sync state of a workspace. */
export interface SyncStatusService {
  /** Summary over all the workspace's sources, its schedule, and one page of sources. */
  status(scope: Scope, q: SyncStatusQuery, now?: Date): Promise<SyncStatus>;
}

export function syncStatusService(deps: SyncStatusDeps): SyncStatusService {
  return {
    async status(scope, q, now = new Date()) {
      const [ws, dataSources, mcpSources, run] = await Promise.all([
        deps.workspaces.get(scope.workspaceId),
        deps.dataSources.syncStates(scope),
        deps.mcpSources.syncStates(scope),
        deps.schedule.state(scope.workspaceId),
      ]);
      return statusOf(scope.workspaceId, ws?.syncSchedule, run?.lastRunAt ?? null, [...dataSources, ...mcpSources], q, deps.schedulerIntervalSec, now);
    },
  };
}

/** The answer of GET /sync-status from what the sources, the workspace and the scheduler report. */
function statusOf(
  workspaceId: string,
  syncSchedule: SyncSchedule | undefined,
  lastRunAt: Date | null,
  sources: SourceSyncState[],
  q: SyncStatusQuery,
  schedulerIntervalSec: number,
  now: Date,
) {
  const schedule = syncSchedule ?? { enabled: false, intervalHours: 24 };
  // Due (never ran, or the interval has passed): it starts at the next scheduler pass.
  const dueAt = lastRunAt ? new Date(lastRunAt.getTime() + schedule.intervalHours * 3_600_000) : now;
  const nextRunAt = schedule.enabled ? (dueAt < now ? now : dueAt) : null;
  const all = sources.map((s) => ({
    ...s,
    nextSyncAt: nextRunAt && s.state !== 'disabled' ? nextRunAt.toISOString() : null,
  }));
  const counts = Object.fromEntries(SOURCE_SYNC_STATES.map((st) => [st, all.filter((s) => s.state === st).length])) as Record<SourceSyncState['state'], number>;
  const cmp = compare(q.sort);
  const listed = all.filter((s) => !q.state || s.state === q.state).sort((a, b) => (q.descending ? -cmp(a, b) : cmp(a, b)));
  const { items, pagination } = pageOf(listed, q);
  const times = all
    .map((s) => s.lastSyncAt)
    .filter((x): x is string => !!x)
    .sort();
  return {
    workspaceId,
    syncStatus: workspaceSyncStatus(all),
    checkedAt: now.toISOString(),
    lastSyncAt: times.at(-1) ?? null,
    schedule: {
      enabled: schedule.enabled,
      intervalHours: schedule.intervalHours,
      lastRunAt: iso(lastRunAt),
      nextRunAt: iso(nextRunAt),
      schedulerIntervalSec,
    },
    counts: { total: all.length, ...counts },
    sources: items,
    pagination,
  };
}
