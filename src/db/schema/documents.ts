import { sql } from 'drizzle-orm';
import { customType, index, integer, jsonb, pgTable, text, timestamp, unique, uniqueIndex, vector } from 'drizzle-orm/pg-core';
import { newId } from '../../lib/ids.js';
import { mcpSources } from './mcp.js';
import { users } from './users.js';
import { workspaces } from './workspaces.js';

/**
 * Dimension of every stored embedding. It is part of the schema (`vector(384)`):
 * an embedder must produce vectors of this size, and switching embedders re-embeds
 * (docs/retrieval.md).
 */
export const EMBEDDING_DIMENSIONS = 384;

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
  toDriver: (v) => v,
});

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Status of a data source (docs/data-sources.md). */
export const DATA_SOURCE_STATUSES = ['pending', 'processing', 'ready', 'failed'] as const;
export type DataSourceStatus = (typeof DATA_SOURCE_STATUSES)[number];

/** Formats the ingestion pipeline parses. */
export const DOCUMENT_FORMATS = ['pdf', 'docx', 'xlsx', 'html', 'markdown', 'text', 'json'] as const;
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/**
 * A set of documents of a workspace, created by one upload (multipart files) or one
 * JSON body. Soft-deleted: `deleted_at` hides it and its documents and chunks.
 */
export const dataSources = pgTable(
  'data_sources',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** `upload` (multipart files) or `json` (documents in a JSON body). */
    kind: text('kind').notNull(),
    status: text('status').$type<DataSourceStatus>().notNull().default('pending'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /** Incremented by every sync request; a job only commits for the current generation. */
    generation: integer('generation').notNull().default(1),
    jobId: text('job_id'),
    /** Processing attempts of the current generation. */
    attempts: integer('attempts').notNull().default(0),
    documentCount: integer('document_count').notNull().default(0),
    chunkCount: integer('chunk_count').notNull().default(0),
    pageCount: integer('page_count').notNull().default(0),
    totalBytes: integer('total_bytes').notNull().default(0),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    syncRequestedAt: timestamp('sync_requested_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the current attempt started processing, and how many of its files are done (GET /sync-status). */
    processingStartedAt: timestamp('processing_started_at', { withTimezone: true }),
    filesDone: integer('files_done').notNull().default(0),
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('data_sources_workspace_idx').on(t.workspaceId, t.createdAt)],
);

/** The original bytes of each file of a data source, kept so that a re-sync can parse them again. */
export const dataSourceFiles = pgTable(
  'data_source_files',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    dataSourceId: text('data_source_id')
      .notNull()
      .references(() => dataSources.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    filename: text('filename').notNull(),
    format: text('format').$type<DocumentFormat>().notNull(),
    /** Media type found by sniffing the content. */
    mimeType: text('mime_type').notNull(),
    /** Media type the client declared (informational only). */
    declaredType: text('declared_type'),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    /** Title, url and date given by the client (JSON body), overriding what the parser finds. */
    title: text('title'),
    url: text('url'),
    docDate: timestamp('doc_date', { withTimezone: true }),
    content: bytea('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('data_source_files_position_uidx').on(t.dataSourceId, t.position)],
);

/**
 * An indexed document: one per file of a data source, or one per article of a shared
 * corpus (`corpus` = `dora`, `workspace_id` NULL).
 */
export const documents = pgTable(
  'documents',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    dataSourceId: text('data_source_id').references(() => dataSources.id, { onDelete: 'cascade' }),
    /** MCP source of the document (one per resource, `source_key` = resource URI); docs/mcp-sources.md. */
    mcpSourceId: text('mcp_source_id').references(() => mcpSources.id, { onDelete: 'cascade' }),
    fileId: text('file_id').references(() => dataSourceFiles.id, { onDelete: 'cascade' }),
    corpus: text('corpus'),
    sourceKey: text('source_key'),
    title: text('title').notNull(),
    url: text('url').notNull(),
    format: text('format').notNull(),
    pageCount: integer('page_count').notNull().default(1),
    charCount: integer('char_count').notNull().default(0),
    chunkCount: integer('chunk_count').notNull().default(0),
    contentHash: text('content_hash').notNull(),
    docDate: timestamp('doc_date', { withTimezone: true }).notNull(),
    embeddingModel: text('embedding_model').notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('documents_file_uidx').on(t.fileId),
    uniqueIndex('documents_corpus_key_uidx').on(t.corpus, t.sourceKey),
    uniqueIndex('documents_mcp_key_uidx').on(t.mcpSourceId, t.sourceKey),
    index('documents_workspace_idx').on(t.workspaceId),
    index('documents_data_source_idx').on(t.dataSourceId),
  ],
);

/**
 * Retrieval units. Title, url and date are copied from the document so that hybrid
 * retrieval reads one table. `tsv` is generated; `embedding` is `vector(384)`.
 */
export const chunks = pgTable(
  'chunks',
  {
    // Unique with the workspace (chunks_id_workspace_unique): a partitioned table's keys hold its partition key.
    id: text('id').notNull().$defaultFn(newId),
    workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    documentId: text('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    dataSourceId: text('data_source_id').references(() => dataSources.id, { onDelete: 'cascade' }),
    chunkIndex: integer('chunk_index').notNull(),
    title: text('title').notNull(),
    section: text('section').notNull().default(''),
    /** First and last page the chunk covers (paginated formats), else NULL. */
    page: integer('page'),
    pageEnd: integer('page_end'),
    url: text('url').notNull(),
    content: text('content').notNull(),
    docDate: timestamp('doc_date', { withTimezone: true }).notNull(),
    tsv: tsvector('tsv')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('english'::regconfig, coalesce("title", '') || ' ' || coalesce("section", '')), 'A') || setweight(to_tsvector('english'::regconfig, "content"), 'B')`,
      ),
    embedding: vector('embedding', { dimensions: EMBEDDING_DIMENSIONS }).notNull(),
    embeddingModel: text('embedding_model').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    // Hash-partitioned by workspace_id into 16 partitions (migration 0014_chunks_by_workspace; drizzle
    // does not describe partitioning): every index below exists per partition.
    unique('chunks_id_workspace_unique').on(t.id, t.workspaceId).nullsNotDistinct(),
    unique('chunks_document_position_uidx').on(t.documentId, t.chunkIndex, t.workspaceId).nullsNotDistinct(),
    index('chunks_embedding_hnsw_idx').using('hnsw', t.embedding.op('vector_cosine_ops')).where(sql`"deleted_at" IS NULL`),
    // Full text by scope (docs/performance.md, "Retrieval"): a workspace's postings are
    // found through its id (btree_gin), the shared corpus has an index of its own.
    index('chunks_workspace_tsv_gin_idx').using('gin', t.workspaceId, t.tsv).where(sql`"deleted_at" IS NULL AND "workspace_id" IS NOT NULL`),
    index('chunks_corpus_tsv_gin_idx').using('gin', t.tsv).where(sql`"deleted_at" IS NULL AND "workspace_id" IS NULL`),
    index('chunks_workspace_idx').on(t.workspaceId).where(sql`"deleted_at" IS NULL`),
    index('chunks_data_source_idx').on(t.dataSourceId),
  ],
);

/**
 * Metadata of a vendor's document (docs/inventory.md, "Document metadata"): type, effective
 * date, expiry and version, proposed from the text after each ingestion and editable. A field
 * an analyst edited is listed in `edited_fields` and never overwritten by a proposal.
 * `expiry_notified_for` is the expiry date the owner was last told about (a new date is told again).
 */
export const documentMetadata = pgTable(
  'document_metadata',
  {
    documentId: text('document_id')
      .primaryKey()
      .references(() => documents.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    docType: text('doc_type'),
    effectiveDate: text('effective_date'),
    expiryDate: text('expiry_date'),
    version: text('version'),
    editedFields: jsonb('edited_fields').$type<string[]>().notNull().default([]),
    expiryNotifiedFor: text('expiry_notified_for'),
    updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('document_metadata_workspace_type_idx').on(t.workspaceId, t.docType),
    index('document_metadata_expiry_idx').on(t.expiryDate).where(sql`${t.expiryDate} IS NOT NULL`),
  ],
);
