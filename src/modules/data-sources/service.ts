import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Config } from '../../config.js';
import type { DataSourceStatus } from '../../db/schema/documents.js';
import type { Log } from '../../domain/log.js';
import { pagination, type Pagination } from '../../domain/paging.js';
import type { Scope } from '../../domain/scope.js';
import type { SourceSyncState } from '../../domain/syncState.js';
import { blocksFromChunks } from '../../ingest/chunker.js';
import { chunkAndEmbed, indexFingerprint } from '../../ingest/pipeline.js';
import { EXTENSIONS, FORMAT_MIME } from '../../ingest/sniff.js';
import { fileTooLarge } from '../../ingest/errors.js';
import type { ParsePool } from '../../ingest/parsePool.js';
import type { JobContext, JobQueue } from '../../jobs/queue.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { Embedder } from '../../rag/embedders/index.js';
import { doraCorpusDocuments, DORA_CORPUS, type CorpusArticleSource } from './corpus.js';
import { dataSourceIngestion, type DataSourceNotifier, type IngestJob } from './ingestion.js';
import type { DataSourceRow, DataSourcesRepository, DocumentInsert, NewFile, SortField } from './repository.js';
import { dataSourceView, documentTextView, syncStateOf, type DataSourceView, type DocumentTextView } from './views.js';

export { INGEST_QUEUE } from './ingestion.js';
export { dataSourceView, type DataSourceView, type DocumentTextView } from './views.js';
export type { Log } from '../../domain/log.js';

/**
 * Data sources (docs/data-sources.md): uploads checked and stored, listed, re-synced and
 * deleted; the ingestion job itself is ./ingestion.ts. Workspace-scoped functions take the
 * scope first; those the scheduler also calls (`list`, `sync`) and the reads other services
 * make take only its workspace (`Pick<Scope, 'workspaceId'>`), as a job has no user.
 */

/** The workspace a call is confined to: a request's `Scope`, or `{ workspaceId }` from a job. */
type InWorkspace = Pick<Scope, 'workspaceId'>;

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
  name?: string | null;
  description?: string | null;
  kind: 'upload' | 'json';
  files: IncomingFile[];
}

export interface DataSourcesDeps {
  repo: DataSourcesRepository;
  jobs: JobQueue;
  embedder: Embedder;
  /** Parses files off the main thread (src/ingest/parsePool.ts). */
  parser: Pick<ParsePool, 'parse'>;
  config: Pick<Config, 'ingest'>;
  compliance: CorpusArticleSource;
  /** Tells of finished ingestions, and pushes every status change to open streams (docs/notifications.md). */
  notifications?: DataSourceNotifier;
  /** Runs after an ingestion committed a workspace's chunks (src/rag/graphs.ts). */
  afterIndexed?: (workspaceId: string) => Promise<unknown>;
  log?: Log;
}

/** An MCP resource's document as the MCP sync stores it (keyed by the resource URI). */
export type McpDocumentInsert = Omit<DocumentInsert, 'fileId' | 'corpus' | 'sourceKey'> & { key: string };

/** The data sources of a workspace, their ingestion, and the shared DORA corpus. */
export interface DataSourcesService {
  /** Checks every file, then stores the source and its files and queues the ingestion; any rejected file rejects all. */
  create(scope: Scope, input: CreateInput): Promise<DataSourceView>;
  /** One page of the workspace's live data sources. */
  list(
    scope: InWorkspace,
    q: { page: number; limit: number; status?: DataSourceStatus; sort?: string },
  ): Promise<{ dataSources: DataSourceView[]; pagination: Pagination }>;
  /** One live data source with its files and documents (404 DATA_SOURCE_NOT_FOUND). */
  get(scope: InWorkspace, id: string): Promise<DataSourceView>;
  /**
   * A live document of the workspace (or of the shared corpus) as text: its blocks rebuilt from its
   * chunks, where its original is, and, when `chunkId` names one of its passages, that passage
   * (404 DOCUMENT_NOT_FOUND; an unknown chunk gives `passage: null`).
   */
  documentText(scope: InWorkspace, id: string, chunkId?: string): Promise<DocumentTextView>;
  /** What an upload may be: size and count limits, the formats by extension (GET /data-sources/limits). */
  uploadLimits(): UploadLimits;
  /** The original bytes of one file of a live data source. */
  file(scope: InWorkspace, id: string, fileId: string): Promise<{ filename: string; mimeType: string; content: Buffer }>;
  /** A live file of the workspace with these bytes (SHA-256), where to download it; null when there is none. */
  fileBySha256(scope: InWorkspace, sha256: string): Promise<{ id: string; dataSourceId: string; filename: string; url: string } | null>;
  /** Original files of the workspace's live data sources, in the order of `fileIds` (404 FILE_NOT_FOUND naming the missing). */
  filesByIds(scope: InWorkspace, fileIds: string[]): Promise<{ id: string; filename: string; mimeType: string; content: Buffer }[]>;
  /** Re-sync: a new generation parsed again from the stored files; `requestedBy` null for the scheduler. */
  sync(scope: InWorkspace, id: string, requestedBy: string | null): Promise<DataSourceView>;
  /** Soft-deletes the source, its documents and chunks. */
  remove(scope: InWorkspace, id: string): Promise<{ id: string; deletedDocuments: number; deletedChunks: number }>;
  /** The sync state of every data source of a workspace (GET /sync-status). */
  syncStates(scope: InWorkspace): Promise<SourceSyncState[]>;
  /** Workspace stats: live documents, their pages, live data sources ("databases"); a provider of the workspaces service, by id. */
  statsFor(workspaceId: string): Promise<{ totalDocuments: number; totalPages: number; totalDatabases: number }>;
  /** Sources being ingested and sources whose ingestion failed, per workspace (the list's `syncStatus`; any workspaces). */
  syncCounts(workspaceIds: string[]): Promise<Map<string, { syncing: number; failed: number }>>;
  /** Writes (or replaces) the document of an MCP resource; null when the MCP source is gone. */
  writeMcpDocument(scope: { workspaceId: string; mcpSourceId: string }, d: McpDocumentInsert): Promise<string | null>;
  /** Soft-deletes documents of an MCP source (and their chunks). */
  softDeleteMcpDocuments(mcpSourceId: string, documentIds: string[]): Promise<number>;
  /** Runs one queued ingestion directly (tests, CLI); the job handler does the same. */
  ingest(data: IngestJob, ctx: JobContext): Promise<void>;
  /** Starts the check for interrupted ingestions (instances with workers). */
  startRecovery(): void;
  /** Stops that check. */
  stopRecovery(): Promise<void>;
  /** Queues again the ingestions whose worker died; returns how many. */
  recoverStale(): Promise<number>;
  /** Indexes the DORA articles as the shared corpus (repeatable; `force` re-indexes all; `articles` limits it, tests). */
  indexCorpus(opts?: { force?: boolean; articles?: number[] }): Promise<{ documents: number; indexed: number; chunks: number }>;
  /** Whether the corpus is indexed with the current embedder (all 45 articles). */
  corpusStatus(): Promise<{ documents: number; chunks: number; current: boolean }>;
}

export interface UploadLimits {
  maxFileBytes: number;
  maxFiles: number;
  formats: { format: string; extensions: string[]; mimeType: string }[];
  /** Any other file is accepted when it is UTF-8 (or UTF-16 with a BOM) text without NUL bytes. */
  textByContent: true;
}

export const dataSourceNotFound = () => notFound('Data source not found', 'DATA_SOURCE_NOT_FOUND');

/**
 * Checks every file (size, type by content, encryption, archive limits, parse) before
 * anything is stored; returns the files to store and the first title found.
 */
async function checkFiles(
  parser: Pick<ParsePool, 'parse'>,
  ingest: Config['ingest'],
  files: IncomingFile[],
): Promise<{ stored: NewFile[]; firstTitle: string | undefined }> {
  if (!files.length) throw badRequest('at least one file or document is required', ['files: at least one is required']);
  if (files.length > ingest.maxFiles) throw badRequest(`at most ${ingest.maxFiles} files per data source`, [`files: at most ${ingest.maxFiles}`]);
  const limits = { maxTextChars: ingest.maxTextChars, maxDecompressedBytes: ingest.maxDecompressedBytes };
  const stored: NewFile[] = [];
  let firstTitle: string | undefined;
  for (const f of files) {
    if (f.content.length > ingest.maxFileBytes) throw fileTooLarge(f.filename, ingest.maxFileBytes);
    // A check only: the text is parsed again by the ingestion job, so none of it is copied here.
    const parsed = await parser.parse({ content: f.content, filename: f.filename, declaredType: f.declaredType, limits, summary: true });
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
  return { stored, firstTitle };
}

export function dataSourcesService(deps: DataSourcesDeps): DataSourcesService {
  const { repo, embedder, config } = deps;
  const chunking = { size: config.ingest.chunkSize, overlap: config.ingest.chunkOverlap };
  const ingestion = dataSourceIngestion(deps);
  const { enqueue, announce } = ingestion;

  async function detail(row: DataSourceRow) {
    const [files, docs] = await Promise.all([repo.fileMetas([row.id]), repo.documentsOf([row.id])]);
    return dataSourceView(row, files, docs);
  }

  async function live(scope: InWorkspace, id: string): Promise<DataSourceRow> {
    const row = await repo.get(scope, id);
    if (!row) throw dataSourceNotFound();
    return row;
  }

  return {
    async create(scope, input) {
      const { files } = input;
      const { stored, firstTitle } = await checkFiles(deps.parser, config.ingest, files);
      const name = input.name?.trim() || firstTitle || path.parse(files[0]!.filename).name || files[0]!.filename;
      const row = await repo.create(
        scope,
        {
          name: name.slice(0, 200),
          description: input.description?.trim() || null,
          kind: input.kind,
          createdBy: scope.userId,
          totalBytes: stored.reduce((n, f) => n + f.sizeBytes, 0),
        },
        stored,
      );
      await announce(row); // pending, before the job can start
      return detail(await enqueue(row, scope.userId));
    },

    async list(scope, q) {
      const sortRaw = q.sort ?? '-createdAt';
      const descending = sortRaw.startsWith('-');
      const sort = sortRaw.replace(/^[-+]/, '') as SortField;
      const { rows, total } = await repo.list(scope, { offset: (q.page - 1) * q.limit, limit: q.limit, status: q.status, sort, descending });
      const ids = rows.map((r) => r.id);
      const [files, docs] = await Promise.all([repo.fileMetas(ids), repo.documentsOf(ids)]);
      return {
        dataSources: rows.map((r) =>
          dataSourceView(
            r,
            files.filter((f) => f.dataSourceId === r.id),
            docs.filter((d) => d.dataSourceId === r.id),
          ),
        ),
        pagination: pagination(q, total),
      };
    },

    async get(scope, id) {
      return detail(await live(scope, id));
    },

    async documentText(scope, id, chunkId) {
      const doc = await repo.readableDocument(scope, id);
      if (!doc) throw notFound('Document not found', 'DOCUMENT_NOT_FOUND');
      const rows = await repo.documentChunks(doc);
      const passage = chunkId ? (rows.find((r) => r.id === chunkId) ?? null) : null;
      return documentTextView(doc, blocksFromChunks(rows, chunking), passage);
    },

    uploadLimits() {
      const byFormat = new Map<string, string[]>();
      for (const [ext, format] of Object.entries(EXTENSIONS)) byFormat.set(format, [...(byFormat.get(format) ?? []), ext]);
      return {
        maxFileBytes: config.ingest.maxFileBytes,
        maxFiles: config.ingest.maxFiles,
        formats: Object.entries(FORMAT_MIME).map(([format, mimeType]) => ({ format, extensions: byFormat.get(format) ?? [], mimeType })),
        textByContent: true as const,
      };
    },

    async file(scope, id, fileId) {
      await live(scope, id);
      const f = (await repo.files(id)).find((x) => x.id === fileId);
      if (!f) throw notFound('File not found', 'FILE_NOT_FOUND');
      return { filename: f.filename, mimeType: f.mimeType, content: f.content };
    },

    async fileBySha256(scope, sha256) {
      const f = await repo.liveFileBySha256(scope, sha256);
      return f ? { id: f.id, dataSourceId: f.dataSourceId, filename: f.filename, url: `/api/v1/data-sources/${f.dataSourceId}/files/${f.id}` } : null;
    },

    async filesByIds(scope, fileIds) {
      const rows = new Map((await repo.filesByIds(scope, fileIds)).map((f) => [f.id, f]));
      const missing = fileIds.filter((id) => !rows.has(id));
      if (missing.length) throw notFound(`File not found in this workspace's documents: ${missing.join(', ')}`, 'FILE_NOT_FOUND');
      return fileIds.map((id) => {
        const f = rows.get(id)!;
        return { id: f.id, filename: f.filename, mimeType: f.mimeType, content: f.content };
      });
    },

    async sync(scope, id, requestedBy) {
      const row = await repo.requestSync(scope, id);
      if (!row) throw dataSourceNotFound();
      await announce(row); // pending, before the job can start
      return detail(await enqueue(row, requestedBy));
    },

    async remove(scope, id) {
      const res = await repo.softDelete(scope, id);
      if (!res) throw dataSourceNotFound();
      await announce(id, true);
      return { id, deletedDocuments: res.documents, deletedChunks: res.chunks };
    },

    async syncStates(scope) {
      return (await repo.syncRows(scope)).map(syncStateOf);
    },

    async statsFor(workspaceId) {
      const s = await repo.stats({ workspaceId });
      return { totalDocuments: s.documents, totalPages: s.pages, totalDatabases: s.dataSources };
    },

    syncCounts: (workspaceIds) => repo.syncCounts(workspaceIds),

    /**
     * Documents of MCP sources (docs/mcp-sources.md): the MCP sync parses, chunks and
     * embeds a resource with the same pipeline, and stores it here, keyed by source and
     * resource URI (chunks replaced, never added to).
     */
    writeMcpDocument: (scope, d) => {
      const { key, ...rest } = d;
      return repo.writeMcpDocument(scope, { ...rest, sourceKey: key });
    },
    softDeleteMcpDocuments: (mcpSourceId, documentIds) => repo.softDeleteMcpDocuments(mcpSourceId, documentIds),

    ingest: ingestion.ingest,
    startRecovery: ingestion.startRecovery,
    stopRecovery: ingestion.stopRecovery,
    recoverStale: ingestion.recoverStale,

    /**
     * Indexes the DORA articles as the shared corpus (workspace_id NULL). Repeatable:
     * articles whose text, chunking and embedder are unchanged are skipped; `force`
     * re-indexes all; `articles` limits the corpus to some article numbers (tests).
     */
    async indexCorpus(opts = {}) {
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
      const keep = opts.articles
        ? [...existing.keys()].filter((k): k is string => !!k).concat(sources.map((s) => s.sourceKey))
        : sources.map((s) => s.sourceKey);
      if (docs.length || keep.length !== existing.size) await repo.writeCorpus(DORA_CORPUS, docs, keep);
      return { documents: sources.length, indexed: docs.length, chunks: docs.reduce((n, d) => n + d.chunks.length, 0) };
    },

    /** Whether the corpus is indexed with the current embedder (all 45 articles). */
    async corpusStatus() {
      const docs = await repo.corpusDocuments(DORA_CORPUS);
      const chunks = await repo.corpusChunkCount(DORA_CORPUS);
      return { documents: docs.length, chunks, current: docs.length >= 45 && docs.every((d) => d.embeddingModel === embedder.id) };
    },
  };
}
