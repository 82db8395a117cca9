import type { DataSourcesService } from '../data-sources/service.js';
import type { McpSourcesService } from '../mcp-sources/service.js';
import type { SyncTarget } from './service.js';

/**
 * The scheduler runs outside any request: a target gets the workspace alone (`{ workspaceId }`,
 * no user) and the syncs it queues are `requestedBy` null (scheduled).
 */

/**
 * Data sources as a scheduled-sync target: every live data source of the workspace is
 * re-synced, except those whose ingestion is still pending or processing (their
 * current run already reads the latest files).
 */
export function dataSourcesTarget(dataSources: Pick<DataSourcesService, 'list' | 'sync'>): SyncTarget {
  return {
    name: 'data-sources',
    async syncWorkspace(workspaceId) {
      const scope = { workspaceId };
      let queued = 0;
      const errors: string[] = [];
      for (let page = 1; ; page++) {
        const { dataSources: rows, pagination } = await dataSources.list(scope, { page, limit: 100 });
        for (const ds of rows) {
          if (ds.status === 'pending' || ds.status === 'processing') {
            queued += 1;
            continue;
          }
          try {
            await dataSources.sync(scope, ds.id, null);
            queued += 1;
          } catch (err) {
            errors.push(`data source ${ds.id}: ${(err as Error).message}`);
          }
        }
        if (page >= pagination.pages) break;
      }
      return { queued, errors };
    },
  };
}

/** MCP sources as a scheduled-sync target: every enabled MCP source of the workspace. */
export function mcpSourcesTarget(mcpSources: Pick<McpSourcesService, 'syncWorkspace'>): SyncTarget {
  return { name: 'mcp-sources', syncWorkspace: (workspaceId) => mcpSources.syncWorkspace(workspaceId, 'schedule') };
}
