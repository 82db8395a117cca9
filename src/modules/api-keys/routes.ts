import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, okMessage } from '../../lib/envelope.js';
import { createApiKey, listApiKeys, revokeApiKey } from './schemas.js';
import type { ApiKeysService } from './service.js';

/** Organization API keys (docs/api-keys.md): org_admin only, no workspace context. */
const routes: FastifyPluginAsyncTypebox<{ service: ApiKeysService }> = async (app, { service }) => {
  app.post('/organizations/:id/api-keys', { schema: createApiKey }, async (request, reply) => {
    const created = await service.create(request.params.id, request.auth!.id, request.body);
    return reply.status(201).send(ok(created, 'API key created: copy it now, it is not shown again'));
  });

  app.get('/organizations/:id/api-keys', { schema: listApiKeys }, async (request) =>
    ok(await service.list(request.params.id, request.auth!.id, request.query)),
  );

  app.delete('/organizations/:id/api-keys/:keyId', { schema: revokeApiKey }, async (request) => {
    await service.revoke(request.params.id, request.auth!.id, request.params.keyId);
    return okMessage('API key revoked');
  });
};

export default routes;
