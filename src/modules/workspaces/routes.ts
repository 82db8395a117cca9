import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, okMessage } from '../../lib/envelope.js';
import type { WorkspacesService } from './service.js';
import { parseSort } from '../../domain/paging.js';
import { requestAccess, requestScope } from '../../plugins/workspace.js';
import {
  listWorkspaces,
  createWorkspace,
  getWorkspace,
  updateWorkspace,
  deleteWorkspace,
  addMember,
  updateMember,
  removeMember,
  leaveWorkspace,
  transferOwnership,
} from './schemas.js';

/** The workspace comes from `:id` (opaque id or workspaceId); access is checked by the workspace plugin. */
const inPath = { workspaceParam: 'id' } as const;

export interface WorkspaceRouteOptions {
  service: WorkspacesService;
}

const routes: FastifyPluginAsyncTypebox<WorkspaceRouteOptions> = async (app, { service }) => {
  app.get(
    '/workspaces',
    {
      schema: listWorkspaces,
    },
    async (request) => {
      const { page, limit, sort, ...filters } = request.query;
      return ok(await service.page(request.auth!.id, { page, limit, ...parseSort(sort), filters }));
    },
  );

  app.post(
    '/workspaces',
    {
      schema: createWorkspace,
    },
    async (request, reply) => {
      const workspace = await service.create(request.auth!.id, request.body);
      return reply.status(201).send(ok({ workspace }, 'Workspace created'));
    },
  );

  app.get(
    '/workspaces/:id',
    {
      config: { workspace: true, ...inPath },
      schema: getWorkspace,
    },
    async (request) => ok({ workspace: await service.detail(requestScope(request), requestAccess(request)) }),
  );

  app.patch(
    '/workspaces/:id',
    {
      config: { permission: 'canEditSettings', ...inPath },
      schema: updateWorkspace,
    },
    async (request) => ok({ workspace: await service.update(requestScope(request), request.body) }, 'Workspace updated'),
  );

  app.delete(
    '/workspaces/:id',
    {
      config: { permission: 'canDeleteWorkspace', ...inPath },
      schema: deleteWorkspace,
    },
    async (request) => {
      await service.remove(requestScope(request));
      return okMessage('Workspace deleted');
    },
  );

  app.post(
    '/workspaces/:id/members',
    {
      config: { permission: 'canInvite', ...inPath },
      schema: addMember,
    },
    async (request, reply) => {
      const member = await service.addMember(requestScope(request), requestAccess(request), request.body);
      return reply.status(201).send(ok({ member }, 'Member added'));
    },
  );

  app.patch(
    '/workspaces/:id/members/:userId',
    {
      config: { permission: 'canInvite', ...inPath },
      schema: updateMember,
    },
    async (request) => {
      const member = await service.updateMember(requestScope(request), requestAccess(request), request.params.userId, request.body);
      return ok({ member }, 'Member updated');
    },
  );

  app.delete(
    '/workspaces/:id/members/:userId',
    {
      config: { permission: 'canInvite', ...inPath },
      schema: removeMember,
    },
    async (request) => {
      await service.removeMember(requestScope(request), requestAccess(request), request.params.userId);
      return okMessage('Member removed');
    },
  );

  app.post(
    '/workspaces/:id/leave',
    {
      config: { workspace: true, ...inPath },
      schema: leaveWorkspace,
    },
    async (request) => {
      await service.leave(requestScope(request), requestAccess(request));
      return okMessage('You have left the workspace');
    },
  );

  app.post(
    '/workspaces/:id/transfer',
    {
      config: { permission: 'canDeleteWorkspace', ...inPath },
      schema: transferOwnership,
    },
    async (request) => {
      await service.transfer(requestScope(request), request.body.newOwnerId);
      return okMessage('Ownership transferred');
    },
  );
};

export default routes;
