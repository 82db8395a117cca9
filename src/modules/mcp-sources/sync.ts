import type { Config } from '../../config.js';
import type { McpSyncError, McpSyncStatus, McpSyncTrigger } from '../../db/schema/mcp.js';
import type { ParsePool } from '../../ingest/parsePool.js';
import { chunkAndEmbed, indexFingerprint } from '../../ingest/pipeline.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { SecretBox } from '../../lib/secrets.js';
import { McpError, type McpClient, type McpResourceInfo } from '../../mcp/client.js';
import type { Embedder } from '../../rag/embedders/index.js';
import type { NotificationsService, NotifyInput } from '../notifications/service.js';
import { specOf } from './connection.js';
import type { McpResourceRow, McpSourceRow, McpSourcesRepository, McpSyncRunRow, RunCounts } from './repository.js';
import { emptyCounts, resourceFilename, resourceLink, sourceViews } from './views.js';
import type { Log } from '../../domain/log.js';

/**
 * The MCP sync (docs/mcp-sources.md): queueing a run, the job that lists a server's
 * resources and indexes them through the ingestion pipeline (incremental), and the
 * live status and notifications of its outcome. Runs as a job, outside any request:
 * it works on a source id and the workspace id stored on the source (no user scope).
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

/** What the MCP modules use of the notifications service: stored notifications, and live events when offered. */
export type McpNotifier = Pick<NotificationsService, 'notifyQuietly'> & Partial<Pick<NotificationsService, 'broadcast'>>;

export interface McpSyncDeps {
  repo: McpSourcesRepository;
  config: Config;
  queue: JobQueue;
  store: McpDocumentStore;
  embedder: Embedder;
  /** Parses resources off the main thread (src/ingest/parsePool.ts). */
  parser: Pick<ParsePool, 'parse'>;
  client: McpClient;
  box: SecretBox;
  notifications?: McpNotifier;
  /** Runs after a run wrote a workspace's chunks (its own HNSW graph when it has grown large, src/rag/graphs.ts). */
  afterIndexed?: (workspaceId: string) => Promise<unknown>;
  log?: Log;
}

/** The sync side of MCP sources. */
export interface McpSync {
  /** Queues a run of the source (or returns the run already queued) and its job. */
  enqueue(source: McpSourceRow, trigger: McpSyncTrigger, requestedBy: string | null): Promise<{ run: McpSyncRunRow; created: boolean }>;
  /** Runs one queued run (the job handler; tests and CLI call it directly). */
  runSync(runId: string, signal: AbortSignal): Promise<void>;
  /** Announces the source's live status (`mcp-source:status`, never throws); `deleted` after a delete. */
  publishStatus(sourceId: string, deleted?: { workspaceId: string; name: string }): Promise<void>;
}

/** A running sync older than this is considered interrupted (its worker died). */
const STALE_AFTER_MS = 30 * 60 * 1000;

type Session = Awaited<ReturnType<McpClient['connect']>>;
type ResourceOutcome = { kind: 'unchanged' } | { kind: 'added' | 'updated'; chunks: number };

/** The bytes of a resource (its texts joined, else its first blob), within the size limit. */
async function readResourceBytes(session: Session, r: McpResourceInfo, maxBytes: number): Promise<{ bytes: Buffer; mimeType?: string }> {
  if (r.size !== undefined && r.size > maxBytes) {
    throw new Error(`resource is ${r.size} bytes (limit ${maxBytes})`);
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
  if (bytes.length > maxBytes) throw new Error(`resource is ${bytes.length} bytes (limit ${maxBytes})`);
  if (!bytes.length) throw new Error('resource is empty');
  return { bytes, ...(mimeType ? { mimeType } : {}) };
}

/** Indexes one resource unless it is unchanged. */
async function syncResource(
  deps: Pick<McpSyncDeps, 'repo' | 'config' | 'store' | 'embedder' | 'parser'>,
  source: McpSourceRow,
  session: Session,
  r: McpResourceInfo,
  prev: McpResourceRow | undefined,
  signal: AbortSignal,
): Promise<ResourceOutcome> {
  const { repo, config, store, embedder } = deps;
  const chunkOpts = { size: config.ingest.chunkSize, overlap: config.ingest.chunkOverlap };
  const live = prev && prev.status !== 'removed' && prev.documentId;
  // The server announced the same version as last time: nothing to read.
  if (live && prev.status === 'indexed' && r.lastModified && prev.version === r.lastModified && prev.title === (r.title ?? null)) {
    return { kind: 'unchanged' };
  }
  const { bytes, mimeType } = await readResourceBytes(session, r, config.mcp.maxResourceBytes);
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

/** The resource row of a resource that failed: the previous document (if any) stays indexed; the next sync retries. */
function failedResource(source: McpSourceRow, r: McpResourceInfo, prev: McpResourceRow | undefined, error: string) {
  return {
    sourceId: source.id,
    workspaceId: source.workspaceId,
    uri: r.uri,
    name: r.name,
    title: r.title ?? null,
    mimeType: r.mimeType ?? null,
    version: prev?.version ?? null,
    contentHash: prev?.contentHash ?? null,
    documentId: prev?.status === 'removed' ? null : (prev?.documentId ?? null),
    chunkCount: prev?.status === 'removed' ? 0 : (prev?.chunkCount ?? 0),
    charCount: prev?.status === 'removed' ? 0 : (prev?.charCount ?? 0),
    status: 'failed' as const,
    error,
    lastSeenAt: new Date(),
  };
}

/**
 * The notification of a finished run, or null: a manual sync tells the user who asked;
 * a scheduled one only reports failures (to the workspace).
 */
function syncNotification(source: McpSourceRow, run: McpSyncRunRow, status: McpSyncStatus, fatal: string | null, counts: RunCounts): NotifyInput | null {
  const failed = status === 'failed';
  if (!run.requestedBy && !failed) return null;
  return {
    ...(run.requestedBy ? { userIds: [run.requestedBy] } : {}),
    workspaceId: source.workspaceId,
    type: failed ? 'sync_failed' : 'sync_completed',
    title: failed ? `Sync of MCP source ${source.name} failed` : `Sync of MCP source ${source.name} finished`,
    body: failed
      ? (fatal ?? 'The sync failed').slice(0, 500)
      : `${counts.resourcesAdded} added, ${counts.resourcesUpdated} updated, ${counts.resourcesUnchanged} unchanged, ${counts.resourcesRemoved} removed, ${counts.resourcesFailed} failed`,
    data: { mcpSourceId: source.id, syncId: run.id, status },
  };
}

export function mcpSync(deps: McpSyncDeps): McpSync {
  const { repo, config, queue, store, client, box } = deps;

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
      const v = row ? (await sourceViews(repo, [row]))[0]! : null;
      const payload = v
        ? {
            id: v.id,
            workspaceId: row!.workspaceId,
            name: v.name,
            enabled: v.enabled,
            syncStatus: v.syncStatus,
            syncId: v.lastSync?.id ?? null,
            documentCount: v.documentCount,
            chunkCount: v.chunkCount,
            updatedAt: v.updatedAt,
            timestamp: Date.now(),
          }
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
      await repo.finishRun(run.id, {
        status: 'failed',
        durationMs: 0,
        counts: emptyCounts(),
        error: 'The sync job could not be queued; try again',
        errors: [],
      });
      await publishStatus(source.id);
      return { run: (await repo.run(run.id)) ?? run, created };
    }
  }

  async function runSync(runId: string, signal: AbortSignal): Promise<void> {
    const started = await repo.startRun(runId, STALE_AFTER_MS);
    if (started === 'gone') return;
    const run = (await repo.run(runId))!;
    if (started === 'busy') {
      // Another sync of the source is running (on this or another instance): try again shortly.
      const jobId = await queue.send(MCP_SYNC_QUEUE, { runId }, { startAfter: 15 });
      await repo.setRunJob(runId, jobId);
      return;
    }
    const t0 = performance.now();
    const counts = emptyCounts();
    const errors: McpSyncError[] = [];
    let fatal: string | null = null;
    let source = await repo.byId(run.sourceId);
    if (source) await publishStatus(source.id);
    try {
      if (!source) return;
      if (!source.enabled) throw new McpError('the source is disabled', 'MCP_NOT_ALLOWED');
      let session;
      try {
        session = await client.connect(specOf(box, source));
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
        if (truncated)
          errors.push({
            message: `the server lists more than ${config.mcp.maxResources} resources; only the first ${config.mcp.maxResources} were synced and none were removed (MCP_MAX_RESOURCES)`,
          });
        const known = new Map((await repo.resources(source.id)).map((r) => [r.uri, r] as const));
        const unchanged: string[] = [];
        for (const r of resources) {
          signal.throwIfAborted();
          const prev = known.get(r.uri);
          const outcome = await syncResource(deps, source, session, r, prev, signal).catch((e: unknown) => ({
            error: e instanceof Error ? e.message : String(e),
          }));
          if ('error' in outcome) {
            counts.resourcesFailed += 1;
            errors.push({ uri: r.uri, message: outcome.error.slice(0, 500) });
            await repo.putResource(failedResource(source, r, prev, outcome.error.slice(0, 500)));
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
          const note = deps.notifications ? syncNotification(source, run, status, fatal, counts) : null;
          if (note) await deps.notifications!.notifyQuietly(note);
          if (status !== 'failed') await deps.afterIndexed?.(source.workspaceId);
        }
      } else if (!source) {
        await repo.finishRun(runId, { status: 'failed', durationMs: 0, counts, error: 'The source was deleted', errors }).catch(() => {});
      }
    }
  }

  queue.define<{ runId: string }>(
    MCP_SYNC_QUEUE,
    async (data, ctx) => {
      await runSync(data.runId, ctx.signal);
    },
    { retryLimit: 2, retryDelay: 10, expireInSeconds: STALE_AFTER_MS / 1000 },
  );

  return { enqueue, runSync, publishStatus };
}
