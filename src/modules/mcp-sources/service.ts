import path from 'node:path';
import type { Config } from '../../config.js';
import type { McpSyncError, McpSyncStatus, McpSyncTrigger, McpTransport } from '../../db/schema/mcp.js';
import type { ParsePool } from '../../ingest/parsePool.js';
import { chunkAndEmbed, indexFingerprint } from '../../ingest/pipeline.js';
import type { JobQueue } from '../../jobs/queue.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { createSecretBox, SecretsError, type SecretBox } from '../../lib/secrets.js';
import { createMcpClient, McpError, stdioRefusal, type McpClient, type McpConnectionSpec, type McpResourceInfo, type McpServerInfo } from '../../mcp/client.js';
import { createNetworkGuard, UrlNotAllowedError, type NetworkGuard } from '../../mcp/ssrf.js';
import type { Embedder } from '../../rag/embedders/index.js';
import type { McpResourceRow, McpSortField, McpSourceRow, McpSourcesRepository, McpSyncRunRow, RunCounts } from './repository.js';
import { pagination } from '../../domain/paging.js';
import type { SourceSyncState } from '../../domain/syncState.js';

/**
 * MCP data sources (docs/mcp-sources.md): registration with encrypted credentials,
 * test-connection, sync jobs that list the server's resources and index them through
 * the ingestion pipeline (incremental), and statistics.
 */

export const MCP_SYNC_QUEUE = 'mcp-sync';

/** What the ingestion side offers to store the documents of MCP resources (data-sources service). */
export interface McpDocumentStore {
  /**
   * Writes (or replaces, chunks included) the document of one resource of an MCP
   * source, keyed by the resource URI; a soft-deleted document comes back. Returns the
   * document id, or null when the source no longer exists.
   */
  writeMcpDocument(
    scope: { workspaceId: string; mcpSourceId: string },
    doc: {
      key: string;
      title: string;
      url: string;
      format: string;
      pageCount: number;
      charCount: number;
      contentHash: string;
      docDate: Date;
      embeddingModel: string;
      metadata: Record<string, unknown>;
      chunks: { chunkIndex: number; section: string; page: number | null; pageEnd: number | null; content: string; embedding: number[] }[];
    },
  ): Promise<string | null>;
  /** Soft-deletes documents of an MCP source (and their chunks). */
  softDeleteMcpDocuments(mcpSourceId: string, documentIds: string[]): Promise<number>;
}

export interface NotifyPort {
  notifyQuietly(input: { userIds?: string[]; workspaceId?: string | null; type: 'sync_completed' | 'sync_failed'; title: string; body?: string; data?: Record<string, unknown> }): Promise<void>;
  /** A live workspace event (not stored; never throws), docs/notifications.md. */
  broadcast?(input: { workspaceId: string; event: 'mcp-source:status'; payload: Record<string, unknown>; permission?: string }): Promise<void>;
}

export interface McpSourcesDeps {
  repo: McpSourcesRepository;
  config: Config;
  queue: JobQueue;
  store: McpDocumentStore;
  embedder: Embedder;
  /** Parses resources off the main thread (src/ingest/parsePool.ts). */
  parser: Pick<ParsePool, 'parse'>;
  notifications?: NotifyPort;
  log?: { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void; info?(obj: unknown, msg?: string): void };
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

interface Secrets {
  headers: Record<string, string>;
  env: Record<string, string>;
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,100}$/;
/** Headers the transport manages itself; a source cannot set them. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'accept', 'connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'keep-alive', 'proxy-connection', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'expect']);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** Variables that change which program runs or what it loads: refused for stdio sources. */
const RESERVED_ENV = /^(PATH|HOME|NODE_OPTIONS|NODE_PATH|NODE_EXTRA_CA_CERTS|PYTHONPATH|PYTHONHOME|PYTHONSTARTUP|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|BASH_ENV|ENV|SHELL|IFS|LD_.*|DYLD_.*)$/i;
const MAX_HEADERS = 32;
const MAX_ENV = 64;
const MAX_HEADER_VALUE = 8192;
const MAX_ENV_VALUE = 32768;

const fieldError = (field: string, problem: string) => badRequest(`${field}: ${problem}`, [`${field}: ${problem}`]);

function urlError(e: UrlNotAllowedError) {
  return new AppError(400, e.reason === 'refused' ? 'URL_NOT_ALLOWED' : 'VALIDATION_ERROR', `Validation failed: url ${e.message}`, [`url: ${e.message}`]);
}

function stdioError(reason: string) {
  return new AppError(400, 'STDIO_NOT_ALLOWED', `Validation failed: ${reason}`, [`command: ${reason}`]);
}

/** Applies a patch (`null` removes a key; `null` for the whole map clears it). */
function mergeMap(current: Record<string, string>, patch: Record<string, string | null> | null | undefined): Record<string, string> {
  if (patch === undefined) return current;
  if (patch === null) return {};
  const out = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    // Header names are case-insensitive: a new spelling replaces the old one.
    for (const existing of Object.keys(out)) if (existing.toLowerCase() === k.toLowerCase() && existing !== k) delete out[existing];
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

function checkHeaders(headers: Record<string, string>): void {
  const names = Object.keys(headers);
  if (names.length > MAX_HEADERS) throw fieldError('headers', `at most ${MAX_HEADERS} headers`);
  for (const [k, v] of Object.entries(headers)) {
    if (!HEADER_NAME.test(k)) throw fieldError(`headers.${k}`, 'is not a valid header name');
    if (RESERVED_HEADERS.has(k.toLowerCase())) throw fieldError(`headers.${k}`, 'is set by the MCP transport and cannot be configured');
    if (/[\r\n\0]/.test(v)) throw fieldError(`headers.${k}`, 'must not contain line breaks');
    if (v.length > MAX_HEADER_VALUE) throw fieldError(`headers.${k}`, `must be at most ${MAX_HEADER_VALUE} characters`);
  }
}

function checkEnv(env: Record<string, string>): void {
  if (Object.keys(env).length > MAX_ENV) throw fieldError('env', `at most ${MAX_ENV} variables`);
  for (const [k, v] of Object.entries(env)) {
    if (!ENV_NAME.test(k)) throw fieldError(`env.${k}`, 'is not a valid environment variable name');
    if (RESERVED_ENV.test(k)) throw fieldError(`env.${k}`, 'cannot be set for an MCP server process');
    if (v.includes('\0')) throw fieldError(`env.${k}`, 'must not contain NUL characters');
    if (v.length > MAX_ENV_VALUE) throw fieldError(`env.${k}`, `must be at most ${MAX_ENV_VALUE} characters`);
  }
}

// --- output ---

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

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

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

function sourceView(s: McpSourceRow, lastSync: McpSyncRunRow | undefined, totals: { documents: number; chunks: number } | undefined) {
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

export function mcpSourcesService(deps: McpSourcesDeps) {
  const { repo, config, queue, store, embedder } = deps;
  const box: SecretBox = createSecretBox(config.secretsKey, config.secretsKeyPrevious);
  const guard = deps.guard ?? createNetworkGuard({ allowPrivateNetworks: config.mcp.allowPrivateNetworks, allowedHosts: config.mcp.allowedHosts });
  const stdioPolicy = { enabled: config.mcp.stdioEnabled, allowedCommands: config.mcp.stdioCommands, cwd: config.mcp.stdioCwd };
  const client: McpClient = createMcpClient({ guard, stdio: stdioPolicy, timeoutMs: config.mcp.timeoutMs, maxMessageBytes: Math.max(config.mcp.maxResourceBytes * 2, 1024 * 1024) });
  const chunkOpts = { size: config.ingest.chunkSize, overlap: config.ingest.chunkOverlap };
  /** A running sync older than this is considered interrupted (its worker died). */
  const staleAfterMs = 30 * 60 * 1000;

  const aad = (id: string) => `mcp_source:${id}`;
  const seal = (id: string, s: Secrets): string | null =>
    Object.keys(s.headers).length || Object.keys(s.env).length ? box.seal(JSON.stringify(s), aad(id)) : null;
  const open = (row: McpSourceRow): Secrets => {
    if (!row.secrets) return { headers: {}, env: {} };
    const s = JSON.parse(box.open(row.secrets, aad(row.id))) as Partial<Secrets>;
    return { headers: s.headers ?? {}, env: s.env ?? {} };
  };

  /** Validates connection settings (structure, network rules, stdio policy) into a spec. */
  async function checkConnection(c: { transport: McpTransport; url: string | null; headers: Record<string, string>; command: string | null; args: string[]; env: Record<string, string> }): Promise<McpConnectionSpec> {
    if (c.transport === 'http') {
      if (!c.url) throw fieldError('url', 'is required for transport http');
      if (c.command !== null) throw fieldError('command', 'is only allowed for transport stdio');
      if (c.args.length) throw fieldError('args', 'is only allowed for transport stdio');
      if (Object.keys(c.env).length) throw fieldError('env', 'is only allowed for transport stdio');
      checkHeaders(c.headers);
      try {
        await guard.checkUrl(c.url);
      } catch (e) {
        if (e instanceof UrlNotAllowedError) throw urlError(e);
        throw e;
      }
      return { transport: 'http', url: c.url, headers: c.headers };
    }
    if (!c.command) throw fieldError('command', 'is required for transport stdio');
    if (c.url !== null) throw fieldError('url', 'is only allowed for transport http');
    if (Object.keys(c.headers).length) throw fieldError('headers', 'is only allowed for transport http');
    if (c.command.includes('\0') || c.args.some((a) => a.includes('\0'))) throw fieldError('command', 'must not contain NUL characters');
    checkEnv(c.env);
    const refusal = stdioRefusal(stdioPolicy, c.command);
    if (refusal) throw stdioError(refusal);
    return { transport: 'stdio', command: c.command, args: c.args, env: c.env };
  }

  function specOf(row: McpSourceRow): McpConnectionSpec {
    const s = open(row);
    return row.transport === 'http'
      ? { transport: 'http', url: row.url!, headers: s.headers }
      : { transport: 'stdio', command: row.command!, args: row.args, env: s.env };
  }

  async function views(rows: McpSourceRow[]) {
    const ids = rows.map((r) => r.id);
    const [runs, totals] = await Promise.all([repo.latestRuns(ids), repo.resourceTotals(ids)]);
    return rows.map((r) => sourceView(r, runs.get(r.id), totals.get(r.id)));
  }

  /**
   * Live status for open dashboards (`mcp-source:status`, not stored; never throws): the
   * source's sync state and counts as they are now, or `deleted`. Sent when a sync is queued,
   * starts and ends, and when the source is deleted (docs/notifications.md).
   */
  async function publishStatus(sourceId: string, deleted?: { workspaceId: string; name: string }) {
    if (!deps.notifications?.broadcast) return;
    try {
      const row = deleted ? null : await repo.byId(sourceId);
      if (!row && !deleted) return;
      const v = row ? (await views([row]))[0]! : null;
      const payload = v
        ? { id: v.id, workspaceId: row!.workspaceId, name: v.name, enabled: v.enabled, syncStatus: v.syncStatus, syncId: v.lastSync?.id ?? null, documentCount: v.documentCount, chunkCount: v.chunkCount, updatedAt: v.updatedAt, timestamp: Date.now() }
        : { id: sourceId, workspaceId: deleted!.workspaceId, name: deleted!.name, syncStatus: 'deleted', timestamp: Date.now() };
      await deps.notifications.broadcast({ workspaceId: payload.workspaceId, event: 'mcp-source:status', payload, permission: 'canViewSources' });
    } catch (err) {
      deps.log?.warn({ err, mcpSourceId: sourceId }, 'MCP source status not announced');
    }
  }

  async function enqueue(source: McpSourceRow, trigger: McpSyncTrigger, requestedBy: string | null): Promise<{ run: McpSyncRunRow; created: boolean }> {
    const { run, created } = await repo.queueRun({ sourceId: source.id, workspaceId: source.workspaceId, trigger, requestedBy });
    if (!created) return { run, created };
    try {
      const jobId = await queue.send(MCP_SYNC_QUEUE, { runId: run.id });
      await repo.setRunJob(run.id, jobId);
      await publishStatus(source.id);
      return { run: { ...run, jobId }, created };
    } catch (err) {
      // The run must not stay `queued` without a job (it would block the next trigger).
      deps.log?.error({ err, mcpSourceId: source.id }, 'could not queue an MCP sync');
      const counts: RunCounts = { resourcesListed: 0, resourcesAdded: 0, resourcesUpdated: 0, resourcesUnchanged: 0, resourcesRemoved: 0, resourcesFailed: 0, chunksIndexed: 0 };
      await repo.finishRun(run.id, { status: 'failed', durationMs: 0, counts, error: 'The sync job could not be queued; try again', errors: [] });
      await publishStatus(source.id);
      return { run: (await repo.run(run.id)) ?? run, created };
    }
  }

  // --- the sync job ---

  async function readResourceBytes(session: Awaited<ReturnType<McpClient['connect']>>, r: McpResourceInfo): Promise<{ bytes: Buffer; mimeType?: string }> {
    if (r.size !== undefined && r.size > config.mcp.maxResourceBytes) {
      throw new Error(`resource is ${r.size} bytes (limit ${config.mcp.maxResourceBytes})`);
    }
    const contents = await session.readResource(r.uri);
    const texts = contents.filter((c) => c.text !== undefined).map((c) => c.text!);
    let bytes: Buffer;
    let mimeType = r.mimeType;
    if (texts.length) {
      bytes = Buffer.from(texts.join('\n\n'), 'utf8');
      mimeType = r.mimeType ?? contents.find((c) => c.text !== undefined)?.mimeType;
    } else {
      const blob = contents.find((c) => c.bytes);
      if (!blob?.bytes) throw new Error('resource has no text or blob contents');
      bytes = blob.bytes;
      mimeType = blob.mimeType ?? r.mimeType;
    }
    if (bytes.length > config.mcp.maxResourceBytes) throw new Error(`resource is ${bytes.length} bytes (limit ${config.mcp.maxResourceBytes})`);
    if (!bytes.length) throw new Error('resource is empty');
    return { bytes, ...(mimeType ? { mimeType } : {}) };
  }

  async function runSync(runId: string, signal: AbortSignal): Promise<void> {
    const started = await repo.startRun(runId, staleAfterMs);
    if (started === 'gone') return;
    const run = (await repo.run(runId))!;
    if (started === 'busy') {
      // Another sync of the source is running (on this or another instance): try again shortly.
      const jobId = await queue.send(MCP_SYNC_QUEUE, { runId }, { startAfter: 15 });
      await repo.setRunJob(runId, jobId);
      return;
    }
    const t0 = performance.now();
    const counts: RunCounts = { resourcesListed: 0, resourcesAdded: 0, resourcesUpdated: 0, resourcesUnchanged: 0, resourcesRemoved: 0, resourcesFailed: 0, chunksIndexed: 0 };
    const errors: McpSyncError[] = [];
    let fatal: string | null = null;
    let source = await repo.byId(run.sourceId);
    if (source) await publishStatus(source.id);
    try {
      if (!source) return;
      if (!source.enabled) throw new McpError('the source is disabled', 'MCP_NOT_ALLOWED');
      let session;
      try {
        session = await client.connect(specOf(source));
      } catch (e) {
        throw e instanceof McpError ? e : new McpError(`could not connect: ${(e as Error).message}`, 'MCP_CONNECTION_FAILED');
      }
      try {
        await repo.setServerInfo(source.id, { ...session.server });
        const { resources, truncated } = await session.listResources(config.mcp.maxResources);
        counts.resourcesListed = resources.length;
        // Progress for GET /sync-status: the counts so far, written at most every 250 ms.
        let progressAt = 0;
        const progress = async () => {
          if (performance.now() - progressAt < 250) return;
          progressAt = performance.now();
          await repo.runProgress(runId, counts);
        };
        await progress();
        if (truncated) errors.push({ message: `the server lists more than ${config.mcp.maxResources} resources; only the first ${config.mcp.maxResources} were synced and none were removed (MCP_MAX_RESOURCES)` });
        const known = new Map((await repo.resources(source.id)).map((r) => [r.uri, r] as const));
        const unchanged: string[] = [];
        for (const r of resources) {
          signal.throwIfAborted();
          const prev = known.get(r.uri);
          const outcome = await syncResource(source, session, r, prev, signal).catch((e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }));
          if ('error' in outcome) {
            counts.resourcesFailed += 1;
            errors.push({ uri: r.uri, message: outcome.error.slice(0, 500) });
            await repo.putResource({
              sourceId: source.id,
              workspaceId: source.workspaceId,
              uri: r.uri,
              name: r.name,
              title: r.title ?? null,
              mimeType: r.mimeType ?? null,
              // The previous document (if any) stays indexed; the next sync retries.
              version: prev?.version ?? null,
              contentHash: prev?.contentHash ?? null,
              documentId: prev?.status === 'removed' ? null : (prev?.documentId ?? null),
              chunkCount: prev?.status === 'removed' ? 0 : (prev?.chunkCount ?? 0),
              charCount: prev?.status === 'removed' ? 0 : (prev?.charCount ?? 0),
              status: 'failed',
              error: outcome.error.slice(0, 500),
              lastSeenAt: new Date(),
            });
            continue;
          }
          if (outcome.kind === 'unchanged') {
            counts.resourcesUnchanged += 1;
            unchanged.push(r.uri);
          } else {
            counts[outcome.kind === 'added' ? 'resourcesAdded' : 'resourcesUpdated'] += 1;
            counts.chunksIndexed += outcome.chunks;
          }
          await progress();
        }
        await repo.touchResources(source.id, unchanged);
        if (!truncated) {
          const listed = new Set(resources.map((r) => r.uri));
          const gone = [...known.values()].filter((r) => r.status !== 'removed' && !listed.has(r.uri));
          if (gone.length) {
            const docIds = gone.map((r) => r.documentId).filter((x): x is string => !!x);
            if (docIds.length) await store.softDeleteMcpDocuments(source.id, docIds);
            await repo.markRemoved(
              source.id,
              gone.map((r) => r.uri),
            );
            counts.resourcesRemoved = gone.length;
          }
        }
      } finally {
        await session.close();
      }
    } catch (e) {
      if (signal.aborted) {
        // The worker is stopping: leave the run `running`; pg-boss retries the job and the retry resumes it.
        throw e;
      }
      fatal = e instanceof Error ? e.message : String(e);
    } finally {
      if (source && !signal.aborted) {
        const status: McpSyncStatus = fatal ? 'failed' : errors.length ? 'partial' : 'succeeded';
        const durationMs = Math.round(performance.now() - t0);
        await repo.finishRun(runId, { status, durationMs, counts, error: fatal, errors });
        source = await repo.byId(run.sourceId);
        if (source) {
          await publishStatus(source.id);
          await notify(source, run, status, fatal, counts);
        }
      } else if (!source) {
        await repo.finishRun(runId, { status: 'failed', durationMs: 0, counts, error: 'The source was deleted', errors }).catch(() => {});
      }
    }
  }

  async function notify(source: McpSourceRow, run: McpSyncRunRow, status: McpSyncStatus, fatal: string | null, counts: RunCounts) {
    if (!deps.notifications) return;
    const failed = status === 'failed';
    // A manual sync tells the user who asked; a scheduled one only reports failures (to the workspace).
    if (!run.requestedBy && !failed) return;
    await deps.notifications.notifyQuietly({
      ...(run.requestedBy ? { userIds: [run.requestedBy] } : {}),
      workspaceId: source.workspaceId,
      type: failed ? 'sync_failed' : 'sync_completed',
      title: failed ? `Sync of MCP source ${source.name} failed` : `Sync of MCP source ${source.name} finished`,
      body: failed
        ? (fatal ?? 'The sync failed').slice(0, 500)
        : `${counts.resourcesAdded} added, ${counts.resourcesUpdated} updated, ${counts.resourcesUnchanged} unchanged, ${counts.resourcesRemoved} removed, ${counts.resourcesFailed} failed`,
      data: { mcpSourceId: source.id, syncId: run.id, status },
    });
  }

  /** Indexes one resource unless it is unchanged. */
  async function syncResource(
    source: McpSourceRow,
    session: Awaited<ReturnType<McpClient['connect']>>,
    r: McpResourceInfo,
    prev: McpResourceRow | undefined,
    signal: AbortSignal,
  ): Promise<{ kind: 'unchanged' } | { kind: 'added' | 'updated'; chunks: number }> {
    const live = prev && prev.status !== 'removed' && prev.documentId;
    // The server announced the same version as last time: nothing to read.
    if (live && prev.status === 'indexed' && r.lastModified && prev.version === r.lastModified && prev.title === (r.title ?? null)) {
      return { kind: 'unchanged' };
    }
    const { bytes, mimeType } = await readResourceBytes(session, r);
    const hash = indexFingerprint(bytes, chunkOpts, embedder.id);
    if (live && prev.status === 'indexed' && prev.contentHash === hash && prev.title === (r.title ?? null)) {
      if (prev.version !== (r.lastModified ?? null)) {
        await repo.putResource({ ...prev, version: r.lastModified ?? null, lastSeenAt: new Date() });
      }
      return { kind: 'unchanged' };
    }
    const filename = resourceFilename(r.uri, mimeType);
    const parsed = await deps.parser.parse({
      content: bytes,
      filename,
      declaredType: mimeType ?? null,
      limits: { maxTextChars: config.ingest.maxTextChars, maxDecompressedBytes: config.ingest.maxDecompressedBytes },
      signal,
    });
    const title = (r.title ?? parsed.doc.title ?? r.name).slice(0, 500);
    const chunks = await chunkAndEmbed(parsed.doc, title, { ...chunkOpts, embedder, signal });
    const lastModified = r.lastModified ? new Date(r.lastModified) : null;
    const documentId = await store.writeMcpDocument(
      { workspaceId: source.workspaceId, mcpSourceId: source.id },
      {
        key: r.uri,
        title,
        url: resourceLink(source.id, r.uri),
        format: parsed.sniffed.format,
        pageCount: parsed.doc.pageCount,
        charCount: parsed.chars,
        contentHash: hash,
        docDate: parsed.doc.date ?? (lastModified && !Number.isNaN(lastModified.getTime()) ? lastModified : new Date()),
        embeddingModel: embedder.id,
        metadata: { mcpSourceId: source.id, resourceUri: r.uri, resourceName: r.name, ...(mimeType ? { mimeType } : {}) },
        chunks,
      },
    );
    if (!documentId) throw new Error('the source was deleted during the sync');
    await repo.putResource({
      sourceId: source.id,
      workspaceId: source.workspaceId,
      uri: r.uri,
      name: r.name,
      title: r.title ?? null,
      mimeType: mimeType ?? null,
      version: r.lastModified ?? null,
      contentHash: hash,
      documentId,
      chunkCount: chunks.length,
      charCount: parsed.chars,
      status: 'indexed',
      error: null,
      lastSeenAt: new Date(),
      indexedAt: new Date(),
      removedAt: null,
    });
    return { kind: live ? 'updated' : 'added', chunks: chunks.length };
  }

  queue.define<{ runId: string }>(
    MCP_SYNC_QUEUE,
    async (data, ctx) => {
      await runSync(data.runId, ctx.signal);
    },
    { retryLimit: 2, retryDelay: 10, expireInSeconds: staleAfterMs / 1000 },
  );

  const service = {
    async list(workspaceId: string, q: { page: number; limit: number; sort: McpSortField; descending: boolean }) {
      const { rows, total } = await repo.list(workspaceId, { offset: (q.page - 1) * q.limit, limit: q.limit, sort: q.sort, descending: q.descending });
      return { mcpSources: await views(rows), pagination: pagination(q, total) };
    },

    async get(workspaceId: string, id: string): Promise<McpSourceView> {
      const row = await repo.get(workspaceId, id);
      if (!row) throw mcpSourceNotFound();
      return (await views([row]))[0]!;
    },

    async create(workspaceId: string, userId: string, input: CreateInput): Promise<{ source: McpSourceView; sync: SyncRunView | null }> {
      const transport = input.transport;
      if (!transport) throw fieldError('transport', 'is required');
      const headers = mergeMap({}, input.headers ?? undefined);
      const env = mergeMap({}, input.env ?? undefined);
      await checkConnection({ transport, url: input.url ?? null, headers, command: input.command ?? null, args: input.args ?? [], env });
      const row = await repo.create(
        {
          workspaceId,
          name: input.name.trim(),
          description: input.description?.trim() || null,
          transport,
          url: input.url ?? null,
          command: input.command ?? null,
          args: input.args ?? [],
          headerNames: Object.keys(headers),
          envNames: Object.keys(env),
          enabled: input.enabled ?? true,
          createdBy: userId,
        },
        (id) => seal(id, { headers, env }),
      );
      let sync: SyncRunView | null = null;
      if (row.enabled && input.sync !== false) sync = runView((await enqueue(row, 'create', userId)).run);
      return { source: await service.get(workspaceId, row.id), sync };
    },

    async update(workspaceId: string, id: string, input: UpdateInput): Promise<McpSourceView> {
      const row = await repo.get(workspaceId, id);
      if (!row) throw mcpSourceNotFound();
      if (input.transport !== undefined && input.transport !== row.transport) {
        throw fieldError('transport', 'cannot be changed; register a new MCP source');
      }
      const connectionChanged = ['url', 'headers', 'command', 'args', 'env'].some((k) => (input as Record<string, unknown>)[k] !== undefined);
      const values: Record<string, unknown> = {};
      if (input.name !== undefined) values.name = input.name.trim();
      if (input.description !== undefined) values.description = input.description?.trim() || null;
      if (input.enabled !== undefined) values.enabled = input.enabled;
      if (connectionChanged) {
        let current: Secrets;
        try {
          current = open(row);
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
          current = { headers: {}, env: {} };
        }
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
        await checkConnection(next);
        Object.assign(values, {
          url: next.url,
          command: next.command,
          args: next.args,
          headerNames: Object.keys(headers),
          envNames: Object.keys(env),
          secrets: seal(row.id, { headers, env }),
        });
      }
      const updated = await repo.update(workspaceId, id, values, connectionChanged);
      if (!updated) throw mcpSourceNotFound();
      await publishStatus(id);
      return (await views([updated]))[0]!;
    },

    /** Deletes the source with its documents and chunks (cascade) and its sync history. */
    async remove(workspaceId: string, id: string): Promise<{ id: string; deletedDocuments: number; deletedChunks: number }> {
      const row = await repo.get(workspaceId, id);
      if (!row) throw mcpSourceNotFound();
      const totals = (await repo.resourceTotals([id])).get(id);
      if (!(await repo.delete(workspaceId, id))) throw mcpSourceNotFound();
      await publishStatus(id, { workspaceId: row.workspaceId, name: row.name });
      return { id, deletedDocuments: totals?.documents ?? 0, deletedChunks: totals?.chunks ?? 0 };
    },

    /** Connects with the given settings, lists resources and tools, and disconnects. Nothing is stored. */
    async testConnection(input: ConnectionInput) {
      const transport = input.transport;
      if (!transport) throw fieldError('transport', 'is required');
      const spec = await checkConnection({
        transport,
        url: input.url ?? null,
        headers: mergeMap({}, input.headers ?? undefined),
        command: input.command ?? null,
        args: input.args ?? [],
        env: mergeMap({}, input.env ?? undefined),
      });
      const t0 = performance.now();
      try {
        const session = await client.connect(spec);
        try {
          const { resources, truncated } = await session.listResources(config.mcp.maxResources);
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
    },

    /** Queues a sync of the source (or returns the one already queued). */
    async requestSync(workspaceId: string, id: string, userId: string | null, trigger: McpSyncTrigger = 'manual'): Promise<{ sync: SyncRunView; created: boolean }> {
      const row = await repo.get(workspaceId, id);
      if (!row) throw mcpSourceNotFound();
      if (!row.enabled) throw conflict('MCP source is disabled; enable it before syncing', 'MCP_SOURCE_DISABLED');
      const { run, created } = await enqueue(row, trigger, userId);
      return { sync: runView(run), created };
    },

    /** One sync run of a source (polling the state of a triggered sync). */
    async syncRun(workspaceId: string, id: string, runId: string): Promise<SyncRunView> {
      const row = await repo.get(workspaceId, id);
      const run = row ? await repo.run(runId) : null;
      if (!row || !run || run.sourceId !== id) throw notFound('Sync not found', 'NOT_FOUND');
      return runView(run);
    },

    /** Queues syncs of every enabled source of a workspace (scheduled syncs); returns how many were queued or already queued. */
    async syncWorkspace(workspaceId: string, trigger: McpSyncTrigger = 'schedule'): Promise<{ queued: number; errors: string[] }> {
      let queued = 0;
      const errors: string[] = [];
      for (const id of await repo.enabledIds(workspaceId)) {
        try {
          await service.requestSync(workspaceId, id, null, trigger);
          queued += 1;
        } catch (e) {
          errors.push(`mcp source ${id}: ${(e as Error).message}`);
        }
      }
      return { queued, errors };
    },

    /** Runs one queued sync run directly (tests, CLI); the job handler does the same. */
    runSync: (runId: string, signal: AbortSignal = new AbortController().signal) => runSync(runId, signal),

    /** The sync state of every MCP source of a workspace (GET /sync-status). */
    async syncStates(workspaceId: string): Promise<SourceSyncState[]> {
      return (await repo.syncRows(workspaceId)).map((s) => {
        const run = s.active;
        const last = s.lastFinished;
        const state: SourceSyncState['state'] = run ? (run.status === 'running' ? 'syncing' : 'queued') : !s.enabled ? 'disabled' : !last ? 'never' : last.status === 'failed' ? 'error' : 'ready';
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
                progress: run.status === 'running' && run.resourcesListed > 0 ? { done: Math.min(done, run.resourcesListed), total: run.resourcesListed, unit: 'resources' as const } : null,
              }
            : null,
          lastError:
            last?.status === 'failed'
              ? { code: null, message: last.error ?? 'The sync failed', at: iso(last.finishedAt) }
              : last?.status === 'partial'
                ? { code: null, message: `${last.resourcesFailed} of ${last.resourcesListed} resources failed${firstError ? `; first: ${firstError.uri ? `${firstError.uri}: ` : ''}${firstError.message}` : ''}`.slice(0, 1000), at: iso(last.finishedAt) }
                : null,
        };
      });
    },

    /** Sync state for the workspace `syncStatus`: sources syncing, enabled sources whose last sync failed. */
    syncCounts: (workspaceIds: string[]) => repo.syncCounts(workspaceIds),

    async stats(workspaceId: string, id: string) {
      const row = await repo.get(workspaceId, id);
      if (!row) throw mcpSourceNotFound();
      const [runs, totals, lastOk, runTotals, failed] = await Promise.all([
        repo.latestRuns([id]),
        repo.resourceTotals([id]),
        repo.lastSuccessfulRun(id),
        repo.runTotals(id),
        repo.failedResources(id, 20),
      ]);
      const t = totals.get(id);
      const last = runs.get(id);
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
        syncs: runTotals,
        errors: failed.map((r) => ({ uri: r.uri, message: r.error ?? 'failed', at: r.lastSeenAt.toISOString() })),
      };
    },

    async close() {
      await guard.close();
    },
  };
  return service;
}
export type McpSourcesService = ReturnType<typeof mcpSourcesService>;

export const mcpSourceNotFound = () => notFound('MCP source not found', 'MCP_SOURCE_NOT_FOUND');
