/**
 * What other modules feed into a workspace: stats (documents, pages, databases), sync state
 * (what `syncStatus` is derived from) and hooks run after a workspace is deleted.
 */

export interface WorkspaceStats {
  totalPages: number;
  totalDatabases: number;
  totalDocuments: number;
}
/** Other modules (data sources, documents) feed the workspace stats through providers. */
export type StatsProvider = (workspaceId: string) => Promise<Partial<WorkspaceStats>>;

/** What a module that syncs reports per workspace: items with a sync under way, items whose last sync failed. */
export interface SyncCounts {
  syncing: number;
  failed: number;
}
/** Modules that sync (data sources, MCP sources) report their counts for many workspaces in one call. */
export type SyncStateProvider = (workspaceIds: string[]) => Promise<Map<string, SyncCounts>>;

/**
 * A workspace's `syncStatus` (docs/organizations-and-workspaces.md), derived on read from
 * its sources: `syncing` while any sync is queued or running, else `error` while the last
 * sync of any source failed, else `active`.
 */
export const SYNC_STATUSES = ['active', 'syncing', 'error'] as const;
export type WorkspaceSyncStatus = (typeof SYNC_STATUSES)[number];
/** Called after a workspace was deleted (its rows are gone through ON DELETE CASCADE). */
export type WorkspaceDeletedHook = (workspace: { id: string; orgId: string }) => Promise<void>;

/** `syncStatus` per workspace from the providers' counts: syncing, else error, else active. */
function syncStatusOfCounts(workspaceIds: string[], reports: Map<string, SyncCounts>[]): Map<string, WorkspaceSyncStatus> {
  const totals = new Map<string, SyncCounts>(workspaceIds.map((id) => [id, { syncing: 0, failed: 0 }]));
  for (const counts of reports) {
    for (const [id, c] of counts) {
      const t = totals.get(id);
      if (!t) continue;
      t.syncing += c.syncing;
      t.failed += c.failed;
    }
  }
  return new Map([...totals].map(([id, t]) => [id, t.syncing > 0 ? 'syncing' : t.failed > 0 ? 'error' : 'active']));
}

/** The registered providers and hooks of the workspaces service. */
export function workspaceProviders() {
  const statsProviders: StatsProvider[] = [];
  const syncStateProviders: SyncStateProvider[] = [];
  const deletedHooks: WorkspaceDeletedHook[] = [];

  async function stats(workspaceId: string): Promise<WorkspaceStats> {
    const total: WorkspaceStats = { totalPages: 0, totalDatabases: 0, totalDocuments: 0 };
    for (const p of statsProviders) {
      const s = await p(workspaceId);
      total.totalPages += s.totalPages ?? 0;
      total.totalDatabases += s.totalDatabases ?? 0;
      total.totalDocuments += s.totalDocuments ?? 0;
    }
    return total;
  }

  async function syncStatuses(workspaceIds: string[]): Promise<Map<string, WorkspaceSyncStatus>> {
    const reports = workspaceIds.length ? await Promise.all(syncStateProviders.map((p) => p(workspaceIds))) : [];
    return syncStatusOfCounts(workspaceIds, reports);
  }

  return {
    addStatsProvider(p: StatsProvider) {
      statsProviders.push(p);
    },
    addSyncStateProvider(p: SyncStateProvider) {
      syncStateProviders.push(p);
    },
    onDeleted(h: WorkspaceDeletedHook) {
      deletedHooks.push(h);
    },
    stats,
    syncStatuses,
    syncStatusOf: async (workspaceId: string): Promise<WorkspaceSyncStatus> => (await syncStatuses([workspaceId])).get(workspaceId) ?? 'active',
    /** Runs the deleted hooks, in the order registered. */
    async deleted(workspace: { id: string; orgId: string }) {
      for (const h of deletedHooks) await h(workspace);
    },
  };
}
