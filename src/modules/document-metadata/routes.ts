import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../lib/envelope.js';
import { requestScope } from '../../plugins/workspace.js';
import { ListDocumentMetadata, UpdateDocumentMetadata } from './schemas.js';
import type { DocumentMetadataService } from './service.js';

/** Document metadata (docs/inventory.md, "Document metadata"). */
const routes: FastifyPluginAsyncTypebox<{ service: DocumentMetadataService }> = async (app, { service }) => {
  app.get('/document-metadata', { config: { permission: 'canViewSources' }, schema: ListDocumentMetadata }, async (request) =>
    ok(await service.list(requestScope(request), request.query)),
  );
  app.patch('/documents/:id/metadata', { config: { permission: 'canManageSync' }, schema: UpdateDocumentMetadata }, async (request) =>
    ok({ document: await service.update(requestScope(request), request.params.id, request.body) }, 'Document metadata saved'),
  );
};

export default routes;
