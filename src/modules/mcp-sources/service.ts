import type { Config } from '../../config.js';
import type { McpTransport, McpSyncTrigger } from '../../db/schema/mcp.js';
import type { ParsePool } from '../../ingest/parsePool.js';
import type { JobQueue } from '../../jobs/queue.js';
import { conflict, notFound } from '../../lib/errors.js';
import { createSecretBox, SecretsError, type SecretBox } from '../../lib/secrets.js';
import { createMcpClient, McpError, type McpClient, type McpResourceInfo, type McpServerInfo } from '../../mcp/client.js';
import { createNetworkGuard, type NetworkGuard } from '../../mcp/ssrf.js';
import type { Embedder } from '../../rag/embedders/index.js';
import type { Scope } from '../../domain/scope.js';

import { pagination, type Pagination } from '../../domain/paging.js';
import type { SourceSyncState } from '../../domain/syncState.js';
import { checkConnection, fieldError, mergeMap, openSecrets, sealSecrets, type Secrets } from './connection.js';
import type { McpSortField, McpSourcesRepository } from './repository.js';
import { mcpSync, type McpDocumentStore, type McpNotifier } from './sync.js';
import { runView, sourceViews, statsView, syncStateOf, type McpSourceStats, type McpSourceView, type SyncRunView } from './views.js';
import type { Log } from '../../domain/log.js';

export { MCP_SYNC_QUEUE, type McpDocumentStore } from './sync.js';
export { resourceFilename, resourceLink, runView, type McpSourceView, type SyncRunView } from './views.js';

/**
 * MCP data sources (docs/mcp-sources.md): registration with encrypted credentials,
 * test-connection and statistics; the sync itself (runs, jobs, results) is ./sync.ts.
 * Workspace-scoped functions take the caller's `Scope` first; `syncWorkspace` runs for
 * the scheduler, outside a request, and takes the workspace alone (no user).
 */

export interface McpSourcesDeps {
  repo: McpSourcesRepository;
  config: Config;
  queue: JobQueue;
  store: McpDocumentStore;
  embedder: Embedder;
  /** Parses resources off the main thread (src/ingest/parsePool.ts). */
  parser: Pick<ParsePool, 'parse'>;
  notifications?: McpNotifier;
  /** Runs after a sync run wrote a workspace's chunks (src/rag/graphs.ts). */
  afterIndexed?: (workspaceId: string) => Promise<unknown>;
  log?: Log;
  /** For tests of the guard itself: a network guard to use instead of the configured one. */
  guard?: NetworkGuard;
}

// --- input ---

export interface ConnectionInput {
  transport?: McpTransport;
  url?: string;
  headers?: Record<string, string | null> | null;
  command?: string;
  args?: string[];
  env?: Record<string, string | null> | null;
}

export interface CreateInput extends ConnectionInput {
  name: string;
  description?: string | null;
  enabled?: boolean;
  sync?: boolean;
}

export interface UpdateInput extends Omit<ConnectionInput, 'transport'> {
  name?: string;
  description?: string | null;
  enabled?: boolean;
  transport?: McpTransport;
}

/** Outcome of POST /mcp-sources/test-connection. */
export type ConnectionTest =
  | {
      ok: true;
      latencyMs: number;
      server: McpServerInfo;
      resources: { count: number; truncated: boolean; items: McpResourceInfo[] };
      tools: { count: number; items: { name: string; title?: string; description?: string }[] };
    }
  | { ok: false; latencyMs: number; error: { code: string; message: string } };

/** The MCP sources of a workspace. */
export interface McpSourcesService {
  /** One page of the workspace's sources. */
  list(
    scope: Scope,
    q: { page: number; limit: number; sort: McpSortField; descending: boolean },
  ): Promise<{ mcpSources: McpSourceView[]; pagination: Pagination }>;
  /** One source (404 MCP_SOURCE_NOT_FOUND). */
  get(scope: Scope, id: string): Promise<McpSourceView>;
  /** Registers a source (credentials sealed); queues a first sync unless `sync` is false. */
  create(scope: Scope, input: CreateInput): Promise<{ source: McpSourceView; sync: SyncRunView | null }>;
  /** Changes name, description, enabled or connection settings (credentials merged). */
  update(scope: Scope, id: string, input: UpdateInput): Promise<McpSourceView>;
  /** Deletes the source with its documents and chunks (cascade) and its sync history. */
  remove(scope: Scope, id: string): Promise<{ id: string; deletedDocuments: number; deletedChunks: number }>;
  /** Connects with the given settings, lists resources and tools, and disconnects. Nothing is stored. */
  testConnection(input: ConnectionInput): Promise<ConnectionTest>;
  /** Queues a manual sync of the source for the caller (or returns the one already queued). */
  requestSync(scope: Scope, id: string): Promise<{ sync: SyncRunView; created: boolean }>;
  /** One sync run of a source (polling the state of a triggered sync). */
  syncRun(scope: Scope, id: string, runId: string): Promise<SyncRunView>;
  /** Queues syncs of every enabled source of a workspace (the scheduler: no user); counts queued or already queued. */
  syncWorkspace(workspaceId: string, trigger?: McpSyncTrigger): Promise<{ queued: number; errors: string[] }>;
  /** Runs one queued sync run directly (tests, CLI); the job handler does the same. */
  runSync(runId: string, signal?: AbortSignal): Promise<void>;
  /** The sync state of every MCP source of a workspace (GET /sync-status). */
  syncStates(scope: Scope): Promise<SourceSyncState[]>;
  /** Sources syncing and enabled sources whose last sync failed, per workspace (the list's `syncStatus`; any workspaces). */
  syncCounts(workspaceIds: string[]): Promise<Map<string, { syncing: number; failed: number }>>;
  /** Document and chunk counts, resource states, last sync and sync totals of a source. */
  stats(scope: Scope, id: string): Promise<McpSourceStats>;
  /** Releases the network guard. */
  close(): Promise<void>;
}

export const mcpSourceNotFound = () => notFound('MCP source not found', 'MCP_SOURCE_NOT_FOUND');

/** Connects, lists resources and tools, disconnects; a failure is an answer (ok=false), not an error. */
async function tryConnection(client: McpClient, spec: Parameters<McpClient['connect']>[0], maxResources: number): Promise<ConnectionTest> {
  const t0 = performance.now();
  try {
    const session = await client.connect(spec);
    try {
      const { resources, truncated } = await session.listResources(maxResources);
      const tools = await session.listTools(100);
      return {
        ok: true as const,
        latencyMs: Math.round(performance.now() - t0),
        server: session.server,
        resources: { count: resources.length, truncated, items: resources.slice(0, 50) },
        tools: { count: tools.length, items: tools.slice(0, 50) },
      };
    } finally {
      await session.close();
    }
  } catch (e) {
    const err = e instanceof McpError ? e : new McpError((e as Error).message, 'MCP_CONNECTION_FAILED');
    return { ok: false as const, latencyMs: Math.round(performance.now() - t0), error: { code: err.code, message: err.message } };
  }
}

/** Current credentials of a source for a change of its connection; unreadable ones must be restated (409 SECRETS_UNREADABLE). */
function currentSecrets(box: SecretBox, row: Parameters<typeof openSecrets>[1], input: UpdateInput): Secrets {
  try {
    return openSecrets(box, row);
  } catch (e) {
    if (!(e instanceof SecretsError)) throw e;
    // Sealed with a key that is no longer configured: the caller must restate them.
    const restated = row.transport === 'http' ? input.headers !== undefined : input.env !== undefined;
    if (!restated) {
      throw conflict(
        `Stored credentials of this MCP source cannot be decrypted with the configured SECRETS_KEY; send ${row.transport === 'http' ? 'headers' : 'env'} again to replace them`,
        'SECRETS_UNREADABLE',
      );
    }
    return { headers: {}, env: {} };
  }
}

export function mcpSourcesService(deps: McpSourcesDeps): McpSourcesService {
  const { repo, config } = deps;
  const box: SecretBox = createSecretBox(config.secretsKey, config.secretsKeyPrevious);
  const guard = deps.guard ?? createNetworkGuard({ allowPrivateNetworks: config.mcp.allowPrivateNetworks, allowedHosts: config.mcp.allowedHosts });
  const stdioPolicy = { enabled: config.mcp.stdioEnabled, allowedCommands: config.mcp.stdioCommands, cwd: config.mcp.stdioCwd };
  const client: McpClient = createMcpClient({
    guard,
    stdio: stdioPolicy,
    timeoutMs: config.mcp.timeoutMs,
    maxMessageBytes: Math.max(config.mcp.maxResourceBytes * 2, 1024 * 1024),
  });
  const sync = mcpSync({ ...deps, client, box });

  const sourceOf = async (scope: Pick<Scope, 'workspaceId'>, id: string) => {
    const row = await repo.get(scope, id);
    if (!row) throw mcpSourceNotFound();
    return row;
  };

  /** Queues a sync of a source; `userId` null for the scheduler. */
  async function requestSyncOf(scope: Pick<Scope, 'workspaceId'>, id: string, userId: string | null, trigger: McpSyncTrigger) {
    const row = await sourceOf(scope, id);
    if (!row.enabled) throw conflict('MCP source is disabled; enable it before syncing', 'MCP_SOURCE_DISABLED');
    const { run, created } = await sync.enqueue(row, trigger, userId);
    return { sync: runView(run), created };
  }

  const service: McpSourcesService = {
    async list(scope, q) {
      const { rows, total } = await repo.list(scope, { offset: (q.page - 1) * q.limit, limit: q.limit, sort: q.sort, descending: q.descending });
      return { mcpSources: await sourceViews(repo, rows), pagination: pagination(q, total) };
    },

    async get(scope, id) {
      return (await sourceViews(repo, [await sourceOf(scope, id)]))[0]!;
    },

    async create(scope, input) {
      const transport = input.transport;
      if (!transport) throw fieldError('transport', 'is required');
      const headers = mergeMap({}, input.headers ?? undefined);
      const env = mergeMap({}, input.env ?? undefined);
      await checkConnection(guard, stdioPolicy, { transport, url: input.url ?? null, headers, command: input.command ?? null, args: input.args ?? [], env });
      const row = await repo.create(
        scope,
        {
          name: input.name.trim(),
          description: input.description?.trim() || null,
          transport,
          url: input.url ?? null,
          command: input.command ?? null,
          args: input.args ?? [],
          headerNames: Object.keys(headers),
          envNames: Object.keys(env),
          enabled: input.enabled ?? true,
          createdBy: scope.userId,
        },
        (id) => sealSecrets(box, id, { headers, env }),
      );
      let queued: SyncRunView | null = null;
      if (row.enabled && input.sync !== false) queued = runView((await sync.enqueue(row, 'create', scope.userId)).run);
      return { source: await service.get(scope, row.id), sync: queued };
    },

    async update(scope, id, input) {
      const row = await sourceOf(scope, id);
      if (input.transport !== undefined && input.transport !== row.transport) {
        throw fieldError('transport', 'cannot be changed; register a new MCP source');
      }
      const connectionChanged = ['url', 'headers', 'command', 'args', 'env'].some((k) => (input as Record<string, unknown>)[k] !== undefined);
      const values: Record<string, unknown> = {};
      if (input.name !== undefined) values.name = input.name.trim();
      if (input.description !== undefined) values.description = input.description?.trim() || null;
      if (input.enabled !== undefined) values.enabled = input.enabled;
      if (connectionChanged) {
        const current = currentSecrets(box, row, input);
        const headers = mergeMap(current.headers, input.headers);
        const env = mergeMap(current.env, input.env);
        const next = {
          transport: row.transport,
          url: input.url !== undefined ? input.url : row.url,
          command: input.command !== undefined ? input.command : row.command,
          args: input.args ?? row.args,
          headers,
          env,
        };
        await checkConnection(guard, stdioPolicy, next);
        Object.assign(values, {
          url: next.url,
          command: next.command,
          args: next.args,
          headerNames: Object.keys(headers),
          envNames: Object.keys(env),
          secrets: sealSecrets(box, row.id, { headers, env }),
        });
      }
      const updated = await repo.update(scope, id, values, connectionChanged);
      if (!updated) throw mcpSourceNotFound();
      await sync.publishStatus(id);
      return (await sourceViews(repo, [updated]))[0]!;
    },

    async remove(scope, id) {
      const row = await sourceOf(scope, id);
      const totals = (await repo.resourceTotals([id])).get(id);
      if (!(await repo.delete(scope, id))) throw mcpSourceNotFound();
      await sync.publishStatus(id, { workspaceId: row.workspaceId, name: row.name });
      return { id, deletedDocuments: totals?.documents ?? 0, deletedChunks: totals?.chunks ?? 0 };
    },

    async testConnection(input) {
      const transport = input.transport;
      if (!transport) throw fieldError('transport', 'is required');
      const spec = await checkConnection(guard, stdioPolicy, {
        transport,
        url: input.url ?? null,
        headers: mergeMap({}, input.headers ?? undefined),
        command: input.command ?? null,
        args: input.args ?? [],
        env: mergeMap({}, input.env ?? undefined),
      });
      return tryConnection(client, spec, config.mcp.maxResources);
    },

    requestSync: (scope, id) => requestSyncOf(scope, id, scope.userId, 'manual'),

    async syncRun(scope, id, runId) {
      const row = await repo.get(scope, id);
      const run = row ? await repo.run(runId) : null;
      if (!row || !run || run.sourceId !== id) throw notFound('Sync not found', 'NOT_FOUND');
      return runView(run);
    },

    async syncWorkspace(workspaceId, trigger = 'schedule') {
      let queued = 0;
      const errors: string[] = [];
      for (const id of await repo.enabledIds({ workspaceId })) {
        try {
          await requestSyncOf({ workspaceId }, id, null, trigger);
          queued += 1;
        } catch (e) {
          errors.push(`mcp source ${id}: ${(e as Error).message}`);
        }
      }
      return { queued, errors };
    },

    runSync: (runId, signal = new AbortController().signal) => sync.runSync(runId, signal),

    async syncStates(scope) {
      return (await repo.syncRows(scope)).map(syncStateOf);
    },

    syncCounts: (workspaceIds) => repo.syncCounts(workspaceIds),

    async stats(scope, id) {
      await sourceOf(scope, id);
      const [runs, totals, lastOk, runTotals, failed] = await Promise.all([
        repo.latestRuns([id]),
        repo.resourceTotals([id]),
        repo.lastSuccessfulRun(id),
        repo.runTotals(id),
        repo.failedResources(id, 20),
      ]);
      return statsView(id, totals.get(id), runs.get(id), lastOk, runTotals, failed);
    },

    async close() {
      await guard.close();
    },
  };
  return service;
}
