import { and, asc, count, desc, eq, inArray, isNotNull, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Scope } from '../../domain/scope.js';
import { chunks, dataSourceFiles, dataSources, documents, type DataSourceStatus, type DocumentFormat } from '../../db/schema/documents.js';

/** The workspace a query is confined to: a request's `Scope`, or `{ workspaceId }` from a job (no user). */
type InWorkspace = Pick<Scope, 'workspaceId'>;
export type DataSourceRow = typeof dataSources.$inferSelect;
export type FileRow = typeof dataSourceFiles.$inferSelect;
export type FileMeta = Omit<FileRow, 'content'>;
export type DocumentRow = typeof documents.$inferSelect;

export interface NewFile {
  filename: string;
  format: DocumentFormat;
  mimeType: string;
  declaredType: string | null;
  sizeBytes: number;
  sha256: string;
  title: string | null;
  url: string | null;
  docDate: Date | null;
  content: Buffer;
}

export interface ChunkInsert {
  chunkIndex: number;
  section: string;
  page: number | null;
  pageEnd: number | null;
  content: string;
  embedding: number[];
}

export interface DocumentInsert {
  /** File of a data source, or null for a corpus document. */
  fileId: string | null;
  corpus: string | null;
  sourceKey: string | null;
  title: string;
  url: string;
  format: string;
  pageCount: number;
  charCount: number;
  contentHash: string;
  docDate: Date;
  embeddingModel: string;
  metadata: Record<string, unknown>;
  chunks: ChunkInsert[];
}

export const SORT_COLUMNS = {
  createdAt: dataSources.createdAt,
  updatedAt: dataSources.updatedAt,
  name: dataSources.name,
  status: dataSources.status,
  lastSyncedAt: dataSources.lastSyncedAt,
} as const;
export type SortField = keyof typeof SORT_COLUMNS;

/** Rows per INSERT: an HNSW insert costs ~13 ms a row on PGlite, batches keep round trips low. */
const INSERT_BATCH = 100;

const fileMetaColumns = {
  id: dataSourceFiles.id,
  dataSourceId: dataSourceFiles.dataSourceId,
  workspaceId: dataSourceFiles.workspaceId,
  position: dataSourceFiles.position,
  filename: dataSourceFiles.filename,
  format: dataSourceFiles.format,
  mimeType: dataSourceFiles.mimeType,
  declaredType: dataSourceFiles.declaredType,
  sizeBytes: dataSourceFiles.sizeBytes,
  sha256: dataSourceFiles.sha256,
  title: dataSourceFiles.title,
  url: dataSourceFiles.url,
  docDate: dataSourceFiles.docDate,
  createdAt: dataSourceFiles.createdAt,
};

export interface DataSourcesRepositoryOptions {
  /**
   * Chunk rows per transaction when an ingestion is committed; unset: the whole data source
   * in one transaction, searchable all at once (PostgreSQL). PGlite has a single connection,
   * and a transaction there holds every other query of the process until it ends: with a
   * limit, the commit runs in short transactions and requests are answered between them.
   */
  commitRowsPerTransaction?: number;
}

/** Lets queued I/O (requests waiting for the database) run before the next transaction. */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/** All SQL of data sources, their files, documents and chunks (retrieval reads chunks in src/rag/retrieval.ts). */
export function dataSourcesRepository(db: Db, opts: DataSourcesRepositoryOptions = {}) {
  type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

  /**
   * Per workspace: live data sources whose ingestion is queued or running, and those whose
   * last one failed, read by the workspace detail and GET /sync-status (the list reads them kept
   * in `workspace_sync_counts`); built once, prepared per connection.
   */
  const syncCountsQuery = db
    .select({
      workspaceId: dataSources.workspaceId,
      syncing: sql<number>`count(*) FILTER (WHERE ${dataSources.status} IN ('pending', 'processing'))::int`,
      failed: sql<number>`count(*) FILTER (WHERE ${dataSources.status} = 'failed')::int`,
    })
    .from(dataSources)
    .where(and(sql`${dataSources.workspaceId} = ANY(${sql.placeholder('ids')}::text[])`, isNull(dataSources.deletedAt)))
    .groupBy(dataSources.workspaceId)
    .prepare('data_sources_sync_counts');

  type DocScope = { workspaceId: string | null; dataSourceId: string | null; mcpSourceId?: string | null };

  function documentValues(scope: DocScope, d: DocumentInsert) {
    return {
      workspaceId: scope.workspaceId,
      dataSourceId: scope.dataSourceId,
      mcpSourceId: scope.mcpSourceId ?? null,
      fileId: d.fileId,
      corpus: d.corpus,
      sourceKey: d.sourceKey,
      title: d.title,
      url: d.url,
      format: d.format,
      pageCount: d.pageCount,
      charCount: d.charCount,
      chunkCount: d.chunks.length,
      contentHash: d.contentHash,
      docDate: d.docDate,
      embeddingModel: d.embeddingModel,
      metadata: d.metadata,
      updatedAt: new Date(),
      deletedAt: null,
    };
  }

  /** The document row an earlier ingestion wrote for the same file or key, if any. */
  async function existingDocument(tx: Tx, scope: DocScope, d: DocumentInsert): Promise<string | null> {
    const [existing] = d.fileId
      ? await tx.select({ id: documents.id }).from(documents).where(eq(documents.fileId, d.fileId))
      : scope.mcpSourceId
        ? await tx
            .select({ id: documents.id })
            .from(documents)
            .where(and(eq(documents.mcpSourceId, scope.mcpSourceId), eq(documents.sourceKey, d.sourceKey!)))
        : await tx
            .select({ id: documents.id })
            .from(documents)
            .where(and(eq(documents.corpus, d.corpus!), eq(documents.sourceKey, d.sourceKey!)));
    return existing?.id ?? null;
  }

  /** Inserts chunks of a document, INSERT_BATCH rows per statement. */
  async function insertChunks(tx: Tx, scope: DocScope, documentId: string, d: DocumentInsert, rows: ChunkInsert[]): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      await tx.insert(chunks).values(
        rows.slice(i, i + INSERT_BATCH).map((c) => ({
          workspaceId: scope.workspaceId,
          documentId,
          dataSourceId: scope.dataSourceId,
          chunkIndex: c.chunkIndex,
          title: d.title,
          section: c.section,
          page: c.page,
          pageEnd: c.pageEnd,
          url: d.format === 'pdf' && c.page ? `${d.url}#page=${c.page}` : d.url,
          content: c.content,
          docDate: d.docDate,
          embedding: c.embedding,
          embeddingModel: d.embeddingModel,
        })),
      );
    }
  }

  /** Replaces the chunks of a document (upserted by file or corpus key) inside `tx`. */
  async function writeDocument(tx: Tx, scope: DocScope, d: DocumentInsert): Promise<string> {
    const values = documentValues(scope, d);
    let documentId = await existingDocument(tx, scope, d);
    if (documentId) {
      await tx.update(documents).set(values).where(eq(documents.id, documentId));
      await tx.delete(chunks).where(eq(chunks.documentId, documentId));
    } else {
      const [row] = await tx.insert(documents).values(values).returning({ id: documents.id });
      documentId = row!.id;
    }
    await insertChunks(tx, scope, documentId, d, d.chunks);
    return documentId;
  }

  /** Marks the data source `ready` with its counts and removes documents of files it no longer has, inside `tx`. */
  async function finishIngestion(tx: Tx, id: string, docs: DocumentInsert[], keep: string[]): Promise<void> {
    // Documents of files that no longer exist (none today: files are immutable).
    const stale = (await tx.select({ id: documents.id }).from(documents).where(eq(documents.dataSourceId, id)))
      .map((r) => r.id)
      .filter((x) => !keep.includes(x));
    if (stale.length) await tx.delete(documents).where(inArray(documents.id, stale));
    await tx
      .update(dataSources)
      .set({
        status: 'ready',
        errorCode: null,
        errorMessage: null,
        documentCount: docs.length,
        chunkCount: docs.reduce((n, d) => n + d.chunks.length, 0),
        pageCount: docs.reduce((n, d) => n + d.pageCount, 0),
        lastSyncedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(dataSources.id, id));
  }

  /**
   * One short transaction of a stepped commit: runs `fn` only while `generation` is still
   * current and the source not deleted, checked under the data source's row lock (the lock
   * a delete or a new sync takes too), else returns null.
   */
  function commitStep<T>(id: string, generation: number, fn: (tx: Tx, ds: DataSourceRow) => Promise<T>): Promise<{ value: T } | null> {
    return db.transaction(async (tx) => {
      const [ds] = await tx.select().from(dataSources).where(eq(dataSources.id, id)).for('update');
      if (!ds || ds.deletedAt || ds.generation !== generation) return null;
      return { value: await fn(tx, ds) };
    });
  }

  /**
   * The commit in transactions of at most `rows` chunk rows, the event loop let run between
   * them (docs/data-sources.md, "Committing an ingestion"): a new document becomes searchable
   * part by part, a document that replaces an earlier version is swapped whole in one step,
   * and the source turns `ready` in the last step.
   */
  async function commitInSteps(id: string, generation: number, docs: DocumentInsert[], rows: number): Promise<boolean> {
    const keep: string[] = [];
    for (const d of docs) {
      const first = await commitStep(id, generation, async (tx, ds) => {
        const scope = { workspaceId: ds.workspaceId, dataSourceId: ds.id };
        if (await existingDocument(tx, scope, d)) return { documentId: await writeDocument(tx, scope, d), written: d.chunks.length, scope };
        const [row] = await tx.insert(documents).values(documentValues(scope, d)).returning({ id: documents.id });
        await insertChunks(tx, scope, row!.id, d, d.chunks.slice(0, rows));
        return { documentId: row!.id, written: Math.min(rows, d.chunks.length), scope };
      });
      if (!first) return false;
      const { documentId, scope } = first.value;
      keep.push(documentId);
      for (let i = first.value.written; i < d.chunks.length; i += rows) {
        await yieldToRequests();
        if (!(await commitStep(id, generation, (tx) => insertChunks(tx, scope, documentId, d, d.chunks.slice(i, i + rows))))) return false;
      }
      await yieldToRequests();
    }
    return (await commitStep(id, generation, (tx) => finishIngestion(tx, id, docs, keep))) !== null;
  }

  return {
    /** The data source and its files, in one transaction. */
    async create(
      scope: InWorkspace,
      values: { name: string; description: string | null; kind: string; createdBy: string; totalBytes: number },
      files: NewFile[],
    ): Promise<DataSourceRow> {
      const ds = { ...values, workspaceId: scope.workspaceId };
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(dataSources)
          .values({ ...ds, status: 'pending' })
          .returning();
        for (let i = 0; i < files.length; i++) {
          await tx.insert(dataSourceFiles).values({ ...files[i]!, dataSourceId: row!.id, workspaceId: ds.workspaceId, position: i });
        }
        return row!;
      });
    },

    async list(
      scope: InWorkspace,
      q: { offset: number; limit: number; status?: DataSourceStatus; sort: SortField; descending: boolean },
    ): Promise<{ rows: DataSourceRow[]; total: number }> {
      const where = and(eq(dataSources.workspaceId, scope.workspaceId), isNull(dataSources.deletedAt), q.status ? eq(dataSources.status, q.status) : undefined);
      const col = SORT_COLUMNS[q.sort];
      const [rows, [totalRow]] = await Promise.all([
        db
          .select()
          .from(dataSources)
          .where(where)
          .orderBy(q.descending ? sql`${col} DESC NULLS LAST` : sql`${col} ASC NULLS LAST`, desc(dataSources.createdAt), asc(dataSources.id))
          .limit(q.limit)
          .offset(q.offset),
        db.select({ n: count() }).from(dataSources).where(where),
      ]);
      return { rows, total: Number(totalRow?.n ?? 0) };
    },

    /** A live data source of the workspace. */
    async get(scope: InWorkspace, id: string): Promise<DataSourceRow | null> {
      const [row] = await db
        .select()
        .from(dataSources)
        .where(and(eq(dataSources.id, id), eq(dataSources.workspaceId, scope.workspaceId), isNull(dataSources.deletedAt)));
      return row ?? null;
    },

    /** A data source by id, deleted or not (for jobs). */
    async byId(id: string): Promise<DataSourceRow | null> {
      const [row] = await db.select().from(dataSources).where(eq(dataSources.id, id));
      return row ?? null;
    },

    async files(dataSourceId: string): Promise<FileRow[]> {
      return db.select().from(dataSourceFiles).where(eq(dataSourceFiles.dataSourceId, dataSourceId)).orderBy(asc(dataSourceFiles.position));
    },

    /** Files of live data sources of the workspace, by file id (ids of other workspaces or deleted sources are left out). */
    async filesByIds(scope: InWorkspace, fileIds: string[]): Promise<FileRow[]> {
      if (!fileIds.length) return [];
      return db
        .select({ file: dataSourceFiles })
        .from(dataSourceFiles)
        .innerJoin(dataSources, eq(dataSources.id, dataSourceFiles.dataSourceId))
        .where(and(inArray(dataSourceFiles.id, fileIds), eq(dataSourceFiles.workspaceId, scope.workspaceId), isNull(dataSources.deletedAt)))
        .then((rows) => rows.map((r) => r.file));
    },

    /** The newest file of a live data source of the workspace with these bytes (SHA-256), if any. */
    async liveFileBySha256(scope: InWorkspace, sha256: string): Promise<FileMeta | null> {
      const [row] = await db
        .select({ file: fileMetaColumns })
        .from(dataSourceFiles)
        .innerJoin(dataSources, eq(dataSources.id, dataSourceFiles.dataSourceId))
        .where(and(eq(dataSourceFiles.workspaceId, scope.workspaceId), eq(dataSourceFiles.sha256, sha256), isNull(dataSources.deletedAt)))
        .orderBy(desc(dataSourceFiles.createdAt))
        .limit(1);
      return row?.file ?? null;
    },

    async fileMetas(dataSourceIds: string[]): Promise<FileMeta[]> {
      if (!dataSourceIds.length) return [];
      return db
        .select(fileMetaColumns)
        .from(dataSourceFiles)
        .where(inArray(dataSourceFiles.dataSourceId, dataSourceIds))
        .orderBy(asc(dataSourceFiles.position));
    },

    async documentsOf(dataSourceIds: string[]): Promise<DocumentRow[]> {
      if (!dataSourceIds.length) return [];
      return db
        .select()
        .from(documents)
        .where(and(inArray(documents.dataSourceId, dataSourceIds), isNull(documents.deletedAt)));
    },

    /** Starts a new sync generation: the data source goes back to `pending`. */
    async requestSync(scope: InWorkspace, id: string): Promise<DataSourceRow | null> {
      const [row] = await db
        .update(dataSources)
        .set({
          generation: sql`${dataSources.generation} + 1`,
          status: 'pending',
          attempts: 0,
          errorCode: null,
          errorMessage: null,
          jobId: null,
          syncRequestedAt: new Date(),
          updatedAt: new Date(),
        })
        .where(and(eq(dataSources.id, id), eq(dataSources.workspaceId, scope.workspaceId), isNull(dataSources.deletedAt)))
        .returning();
      return row ?? null;
    },

    async setJob(id: string, generation: number, jobId: string): Promise<void> {
      await db
        .update(dataSources)
        .set({ jobId })
        .where(and(eq(dataSources.id, id), eq(dataSources.generation, generation)));
    },

    /** Marks an attempt as started; false when the generation is stale or the source deleted. */
    async markProcessing(id: string, generation: number): Promise<boolean> {
      const rows = await db
        .update(dataSources)
        .set({ status: 'processing', attempts: sql`${dataSources.attempts} + 1`, processingStartedAt: new Date(), filesDone: 0, updatedAt: new Date() })
        .where(and(eq(dataSources.id, id), eq(dataSources.generation, generation), isNull(dataSources.deletedAt)))
        .returning({ id: dataSources.id });
      return rows.length > 0;
    },

    /** Progress of the current attempt: `done` files parsed and embedded (only for the current generation). */
    async setFilesDone(id: string, generation: number, done: number): Promise<void> {
      await db
        .update(dataSources)
        .set({ filesDone: done })
        .where(and(eq(dataSources.id, id), eq(dataSources.generation, generation), eq(dataSources.status, 'processing')));
    },

    /** The sync state of every live data source of a workspace, with its file count (one query). */
    async syncRows(scope: InWorkspace) {
      return db
        .select({
          id: dataSources.id,
          name: dataSources.name,
          status: dataSources.status,
          errorCode: dataSources.errorCode,
          errorMessage: dataSources.errorMessage,
          jobId: dataSources.jobId,
          attempts: dataSources.attempts,
          updatedAt: dataSources.updatedAt,
          syncRequestedAt: dataSources.syncRequestedAt,
          lastSyncedAt: dataSources.lastSyncedAt,
          processingStartedAt: dataSources.processingStartedAt,
          filesDone: dataSources.filesDone,
          // Qualified by hand: drizzle leaves columns unqualified in a one-table select.
          fileCount: sql<number>`(SELECT count(*)::int FROM ${dataSourceFiles} f WHERE f.data_source_id = "data_sources"."id")`,
        })
        .from(dataSources)
        .where(and(eq(dataSources.workspaceId, scope.workspaceId), isNull(dataSources.deletedAt)))
        .orderBy(asc(dataSources.createdAt), asc(dataSources.id));
    },

    /** The heartbeat of a running ingestion: `updated_at` of its source, while it is `processing`. */
    async heartbeat(id: string, generation: number): Promise<void> {
      await db
        .update(dataSources)
        .set({ updatedAt: new Date() })
        .where(and(eq(dataSources.id, id), eq(dataSources.generation, generation), eq(dataSources.status, 'processing')));
    },

    /**
     * Sources left `processing` by a worker that died (no heartbeat since `before`): each is
     * moved to a new generation, `pending`, in one conditional update, so that of several
     * instances sweeping at once only one takes a source over. Returns the taken rows.
     */
    async takeOverStale(before: Date): Promise<DataSourceRow[]> {
      return db
        .update(dataSources)
        .set({ generation: sql`${dataSources.generation} + 1`, status: 'pending', jobId: null, updatedAt: new Date() })
        .where(and(eq(dataSources.status, 'processing'), lt(dataSources.updatedAt, before), isNull(dataSources.deletedAt)))
        .returning();
    },

    /** Sets the status of the given generation; false when it is stale or the source deleted. */
    async markStatus(id: string, generation: number, status: DataSourceStatus, error: { code: string; message: string } | null): Promise<boolean> {
      const rows = await db
        .update(dataSources)
        .set({ status, errorCode: error?.code ?? null, errorMessage: error?.message ?? null, updatedAt: new Date() })
        .where(and(eq(dataSources.id, id), eq(dataSources.generation, generation), isNull(dataSources.deletedAt)))
        .returning({ id: dataSources.id });
      return rows.length > 0;
    },

    /**
     * Writes the documents and chunks of one ingestion and marks the source `ready`, only
     * if the generation is still current and the source not deleted (the row is locked
     * first). Chunks of a document are replaced, never added to. In one transaction, or,
     * with `commitRowsPerTransaction` (PGlite), in short ones (commitInSteps).
     */
    async commitIngestion(id: string, generation: number, docs: DocumentInsert[]): Promise<boolean> {
      if (opts.commitRowsPerTransaction) return commitInSteps(id, generation, docs, opts.commitRowsPerTransaction);
      const done = await commitStep(id, generation, async (tx, ds) => {
        const keep: string[] = [];
        for (const d of docs) keep.push(await writeDocument(tx, { workspaceId: ds.workspaceId, dataSourceId: ds.id }, d));
        await finishIngestion(tx, id, docs, keep);
      });
      return done !== null;
    },

    /**
     * Soft-deletes the data source, its documents and chunks in one transaction; they
     * are never returned again (every read filters `deleted_at IS NULL`).
     */
    async softDelete(scope: InWorkspace, id: string): Promise<{ documents: number; chunks: number } | null> {
      return db.transaction(async (tx) => {
        const now = new Date();
        const [ds] = await tx
          .update(dataSources)
          .set({ deletedAt: now, updatedAt: now, generation: sql`${dataSources.generation} + 1` })
          .where(and(eq(dataSources.id, id), eq(dataSources.workspaceId, scope.workspaceId), isNull(dataSources.deletedAt)))
          .returning({ id: dataSources.id });
        if (!ds) return null;
        const docs = await tx
          .update(documents)
          .set({ deletedAt: now })
          .where(and(eq(documents.dataSourceId, id), isNull(documents.deletedAt)))
          .returning({ id: documents.id });
        const ch = await tx
          .update(chunks)
          .set({ deletedAt: now })
          .where(and(eq(chunks.dataSourceId, id), isNull(chunks.deletedAt)))
          .returning({ id: chunks.id });
        return { documents: docs.length, chunks: ch.length };
      });
    },

    /** Live counts of a workspace: documents, their pages, data sources. */
    async stats(scope: InWorkspace): Promise<{ documents: number; pages: number; dataSources: number }> {
      const [d] = await db
        .select({ n: count(), pages: sql<number>`coalesce(sum(${documents.pageCount}), 0)::int` })
        .from(documents)
        .where(and(eq(documents.workspaceId, scope.workspaceId), isNull(documents.deletedAt)));
      const [s] = await db
        .select({ n: count() })
        .from(dataSources)
        .where(and(eq(dataSources.workspaceId, scope.workspaceId), isNull(dataSources.deletedAt)));
      return { documents: Number(d?.n ?? 0), pages: Number(d?.pages ?? 0), dataSources: Number(s?.n ?? 0) };
    },

    /** Per workspace: live data sources whose ingestion is queued or running, and those whose last one failed. */
    async syncCounts(workspaceIds: string[]): Promise<Map<string, { syncing: number; failed: number }>> {
      if (!workspaceIds.length) return new Map();
      const rows = await syncCountsQuery.execute({ ids: workspaceIds });
      return new Map(rows.map((r) => [r.workspaceId, { syncing: Number(r.syncing), failed: Number(r.failed) }]));
    },

    /** Corpus documents with their content hash and embedder. */
    async corpusDocuments(corpus: string): Promise<{ id: string; sourceKey: string | null; contentHash: string; embeddingModel: string }[]> {
      return db
        .select({ id: documents.id, sourceKey: documents.sourceKey, contentHash: documents.contentHash, embeddingModel: documents.embeddingModel })
        .from(documents)
        .where(and(eq(documents.corpus, corpus), isNull(documents.deletedAt)));
    },

    /** Writes (replaces) corpus documents and removes the corpus documents not in `keepKeys`. One transaction. */
    async writeCorpus(corpus: string, docs: DocumentInsert[], keepKeys: string[]): Promise<void> {
      await db.transaction(async (tx) => {
        for (const d of docs) await writeDocument(tx, { workspaceId: null, dataSourceId: null }, d);
        const all = await tx.select({ id: documents.id, key: documents.sourceKey }).from(documents).where(eq(documents.corpus, corpus));
        const gone = all.filter((r) => !r.key || !keepKeys.includes(r.key)).map((r) => r.id);
        if (gone.length) await tx.delete(documents).where(inArray(documents.id, gone));
      });
    },

    /**
     * Writes (replaces, chunks included) the document of one resource of an MCP source,
     * keyed by the source and `sourceKey` (the resource URI), in one transaction; a
     * soft-deleted one comes back. Null when the MCP source no longer exists.
     */
    async writeMcpDocument(
      scope: { workspaceId: string; mcpSourceId: string },
      d: Omit<DocumentInsert, 'fileId' | 'corpus'> & { sourceKey: string },
    ): Promise<string | null> {
      try {
        return await db.transaction((tx) =>
          writeDocument(tx, { workspaceId: scope.workspaceId, dataSourceId: null, mcpSourceId: scope.mcpSourceId }, { ...d, fileId: null, corpus: null }),
        );
      } catch (err) {
        for (let e = err as Record<string, unknown> | undefined, i = 0; e && i < 4; e = e.cause as Record<string, unknown> | undefined, i++) {
          if (String(e.code) === '23503') return null; // the MCP source was deleted meanwhile
        }
        throw err;
      }
    },

    /** Soft-deletes documents of an MCP source and their chunks, in one transaction. */
    async softDeleteMcpDocuments(mcpSourceId: string, documentIds: string[]): Promise<number> {
      if (!documentIds.length) return 0;
      return db.transaction(async (tx) => {
        const now = new Date();
        const docs = await tx
          .update(documents)
          .set({ deletedAt: now })
          .where(and(eq(documents.mcpSourceId, mcpSourceId), inArray(documents.id, documentIds), isNull(documents.deletedAt)))
          .returning({ id: documents.id });
        if (docs.length) {
          await tx
            .update(chunks)
            .set({ deletedAt: now })
            .where(
              and(
                inArray(
                  chunks.documentId,
                  docs.map((d) => d.id),
                ),
                isNull(chunks.deletedAt),
              ),
            );
        }
        return docs.length;
      });
    },

    /**
     * A live document the workspace can read (GET /documents/:id): one of its own (an uploaded
     * file or an MCP resource) or one of the shared corpus, with its file's name when it has one.
     */
    async readableDocument(scope: InWorkspace, id: string) {
      const [row] = await db
        .select({ doc: documents, file: { filename: dataSourceFiles.filename, mimeType: dataSourceFiles.mimeType, sizeBytes: dataSourceFiles.sizeBytes } })
        .from(documents)
        .leftJoin(dataSourceFiles, eq(dataSourceFiles.id, documents.fileId))
        .where(
          and(
            eq(documents.id, id),
            isNull(documents.deletedAt),
            or(eq(documents.workspaceId, scope.workspaceId), and(isNull(documents.workspaceId), isNotNull(documents.corpus))),
          ),
        );
      return row ? { ...row.doc, file: row.file?.filename ? row.file : null } : null;
    },

    /** The live chunks of a document, in order (its text as indexed). */
    async documentChunks(doc: { id: string; workspaceId: string | null }) {
      return db
        .select({ id: chunks.id, chunkIndex: chunks.chunkIndex, section: chunks.section, content: chunks.content, page: chunks.page })
        .from(chunks)
        .where(
          and(
            // The partition key first: one partition is read.
            doc.workspaceId === null ? isNull(chunks.workspaceId) : eq(chunks.workspaceId, doc.workspaceId),
            eq(chunks.documentId, doc.id),
            isNull(chunks.deletedAt),
          ),
        )
        .orderBy(asc(chunks.chunkIndex));
    },

    /** Chunks of a corpus (count), for status checks. */
    async corpusChunkCount(corpus: string): Promise<number> {
      const [r] = await db
        .select({ n: count() })
        .from(chunks)
        .innerJoin(documents, eq(documents.id, chunks.documentId))
        .where(and(eq(documents.corpus, corpus), isNull(chunks.deletedAt)));
      return Number(r?.n ?? 0);
    },
  };
}
export type DataSourcesRepository = ReturnType<typeof dataSourcesRepository>;
