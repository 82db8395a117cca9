import { iso } from '../../lib/envelope.js';
import type { SourceSyncState } from '../../domain/syncState.js';
import type { DataSourceRow, DataSourcesRepository, DocumentRow, FileMeta } from './repository.js';

/** What the API and the notification stream show of data sources: pure mappings of rows. */

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
      ? {
          id: doc.id,
          title: doc.title,
          url: doc.url,
          pageCount: doc.pageCount,
          chunkCount: doc.chunkCount,
          charCount: doc.charCount,
          date: iso(doc.docDate),
          indexedAt: iso(doc.updatedAt),
        }
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

/** Payload of the live `data-source:status` event (docs/notifications.md); `deleted` after a delete. */
export function statusEvent(row: DataSourceRow, deleted: boolean): Record<string, unknown> {
  return {
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
  };
}

type SyncRow = Awaited<ReturnType<DataSourcesRepository['syncRows']>>[number];

/** The sync state of one data source for GET /sync-status. */
export function syncStateOf(r: SyncRow): SourceSyncState {
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
}

/** A document as text (GET /documents/:id): what it is, where its original is, its blocks, the asked passage. */
export function documentTextView(
  doc: NonNullable<Awaited<ReturnType<DataSourcesRepository['readableDocument']>>>,
  blocks: { text: string; headings: string[]; page?: number }[],
  passage: { id: string; content: string; section: string; page: number | null } | null,
) {
  const link = /^https?:\/\//i.test(doc.url) ? doc.url : null;
  return {
    id: doc.id,
    title: doc.title,
    format: doc.format,
    kind: doc.corpus ? ('corpus' as const) : doc.mcpSourceId ? ('mcp' as const) : ('file' as const),
    dataSourceId: doc.dataSourceId,
    mcpSourceId: doc.mcpSourceId,
    pageCount: doc.pageCount,
    date: iso(doc.docDate),
    file:
      doc.fileId && doc.dataSourceId && doc.file
        ? {
            id: doc.fileId,
            filename: doc.file.filename,
            mimeType: doc.file.mimeType,
            sizeBytes: doc.file.sizeBytes,
            url: `/api/v1/data-sources/${doc.dataSourceId}/files/${doc.fileId}`,
          }
        : null,
    link,
    blocks: blocks.map((b) => ({ text: b.text, headings: b.headings, page: b.page ?? null })),
    passage: passage ? { chunkId: passage.id, content: passage.content, section: passage.section, page: passage.page } : null,
  };
}
export type DocumentTextView = ReturnType<typeof documentTextView>;
