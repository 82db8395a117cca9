import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../../config.js';
import type { DataSourceStatus } from '../../db/schema/documents.js';
import { chunkAndEmbed, indexFingerprint } from '../../ingest/pipeline.js';
import { fileTooLarge } from '../../ingest/errors.js';
import type { ParsePool } from '../../ingest/parsePool.js';
import type { JobContext, JobQueue } from '../../jobs/queue.js';
import { iso } from '../../lib/envelope.js';
import { AppError, badRequest, notFound } from '../../lib/errors.js';
import { EmbedderError, type Embedder } from '../../rag/embedders/index.js';
import type { NotificationsService } from '../notifications/service.js';
import { doraCorpusDocuments, DORA_CORPUS, type CorpusArticleSource } from './corpus.js';
import type { DataSourceRow, DataSourcesRepository, DocumentInsert, DocumentRow, FileMeta, NewFile, SortField } from './repository.js';
import { pagination } from '../../domain/paging.js';
import type { SourceSyncState } from '../../domain/syncState.js';

export const INGEST_QUEUE = 'data-source-ingest';

export interface IncomingFile {
  filename: string;
  /** Content type the client declared (informational: the content is sniffed). */
  declaredType: string | null;
  content: Buffer;
  title?: string | null;
  url?: string | null;
  date?: Date | null;
}

export interface CreateInput {
  workspaceId: string;
  userId: string;
  name?: string | null;
  description?: string | null;
  kind: 'upload' | 'json';
  files: IncomingFile[];
}

interface IngestJob {
  dataSourceId: string;
  generation: number;
  /**
   * The user who uploaded the files or asked for the sync; null for a scheduled sync.
   * Decides who hears of the outcome (docs/notifications.md). Absent on jobs queued
   * before this field existed: treated as scheduled.
   */
  requestedBy?: string | null;
}

export interface Log {
  error(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  info?(obj: unknown, msg?: string): void;
}

export const dataSourceNotFound = () => notFound('Data source not found', 'DATA_SOURCE_NOT_FOUND');

function fileView(f: FileMeta, doc: DocumentRow | undefined, dataSourceId: string) {
  return {
    id: f.id,
    filename: f.filename,
    format: f.format,
    mimeType: f.mimeType,
    sizeBytes: f.sizeBytes,
    sha256: f.sha256,
    url: `/api/v1/data-sources/${dataSourceId}/files/${f.id}`,
    document: doc
      ? { id: doc.id, title: doc.title, url: doc.url, pageCount: doc.pageCount, chunkCount: doc.chunkCount, charCount: doc.charCount, date: iso(doc.docDate), indexedAt: iso(doc.updatedAt) }
      : null,
  };
}

export function dataSourceView(row: DataSourceRow, files: FileMeta[] = [], docs: DocumentRow[] = []) {
  const byFile = new Map(docs.map((d) => [d.fileId, d]));
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    description: row.description,
    kind: row.kind,
    status: row.status,
    error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? '' } : null,
    documentCount: row.documentCount,
    chunkCount: row.chunkCount,
    pageCount: row.pageCount,
    fileCount: files.length,
    totalBytes: row.totalBytes,
    attempts: row.attempts,
    jobId: row.jobId,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    syncRequestedAt: row.syncRequestedAt.toISOString(),
    lastSyncedAt: iso(row.lastSyncedAt),
    files: files.map((f) => fileView(f, byFile.get(f.id), row.id)),
  };
}
export type DataSourceView = ReturnType<typeof dataSourceView>;

/** Why an ingestion attempt failed, and whether trying again can help. */
function classify(err: unknown): { code: string; message: string; transient: boolean } {
  if (err instanceof AppError) return { code: err.code, message: err.message, transient: false };
  if (err instanceof EmbedderError) return { code: 'EMBEDDING_FAILED', message: err.message, transient: err.transient };
  const message = (err as Error)?.message ?? String(err);
  return { code: 'INGESTION_FAILED', message: message.slice(0, 500), transient: true };
}

export function dataSourcesService(deps: {
  repo: DataSourcesRepository;
  jobs: JobQueue;
  embedder: Embedder;
  /** Parses files off the main thread (src/ingest/parsePool.ts). */
  parser: Pick<ParsePool, 'parse'>;
  config: Pick<Config, 'ingest'>;
  compliance: CorpusArticleSource;
  /** Tells of finished ingestions, and pushes every status change to open streams (docs/notifications.md). */
  notifications?: Pick<NotificationsService, 'notifyQuietly'> & Partial<Pick<NotificationsService, 'broadcast'>>;
  log?: Log;
}) {
  const { repo, jobs, embedder, config } = deps;
  const chunking = { size: config.ingest.chunkSize, overlap: config.ingest.chunkOverlap };
  const limits = { maxTextChars: config.ingest.maxTextChars, maxDecompressedBytes: config.ingest.maxDecompressedBytes };

  /** Queues the ingestion of the current generation; a queue failure is shown on the source. */
  async function enqueue(row: DataSourceRow, requestedBy: string | null): Promise<DataSourceRow> {
    try {
      const jobId = await jobs.send<IngestJob>(INGEST_QUEUE, { dataSourceId: row.id, generation: row.generation, requestedBy });
      await repo.setJob(row.id, row.generation, jobId);
    } catch (err) {
      deps.log?.error({ err, dataSourceId: row.id }, 'could not queue ingestion');
      await repo.markStatus(row.id, row.generation, 'failed', { code: 'QUEUE_UNAVAILABLE', message: 'The ingestion job could not be queued; retry with a sync' });
      await announce(row.id);
    }
    return (await repo.byId(row.id)) ?? row;
  }

  /**
   * Pushes the source's current status to the open notification streams of everyone who can see
   * the workspace's sources (event `data-source:status`, not stored). `deleted` after a delete.
   * Given a row, that state is announced (the caller announces before the next step can start,
   * so events of one source leave in order); given an id, the row is read first.
   */
  async function announce(rowOrId: DataSourceRow | string, deleted = false) {
    if (!deps.notifications?.broadcast) return;
    const row = typeof rowOrId === 'string' ? await repo.byId(rowOrId).catch(() => null) : rowOrId;
    if (!row) return;
    await deps.notifications.broadcast({
      workspaceId: row.workspaceId,
      event: 'data-source:status',
      permission: 'canViewSources',
      payload: {
        id: row.id,
        workspaceId: row.workspaceId,
        name: row.name,
        status: deleted ? 'deleted' : row.status,
        error: row.errorCode ? { code: row.errorCode, message: (row.errorMessage ?? '').slice(0, 1000) } : null,
        attempts: row.attempts,
        documentCount: row.documentCount,
        chunkCount: row.chunkCount,
        pageCount: row.pageCount,
        lastSyncedAt: iso(row.lastSyncedAt),
        updatedAt: row.updatedAt.toISOString(),
      },
    });
  }

  async function detail(row: DataSourceRow) {
    const [files, docs] = await Promise.all([repo.fileMetas([row.id]), repo.documentsOf([row.id])]);
    return dataSourceView(row, files, docs);
  }

  /**
   * Tells of a finished ingestion, as for MCP syncs (docs/notifications.md): an upload or a
   * manual sync tells the user who asked, whatever the outcome; a scheduled sync tells
   * everyone with access to the workspace, and only when it failed.
   */
  async function notifyOutcome(ds: DataSourceRow, data: IngestJob, outcome: { ok: true; documents: number; chunks: number } | { ok: false; code: string; message: string }) {
    if (!deps.notifications) return;
    const requestedBy = data.requestedBy ?? null;
    if (!requestedBy && outcome.ok) return;
    const name = ds.name.length > 120 ? `${ds.name.slice(0, 119)}…` : ds.name;
    await deps.notifications.notifyQuietly({
      ...(requestedBy ? { userIds: [requestedBy] } : {}),
      workspaceId: ds.workspaceId,
      type: outcome.ok ? 'sync_completed' : 'sync_failed',
      title: outcome.ok ? `Sync of data source ${name} finished` : `Sync of data source ${name} failed`,
      body: outcome.ok
        ? `${outcome.documents} ${outcome.documents === 1 ? 'document' : 'documents'} indexed in ${outcome.chunks} ${outcome.chunks === 1 ? 'chunk' : 'chunks'}`
        : `${outcome.code}: ${outcome.message}`.slice(0, 500),
      data: { dataSourceId: ds.id, generation: data.generation, status: outcome.ok ? 'ready' : 'failed', trigger: requestedBy ? 'manual' : 'schedule' },
    });
  }

  /** The job: parse -> sections -> chunks -> embeddings -> one transaction of inserts. */
  async function ingest(data: IngestJob, ctx: JobContext): Promise<void> {
    const ds = await repo.byId(data.dataSourceId);
    if (!ds || ds.deletedAt || ds.generation !== data.generation) return; // deleted or superseded
    if (!(await repo.markProcessing(ds.id, data.generation))) return;
    await announce(ds.id);
    // The heartbeat: a source whose ingestion stops beating (its process died) is taken
    // over by another worker (recoverStale) instead of staying `processing`.
    const beat = setInterval(() => void repo.heartbeat(ds.id, data.generation).catch(() => {}), config.ingest.heartbeatSec * 1000);
    try {
      const files = await repo.files(ds.id);
      const docs: DocumentInsert[] = [];
      for (const f of files) {
        ctx.signal.throwIfAborted();
        const parsed = await deps.parser.parse({ content: f.content, filename: f.filename, declaredType: f.declaredType, limits, signal: ctx.signal });
        const title = f.title?.trim() || parsed.doc.title?.trim() || path.parse(f.filename).name || f.filename;
        const url = f.url || `/api/v1/data-sources/${ds.id}/files/${f.id}`;
        const indexed = await chunkAndEmbed(parsed.doc, title, { ...chunking, embedder, signal: ctx.signal });
        docs.push({
          fileId: f.id,
          corpus: null,
          sourceKey: null,
          title,
          url,
          format: parsed.sniffed.format,
          pageCount: parsed.doc.pageCount,
          charCount: parsed.chars,
          contentHash: indexFingerprint(f.content, chunking, embedder.id),
          docDate: f.docDate ?? parsed.doc.date ?? ds.createdAt,
          embeddingModel: embedder.id,
          metadata: { filename: f.filename, sha256: f.sha256 },
          chunks: indexed,
        });
        await repo.setFilesDone(ds.id, data.generation, docs.length);
      }
      ctx.signal.throwIfAborted();
      // false: deleted or superseded meanwhile (the newer sync tells of its own outcome)
      if (await repo.commitIngestion(ds.id, data.generation, docs)) {
        await announce(ds.id);
        await notifyOutcome(ds, data, { ok: true, documents: docs.length, chunks: docs.reduce((n, d) => n + d.chunks.length, 0) });
      }
    } catch (err) {
      if (ctx.signal.aborted) throw err; // the worker is stopping: pg-boss retries the job later
      const c = classify(err);
      const lastTry = ctx.retryCount >= ctx.retryLimit;
      if (c.transient && !lastTry) {
        await repo.markStatus(ds.id, data.generation, 'pending', { code: c.code, message: `Attempt ${ctx.retryCount + 1} failed, retrying: ${c.message}` });
        await announce(ds.id);
        throw err;
      }
      const current = await repo.markStatus(ds.id, data.generation, 'failed', { code: c.code, message: c.message });
      deps.log?.warn({ err, dataSourceId: ds.id }, 'ingestion failed');
      if (current) await announce(ds.id);
      if (current) await notifyOutcome(ds, data, { ok: false, code: c.code, message: c.message });
    } finally {
      clearInterval(beat);
    }
  }

  /**
   * Takes over ingestions whose worker died (docs/data-sources.md, "Interrupted
   * ingestion"): a `processing` source without a heartbeat for three beats moves to a new
   * generation and is queued again (the dead attempt's job, when pg-boss finally expires
   * it, finds its generation superseded and does nothing). Runs on instances with workers,
   * at start and every 1.5 beats.
   */
  async function recoverStale(): Promise<number> {
    const taken = await repo.takeOverStale(new Date(Date.now() - 3 * config.ingest.heartbeatSec * 1000));
    for (const row of taken) {
      deps.log?.warn({ dataSourceId: row.id, generation: row.generation }, 'ingestion interrupted (no heartbeat): queued again');
      await enqueue(row, row.createdBy);
    }
    return taken.length;
  }
  let recovery: NodeJS.Timeout | null = null;
  let sweeping: Promise<unknown> | null = null;
  const sweep = () => {
    sweeping ??= recoverStale()
      .catch((err: unknown) => deps.log?.error({ err }, 'interrupted ingestion check failed'))
      .finally(() => (sweeping = null));
  };

  jobs.define<IngestJob>(INGEST_QUEUE, ingest, { retryLimit: 2, retryDelay: 5, retryBackoff: true, expireInSeconds: 30 * 60 });

  return {
    /**
     * Checks every file (size, type by content, encryption, archive limits, parse) before
     * storing anything; then stores the source and its files in one transaction and
     * queues the ingestion job. Any rejected file rejects the whole request.
     */
    async create(input: CreateInput): Promise<DataSourceView> {
      const { files } = input;
      if (!files.length) throw badRequest('at least one file or document is required', ['files: at least one is required']);
      if (files.length > config.ingest.maxFiles) throw badRequest(`at most ${config.ingest.maxFiles} files per data source`, [`files: at most ${config.ingest.maxFiles}`]);
      const stored: NewFile[] = [];
      let firstTitle: string | undefined;
      for (const f of files) {
        if (f.content.length > config.ingest.maxFileBytes) throw fileTooLarge(f.filename, config.ingest.maxFileBytes);
        const parsed = await deps.parser.parse({ content: f.content, filename: f.filename, declaredType: f.declaredType, limits });
        firstTitle ??= f.title?.trim() || parsed.doc.title?.trim();
        stored.push({
          filename: f.filename,
          format: parsed.sniffed.format,
          mimeType: parsed.sniffed.mimeType,
          declaredType: f.declaredType,
          sizeBytes: f.content.length,
          sha256: createHash('sha256').update(f.content).digest('hex'),
          title: f.title?.trim() || null,
          url: f.url ?? null,
          docDate: f.date ?? null,
          content: f.content,
        });
      }
      const name = input.name?.trim() || firstTitle || path.parse(files[0]!.filename).name || files[0]!.filename;
      const row = await repo.create(
        {
          workspaceId: input.workspaceId,
          name: name.slice(0, 200),
          description: input.description?.trim() || null,
          kind: input.kind,
          createdBy: input.userId,
          totalBytes: stored.reduce((n, f) => n + f.sizeBytes, 0),
        },
        stored,
      );
      await announce(row); // pending, before the job can start
      return detail(await enqueue(row, input.userId));
    },

    async list(workspaceId: string, q: { page: number; limit: number; status?: DataSourceStatus; sort?: string }) {
      const sortRaw = q.sort ?? '-createdAt';
      const descending = sortRaw.startsWith('-');
      const sort = sortRaw.replace(/^[-+]/, '') as SortField;
      const { rows, total } = await repo.list(workspaceId, { offset: (q.page - 1) * q.limit, limit: q.limit, status: q.status, sort, descending });
      const ids = rows.map((r) => r.id);
      const [files, docs] = await Promise.all([repo.fileMetas(ids), repo.documentsOf(ids)]);
      return {
        dataSources: rows.map((r) => dataSourceView(r, files.filter((f) => f.dataSourceId === r.id), docs.filter((d) => d.dataSourceId === r.id))),
        pagination: pagination(q, total),
      };
    },

    async get(workspaceId: string, id: string): Promise<DataSourceView> {
      const row = await repo.get(workspaceId, id);
      if (!row) throw dataSourceNotFound();
      return detail(row);
    },

    /** The original bytes of one file of a live data source. */
    async file(workspaceId: string, id: string, fileId: string) {
      const row = await repo.get(workspaceId, id);
      if (!row) throw dataSourceNotFound();
      const f = (await repo.files(id)).find((x) => x.id === fileId);
      if (!f) throw notFound('File not found', 'FILE_NOT_FOUND');
      return { filename: f.filename, mimeType: f.mimeType, content: f.content };
    },

    /**
     * Original files of the workspace's live data sources, in the order of `fileIds`
     * (assessments reuse them). An id that is not such a file: 404 FILE_NOT_FOUND naming it.
     */
    async filesByIds(workspaceId: string, fileIds: string[]): Promise<{ id: string; filename: string; mimeType: string; content: Buffer }[]> {
      const rows = new Map((await repo.filesByIds(workspaceId, fileIds)).map((f) => [f.id, f]));
      const missing = fileIds.filter((id) => !rows.has(id));
      if (missing.length) throw notFound(`File not found in this workspace's documents: ${missing.join(', ')}`, 'FILE_NOT_FOUND');
      return fileIds.map((id) => {
        const f = rows.get(id)!;
        return { id: f.id, filename: f.filename, mimeType: f.mimeType, content: f.content };
      });
    },

    /**
     * Re-sync: a new generation, parsed again from the stored files; supersedes any sync
     * under way. `requestedBy` is the user who asked (null: the scheduler).
     */
    async sync(workspaceId: string, id: string, requestedBy: string | null): Promise<DataSourceView> {
      const row = await repo.requestSync(workspaceId, id);
      if (!row) throw dataSourceNotFound();
      await announce(row); // pending, before the job can start
      return detail(await enqueue(row, requestedBy));
    },

    async remove(workspaceId: string, id: string): Promise<{ id: string; deletedDocuments: number; deletedChunks: number }> {
      const res = await repo.softDelete(workspaceId, id);
      if (!res) throw dataSourceNotFound();
      await announce(id, true);
      return { id, deletedDocuments: res.documents, deletedChunks: res.chunks };
    },

    /** The sync state of every data source of a workspace (GET /sync-status). */
    async syncStates(workspaceId: string): Promise<SourceSyncState[]> {
      return (await repo.syncRows(workspaceId)).map((r) => {
        const failed = r.status === 'failed';
        const running = r.status === 'processing';
        const active = running || r.status === 'pending';
        const fileCount = Number(r.fileCount);
        return {
          id: r.id,
          kind: 'data_source' as const,
          name: r.name,
          state: running ? 'syncing' : r.status === 'pending' ? 'queued' : failed ? 'error' : 'ready',
          status: r.status,
          lastSyncAt: iso(failed ? r.updatedAt : r.lastSyncedAt),
          lastSuccessAt: iso(r.lastSyncedAt),
          nextSyncAt: null,
          job: active
            ? {
                id: r.jobId,
                runId: null,
                state: running ? ('running' as const) : ('queued' as const),
                trigger: null,
                queuedAt: r.syncRequestedAt.toISOString(),
                startedAt: running ? iso(r.processingStartedAt) : null,
                attempt: Math.max(1, r.attempts + (running ? 0 : 1)),
                progress: running ? { done: Math.min(r.filesDone, fileCount), total: fileCount, unit: 'files' as const } : null,
              }
            : null,
          // A pending source with an error is waiting for a retry: the error of the failed attempt is shown.
          lastError: r.errorMessage ? { code: r.errorCode, message: r.errorMessage, at: r.updatedAt.toISOString() } : null,
        };
      });
    },

    /** Workspace stats: live documents, their pages, live data sources ("databases"). */
    async statsFor(workspaceId: string): Promise<{ totalDocuments: number; totalPages: number; totalDatabases: number }> {
      const s = await repo.stats(workspaceId);
      return { totalDocuments: s.documents, totalPages: s.pages, totalDatabases: s.dataSources };
    },

    /** Sync state for the workspace `syncStatus`: sources being ingested, sources whose ingestion failed. */
    syncCounts: (workspaceIds: string[]) => repo.syncCounts(workspaceIds),

    /**
     * Documents of MCP sources (docs/mcp-sources.md): the MCP sync parses, chunks and
     * embeds a resource with the same pipeline, and stores it here, keyed by source and
     * resource URI (chunks replaced, never added to).
     */
    writeMcpDocument: (scope: { workspaceId: string; mcpSourceId: string }, d: Omit<DocumentInsert, 'fileId' | 'corpus' | 'sourceKey'> & { key: string }) => {
      const { key, ...rest } = d;
      return repo.writeMcpDocument(scope, { ...rest, sourceKey: key });
    },
    softDeleteMcpDocuments: (mcpSourceId: string, documentIds: string[]) => repo.softDeleteMcpDocuments(mcpSourceId, documentIds),

    /** Runs one queued ingestion directly (tests, CLI); the job handler does the same. */
    ingest,

    /** Starts the check for interrupted ingestions (instances with workers). */
    startRecovery() {
      if (recovery) return;
      sweep();
      recovery = setInterval(sweep, config.ingest.heartbeatSec * 1500);
      recovery.unref();
    },
    async stopRecovery() {
      if (recovery) clearInterval(recovery);
      recovery = null;
      await sweeping;
    },
    recoverStale,

    /**
     * Indexes the DORA articles as the shared corpus (workspace_id NULL). Repeatable:
     * articles whose text, chunking and embedder are unchanged are skipped; `force`
     * re-indexes all; `articles` limits the corpus to some article numbers (tests).
     */
    async indexCorpus(opts: { force?: boolean; articles?: number[] } = {}): Promise<{ documents: number; indexed: number; chunks: number }> {
      const sources = await doraCorpusDocuments(deps.compliance, opts.articles);
      const existing = new Map((await repo.corpusDocuments(DORA_CORPUS)).map((d) => [d.sourceKey, d]));
      const docs: DocumentInsert[] = [];
      for (const s of sources) {
        const hash = indexFingerprint(s.text, chunking, embedder.id);
        if (!opts.force && existing.get(s.sourceKey)?.contentHash === hash) continue;
        const chunks = await chunkAndEmbed(s.parsed, s.title, { ...chunking, embedder });
        docs.push({
          fileId: null,
          corpus: DORA_CORPUS,
          sourceKey: s.sourceKey,
          title: s.title,
          url: s.url,
          format: 'text',
          pageCount: 1,
          charCount: s.text.length,
          contentHash: hash,
          docDate: s.date,
          embeddingModel: embedder.id,
          metadata: s.metadata,
          chunks,
        });
      }
      const keep = opts.articles ? [...existing.keys()].filter((k): k is string => !!k).concat(sources.map((s) => s.sourceKey)) : sources.map((s) => s.sourceKey);
      if (docs.length || keep.length !== existing.size) await repo.writeCorpus(DORA_CORPUS, docs, keep);
      return { documents: sources.length, indexed: docs.length, chunks: docs.reduce((n, d) => n + d.chunks.length, 0) };
    },

    /** Whether the corpus is indexed with the current embedder (all 45 articles). */
    async corpusStatus(): Promise<{ documents: number; chunks: number; current: boolean }> {
      const docs = await repo.corpusDocuments(DORA_CORPUS);
      const chunks = await repo.corpusChunkCount(DORA_CORPUS);
      return { documents: docs.length, chunks, current: docs.length >= 45 && docs.every((d) => d.embeddingModel === embedder.id) };
    },
  };
}
export type DataSourcesService = ReturnType<typeof dataSourcesService>;
