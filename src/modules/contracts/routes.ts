import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, okMessage } from '../../lib/envelope.js';
import { requestScope } from '../../plugins/workspace.js';
import { createContract, deleteContract, endContract, listContracts, updateContract } from './schemas.js';
import type { ContractInput, ContractPatch, ContractsService } from './service.js';

/** The workspace comes from `:id` (opaque id or workspaceId); access is checked by the workspace plugin. */
const inPath = { workspaceParam: 'id' } as const;

/**
 * A vendor's contracts (docs/register-of-information.md): any member reads them; members who
 * manage the vendor's sources and drafts (canManageSync) record them, as register drafting does.
 */
const routes: FastifyPluginAsyncTypebox<{ service: ContractsService }> = async (app, { service }) => {
  app.get('/workspaces/:id/contracts', { config: { workspace: true, ...inPath }, schema: listContracts }, async (request) =>
    ok({ contracts: await service.list(requestScope(request)) }),
  );

  app.post('/workspaces/:id/contracts', { config: { permission: 'canManageSync', ...inPath }, schema: createContract }, async (request, reply) =>
    reply.status(201).send(ok(await service.create(requestScope(request), request.body as ContractInput), 'Contract added')),
  );

  app.patch('/workspaces/:id/contracts/:contractId', { config: { permission: 'canManageSync', ...inPath }, schema: updateContract }, async (request) =>
    ok(await service.update(requestScope(request), request.params.contractId, request.body as ContractPatch), 'Contract saved'),
  );

  app.post('/workspaces/:id/contracts/:contractId/end', { config: { permission: 'canManageSync', ...inPath }, schema: endContract }, async (request) =>
    ok(await service.end(requestScope(request), request.params.contractId, request.body), 'Contract ended'),
  );

  app.delete('/workspaces/:id/contracts/:contractId', { config: { permission: 'canManageSync', ...inPath }, schema: deleteContract }, async (request) => {
    await service.remove(requestScope(request), request.params.contractId);
    return okMessage('Contract deleted');
  });
};

export default routes;
