import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { Config } from '../../config.js';
import type { DocumentFormat } from '../../db/schema/documents.js';
import { FORMAT_MIME } from '../../ingest/sniff.js';
import { ok } from '../../lib/envelope.js';
import { badRequest } from '../../lib/errors.js';
import { readMultipart } from '../../plugins/multipart.js';
import { requestScope } from '../../plugins/workspace.js';
import {
  CreateDataSource,
  DeleteDataSource,
  GetDataSource,
  GetDataSourceFile,
  GetDocumentText,
  GetUploadLimits,
  ListDataSources,
  SyncDataSource,
  type CreateJson,
} from './schemas.js';
import type { DataSourcesService, IncomingFile } from './service.js';

const EXTENSION: Record<DocumentFormat, string> = { pdf: 'pdf', docx: 'docx', xlsx: 'xlsx', html: 'html', markdown: 'md', text: 'txt', json: 'json' };

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
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 === 1)
        throw badRequest(`${field}.contentBase64 is not valid base64`, [`${field}.contentBase64: must be base64`]);
      content = Buffer.from(b64, 'base64');
    }
    const format = d.format;
    const filename =
      d.filename ??
      `${(d.title ?? `document-${i + 1}`).replace(/[^\w.-]+/g, '-').slice(0, 100)}.${format ? EXTENSION[format] : d.content !== undefined ? 'txt' : 'bin'}`;
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

/** The data source of a request: multipart files or JSON documents. */
async function incoming(request: Parameters<typeof readMultipart>[0], ingest: Config['ingest']) {
  if (request.isMultipart()) {
    const { files, fields } = await readMultipart(request, ingest, { name: { maxLength: 200 }, description: { maxLength: 2000 } }, 'data source');
    return { name: fields.name || null, description: fields.description || null, kind: 'upload' as const, files };
  }
  const body = request.body as Static<typeof CreateJson> | undefined;
  if (!body || typeof body !== 'object') throw badRequest('a JSON body or a multipart upload is required', ['body: is required']);
  // No Content-Type at all: the JSON schema did not run (it is keyed by media type).
  if (!Array.isArray(body.documents)) throw badRequest('documents: is required', ['documents: is required']);
  return { name: body.name, description: body.description, kind: 'json' as const, files: jsonFiles(body.documents) };
}

/**
 * The /data-sources group (docs/data-sources.md). Listing and reading need
 * `canViewSources`; creating, re-syncing and deleting need `canManageSync`; re-sync is
 * also limited by the `sync` rate limit.
 */
const routes: FastifyPluginAsyncTypebox<{ service: DataSourcesService; ingest: Config['ingest'] }> = async (app, { service, ingest }) => {
  // A JSON body carries base64 content: allow the upload limit plus encoding overhead.
  const bodyLimit = Math.ceil(ingest.maxFileBytes * ingest.maxFiles * 1.4) + 64 * 1024;
  app.post('/data-sources', { config: { permission: 'canManageSync' }, bodyLimit, schema: CreateDataSource }, async (request, reply) => {
    const view = await service.create(requestScope(request), await incoming(request, ingest));
    return reply.status(201).send(ok({ dataSource: view }, 'Data source created; ingestion queued'));
  });

  app.get('/data-sources', { config: { permission: 'canViewSources' }, schema: ListDataSources }, async (request) =>
    ok(await service.list(requestScope(request), request.query)),
  );

  // Not workspace-scoped: the limits are the service's (the dashboard checks a file before sending it).
  app.get('/data-sources/limits', { schema: GetUploadLimits }, async () => ok({ limits: service.uploadLimits() }));

  app.get('/documents/:id', { config: { permission: 'canViewSources' }, schema: GetDocumentText }, async (request) =>
    ok({ document: await service.documentText(requestScope(request), request.params.id, request.query.chunk) }),
  );

  app.get('/data-sources/:id', { config: { permission: 'canViewSources' }, schema: GetDataSource }, async (request) =>
    ok({ dataSource: await service.get(requestScope(request), request.params.id) }),
  );

  app.get('/data-sources/:id/files/:fileId', { config: { permission: 'canViewSources' }, schema: GetDataSourceFile }, async (request, reply) => {
    const f = await service.file(requestScope(request), request.params.id, request.params.fileId);
    return reply
      .header('content-type', f.mimeType.startsWith('text/') || f.mimeType === 'application/json' ? `${f.mimeType}; charset=utf-8` : f.mimeType)
      .header('content-disposition', `attachment; filename="${f.filename.replace(/[^\w. -]+/g, '_')}"; filename*=UTF-8''${encodeURIComponent(f.filename)}`)
      .header('x-content-type-options', 'nosniff')
      .send(f.content);
  });

  app.post('/data-sources/:id/sync', { config: { permission: 'canManageSync', rateLimitScope: 'sync' }, schema: SyncDataSource }, async (request) => {
    const scope = requestScope(request);
    return ok({ dataSource: await service.sync(scope, request.params.id, scope.userId) }, 'Sync started');
  });

  app.delete('/data-sources/:id', { config: { permission: 'canManageSync' }, schema: DeleteDataSource }, async (request) =>
    ok(await service.remove(requestScope(request), request.params.id), 'Data source deleted'),
  );
};

export default routes;
