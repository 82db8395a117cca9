import { Type } from 'typebox';
import { DATA_SOURCE_STATUSES, DOCUMENT_FORMATS } from '../../db/schema/documents.js';
import { Envelope, ErrorEnvelope, errorResponses } from '../../lib/envelope.js';
import { SORT_COLUMNS } from './repository.js';
import { pageQuery, PaginationSchema } from '../../domain/paging.js';

/** Request and response schemas of the /data-sources routes (docs/data-sources.md), one per route. */

const Id = Type.String({ minLength: 1, maxLength: 100 });
const FileSchema = Type.Object({
  id: Type.String(),
  filename: Type.String(),
  format: Type.String(),
  mimeType: Type.String(),
  sizeBytes: Type.Number(),
  sha256: Type.String(),
  url: Type.String(),
  document: Type.Union([
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      url: Type.String(),
      pageCount: Type.Number(),
      chunkCount: Type.Number(),
      charCount: Type.Number(),
      date: Type.Union([Type.String(), Type.Null()]),
      indexedAt: Type.Union([Type.String(), Type.Null()]),
    }),
    Type.Null(),
  ]),
});
export const DataSourceSchema = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  kind: Type.String({ description: '`upload` (multipart files) or `json` (documents in a JSON body)' }),
  status: Type.Enum([...DATA_SOURCE_STATUSES]),
  error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
  documentCount: Type.Number(),
  chunkCount: Type.Number(),
  pageCount: Type.Number(),
  fileCount: Type.Number(),
  totalBytes: Type.Number(),
  attempts: Type.Number(),
  jobId: Type.Union([Type.String(), Type.Null()]),
  createdBy: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  syncRequestedAt: Type.String(),
  lastSyncedAt: Type.Union([Type.String(), Type.Null()]),
  files: Type.Array(FileSchema),
});

const DateString = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const JsonDocument = Type.Object(
  {
    filename: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 300 })),
    format: Type.Optional(Type.Enum([...DOCUMENT_FORMATS])),
    content: Type.Optional(Type.String({ minLength: 1, description: 'text of a text format (markdown, html, text, json)' })),
    contentBase64: Type.Optional(Type.String({ minLength: 1, description: 'bytes of any format, base64' })),
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'link shown with the sources' })),
    date: Type.Optional(DateString),
  },
  { additionalProperties: false },
);
export const CreateJson = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    documents: Type.Array(JsonDocument, { minItems: 1 }),
  },
  { additionalProperties: false },
);
const upload413 = { 413: ErrorEnvelope, 415: ErrorEnvelope, 422: ErrorEnvelope };
const IdParams = Type.Object({ id: Id });
const tags = ['data-sources'];

export const CreateDataSource = {
  operationId: 'createDataSource',
  tags,
  summary: 'Create a data source from uploaded files (multipart/form-data) or documents in a JSON body; ingestion runs as a job',
  description:
    'Send either `multipart/form-data` (form fields `name` and `description`, optional, and one or more file parts; ' +
    'the parts are read and checked by the handler) or `application/json` (the schema below). Every file is checked ' +
    '(size, type by content, encryption, archive limits, parsable text) before anything is stored.',
  body: { content: { 'application/json': { schema: CreateJson } } } as never,
  response: { 201: Envelope(Type.Object({ dataSource: DataSourceSchema })), ...errorResponses, ...upload413 },
};

export const ListDataSources = {
  operationId: 'listDataSources',
  tags,
  summary: 'Data sources of the workspace (deleted ones are not listed)',
  querystring: Type.Object(
    {
      ...pageQuery(),
      status: Type.Optional(Type.Enum([...DATA_SOURCE_STATUSES])),
      sort: Type.Enum(
        Object.keys(SORT_COLUMNS).flatMap((k) => [k, `-${k}`]),
        { default: '-createdAt' },
      ),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Envelope(
      Type.Object({
        dataSources: Type.Array(DataSourceSchema),
        pagination: PaginationSchema,
      }),
    ),
    ...errorResponses,
  },
};

export const GetDataSource = {
  operationId: 'getDataSource',
  tags,
  summary: 'One data source: status, error, counts, files and their documents',
  params: IdParams,
  response: { 200: Envelope(Type.Object({ dataSource: DataSourceSchema })), ...errorResponses },
};

export const GetDataSourceFile = {
  operationId: 'downloadDataSourceFile',
  tags,
  summary: 'Download the original bytes of one file of a data source',
  params: Type.Object({ id: Id, fileId: Id }),
  response: {
    200: { description: 'the file', content: { 'application/octet-stream': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } } },
    ...errorResponses,
  },
};

export const SyncDataSource = {
  operationId: 'syncDataSource',
  tags,
  summary: 'Re-sync: parse, chunk and embed the stored files again (retries a failed ingestion)',
  params: IdParams,
  response: { 200: Envelope(Type.Object({ dataSource: DataSourceSchema })), ...errorResponses },
};

export const DeleteDataSource = {
  operationId: 'deleteDataSource',
  tags,
  summary: 'Delete the data source; its documents and chunks are soft-deleted and never retrieved again',
  params: IdParams,
  response: { 200: Envelope(Type.Object({ id: Type.String(), deletedDocuments: Type.Number(), deletedChunks: Type.Number() })), ...errorResponses },
};

const BlockSchema = Type.Object({
  text: Type.String(),
  headings: Type.Array(Type.String(), { description: 'headings above the block, outermost first' }),
  page: Type.Union([Type.Number(), Type.Null()]),
});
export const DocumentTextSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  format: Type.String(),
  kind: Type.Enum(['file', 'mcp', 'corpus'], { description: '`file` of a data source, `mcp` resource, `corpus` (the shared DORA articles)' }),
  dataSourceId: Type.Union([Type.String(), Type.Null()]),
  mcpSourceId: Type.Union([Type.String(), Type.Null()]),
  pageCount: Type.Number(),
  date: Type.Union([Type.String(), Type.Null()]),
  file: Type.Union([
    Type.Object(
      {
        id: Type.String(),
        filename: Type.String(),
        mimeType: Type.String(),
        sizeBytes: Type.Number(),
        url: Type.String({ description: 'GET it (with X-Workspace-Id) for the original bytes' }),
      },
      { description: 'the original file, for a document of a data source' },
    ),
    Type.Null(),
  ]),
  link: Type.Union([Type.String(), Type.Null()], { description: 'the http(s) address the document was indexed with (EUR-Lex for DORA), if any' }),
  blocks: Type.Array(BlockSchema, { description: 'the text as indexed, in order: rebuilt from the chunks' }),
  passage: Type.Union([
    Type.Object({ chunkId: Type.String(), content: Type.String(), section: Type.String(), page: Type.Union([Type.Number(), Type.Null()]) }),
    Type.Null(),
  ]),
});

export const GetDocumentText = {
  tags,
  operationId: 'getDocumentText',
  summary: 'A document of the workspace (or of the DORA corpus) as text, with one of its passages',
  description:
    'The blocks of the text as indexed (front matter, markup and templates already removed by the parsers), where the original is, ' +
    'and, with `chunk` (a source id of an answer), that passage, so a client can open the document at it. An unknown `chunk` gives `passage: null`.',
  params: IdParams,
  querystring: Type.Object({ chunk: Type.Optional(Id) }, { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ document: DocumentTextSchema })), ...errorResponses },
};

export const GetUploadLimits = {
  tags,
  operationId: 'getUploadLimits',
  summary: 'What an upload may be: the file size and count limits and the formats (also for POST /assessments)',
  response: {
    200: Envelope(
      Type.Object({
        limits: Type.Object({
          maxFileBytes: Type.Number(),
          maxFiles: Type.Number(),
          formats: Type.Array(Type.Object({ format: Type.String(), extensions: Type.Array(Type.String()), mimeType: Type.String() })),
          textByContent: Type.Boolean({
            description: 'a file of another extension is accepted when its content is text (UTF-8, or UTF-16 with a BOM, no NUL)',
          }),
        }),
      }),
    ),
    ...errorResponses,
  },
};
