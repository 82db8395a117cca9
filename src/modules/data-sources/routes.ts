import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { Config } from '../../config.js';
import { DATA_SOURCE_STATUSES, DOCUMENT_FORMATS, type DocumentFormat } from '../../db/schema/documents.js';
import { FORMAT_MIME } from '../../ingest/sniff.js';
import { Envelope, ErrorEnvelope, errorResponses, ok } from '../../lib/envelope.js';
import { badRequest } from '../../lib/errors.js';
import { readMultipart } from '../../plugins/multipart.js';
import { SORT_COLUMNS } from './repository.js';
import type { DataSourcesService, IncomingFile } from './service.js';
import { pageQuery, PaginationSchema } from '../../domain/paging.js';

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
const CreateJson = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    documents: Type.Array(JsonDocument, { minItems: 1 }),
  },
  { additionalProperties: false },
);
const EXTENSION: Record<DocumentFormat, string> = { pdf: 'pdf', docx: 'docx', xlsx: 'xlsx', html: 'html', markdown: 'md', text: 'txt', json: 'json' };

const upload413 = { 413: ErrorEnvelope, 415: ErrorEnvelope, 422: ErrorEnvelope };

/** JSON documents to incoming files: exactly one of `content` / `contentBase64` each. */
function jsonFiles(docs: Static<typeof CreateJson>['documents']): IncomingFile[] {
  return docs.map((d, i) => {
    const field = `documents.${i}`;
    if ((d.content === undefined) === (d.contentBase64 === undefined)) {
      throw badRequest(`${field} needs exactly one of content or contentBase64`, [`${field}: exactly one of content, contentBase64 is required`]);
    }
    let content: Buffer;
    if (d.content !== undefined) {
      content = Buffer.from(d.content, 'utf8');
    } else {
      const b64 = d.contentBase64!.replace(/\s+/g, '');
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 === 1) throw badRequest(`${field}.contentBase64 is not valid base64`, [`${field}.contentBase64: must be base64`]);
      content = Buffer.from(b64, 'base64');
    }
    const format = d.format;
    const filename = d.filename ?? `${(d.title ?? `document-${i + 1}`).replace(/[^\w.-]+/g, '-').slice(0, 100)}.${format ? EXTENSION[format] : d.content !== undefined ? 'txt' : 'bin'}`;
    return {
      filename,
      declaredType: format ? FORMAT_MIME[format] : null,
      content,
      title: d.title ?? null,
      url: d.url ?? null,
      date: d.date ? new Date(`${d.date}T00:00:00Z`) : null,
    };
  });
}

/**
 * The /data-sources group (docs/data-sources.md). Listing and reading need
 * `canViewSources`; creating, re-syncing and deleting need `canManageSync`; re-sync is
 * also limited by the `sync` rate limit.
 */
const routes: FastifyPluginAsyncTypebox<{ service: DataSourcesService; ingest: Config['ingest'] }> = async (app, { service, ingest }) => {
  app.post('/data-sources', {
    config: { permission: 'canManageSync' },
    // A JSON body carries base64 content: allow the upload limit plus encoding overhead.
    bodyLimit: Math.ceil(ingest.maxFileBytes * ingest.maxFiles * 1.4) + 64 * 1024,
    schema: {
      tags: ['data-sources'],
      summary: 'Create a data source from uploaded files (multipart/form-data) or documents in a JSON body; ingestion runs as a job',
      description:
        'Send either `multipart/form-data` (form fields `name` and `description`, optional, and one or more file parts; ' +
        'the parts are read and checked by the handler) or `application/json` (the schema below). Every file is checked ' +
        '(size, type by content, encryption, archive limits, parsable text) before anything is stored.',
      body: { content: { 'application/json': { schema: CreateJson } } } as never,
      response: { 201: Envelope(Type.Object({ dataSource: DataSourceSchema })), ...errorResponses, ...upload413 },
    },
  }, async (request, reply) => {
    const ws = request.workspace!;
    const userId = request.auth!.id;
    let view;
    if (request.isMultipart()) {
      const { files, fields } = await readMultipart(request, ingest, { name: { maxLength: 200 }, description: { maxLength: 2000 } }, 'data source');
      view = await service.create({ workspaceId: ws.id, userId, name: fields.name || null, description: fields.description || null, kind: 'upload', files });
    } else {
      const body = request.body as Static<typeof CreateJson> | undefined;
      if (!body || typeof body !== 'object') throw badRequest('a JSON body or a multipart upload is required', ['body: is required']);
      // No Content-Type at all: the JSON schema did not run (it is keyed by media type).
      if (!Array.isArray(body.documents)) throw badRequest('documents: is required', ['documents: is required']);
      view = await service.create({ workspaceId: ws.id, userId, name: body.name, description: body.description, kind: 'json', files: jsonFiles(body.documents) });
    }
    return reply.status(201).send(ok({ dataSource: view }, 'Data source created; ingestion queued'));
  });

  app.get('/data-sources', {
    config: { permission: 'canViewSources' },
    schema: {
      tags: ['data-sources'],
      summary: 'Data sources of the workspace (deleted ones are not listed)',
      querystring: Type.Object(
        {
          ...pageQuery(),
          status: Type.Optional(Type.Enum([...DATA_SOURCE_STATUSES])),
          sort: Type.Enum(Object.keys(SORT_COLUMNS).flatMap((k) => [k, `-${k}`]), { default: '-createdAt' }),
        },
        { additionalProperties: false },
      ),
      response: {
        200: Envelope(Type.Object({
          dataSources: Type.Array(DataSourceSchema),
          pagination: PaginationSchema,
        })),
        ...errorResponses,
      },
    },
  }, async (request) => ok(await service.list(request.workspace!.id, request.query)));

  app.get('/data-sources/:id', {
    config: { permission: 'canViewSources' },
    schema: {
      tags: ['data-sources'],
      summary: 'One data source: status, error, counts, files and their documents',
      params: Type.Object({ id: Id }),
      response: { 200: Envelope(Type.Object({ dataSource: DataSourceSchema })), ...errorResponses },
    },
  }, async (request) => ok({ dataSource: await service.get(request.workspace!.id, request.params.id) }));

  app.get('/data-sources/:id/files/:fileId', {
    config: { permission: 'canViewSources' },
    schema: {
      tags: ['data-sources'],
      summary: 'Download the original bytes of one file of a data source',
      params: Type.Object({ id: Id, fileId: Id }),
      response: { 200: { description: 'the file', content: { 'application/octet-stream': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } } }, ...errorResponses },
    },
  }, async (request, reply) => {
    const f = await service.file(request.workspace!.id, request.params.id, request.params.fileId);
    return reply
      .header('content-type', f.mimeType.startsWith('text/') || f.mimeType === 'application/json' ? `${f.mimeType}; charset=utf-8` : f.mimeType)
      .header('content-disposition', `attachment; filename="${f.filename.replace(/[^\w. -]+/g, '_')}"; filename*=UTF-8''${encodeURIComponent(f.filename)}`)
      .header('x-content-type-options', 'nosniff')
      .send(f.content);
  });

  app.post('/data-sources/:id/sync', {
    config: { permission: 'canManageSync', rateLimitScope: 'sync' },
    schema: {
      tags: ['data-sources'],
      summary: 'Re-sync: parse, chunk and embed the stored files again (retries a failed ingestion)',
      params: Type.Object({ id: Id }),
      response: { 200: Envelope(Type.Object({ dataSource: DataSourceSchema })), ...errorResponses },
    },
  }, async (request) => ok({ dataSource: await service.sync(request.workspace!.id, request.params.id, request.auth!.id) }, 'Sync started'));

  app.delete('/data-sources/:id', {
    config: { permission: 'canManageSync' },
    schema: {
      tags: ['data-sources'],
      summary: 'Delete the data source; its documents and chunks are soft-deleted and never retrieved again',
      params: Type.Object({ id: Id }),
      response: { 200: Envelope(Type.Object({ id: Type.String(), deletedDocuments: Type.Number(), deletedChunks: Type.Number() })), ...errorResponses },
    },
  }, async (request) => ok(await service.remove(request.workspace!.id, request.params.id), 'Data source deleted'));
};

export default routes;
