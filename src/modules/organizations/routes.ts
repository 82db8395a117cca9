import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, okMessage } from '../../lib/envelope.js';
import type { OrganizationsService } from './service.js';
import { parseSort } from '../../domain/paging.js';
import {
  createOrganization,
  getMyOrganization,
  acceptInvitation,
  updateOrganization,
  inviteMember,
  listInvitations,
  revokeInvitation,
  listMembers,
  updateMember,
  removeMember,
} from './schemas.js';

export interface OrganizationRouteOptions {
  service: OrganizationsService;
}

/** Organizations: authentication required, no workspace context; access rules in the service. */
const routes: FastifyPluginAsyncTypebox<OrganizationRouteOptions> = async (app, { service }) => {
  app.post(
    '/organizations',
    {
      schema: createOrganization,
    },
    async (request, reply) => {
      const organization = await service.create(request.auth!.id, request.body);
      return reply.status(201).send(ok({ organization }, 'Organization created'));
    },
  );

  app.get(
    '/organizations/me',
    {
      schema: getMyOrganization,
    },
    async (request) => ok({ organization: await service.mine(request.auth!.id) }),
  );

  app.post(
    '/organizations/invitations/accept',
    {
      schema: acceptInvitation,
    },
    async (request) => {
      const organization = await service.acceptInvitation({ id: request.auth!.id, email: request.auth!.email }, request.body.token);
      return ok({ organization }, 'Invitation accepted');
    },
  );

  app.patch(
    '/organizations/:id',
    {
      schema: updateOrganization,
    },
    async (request) => ok({ organization: await service.update(request.params.id, request.auth!.id, request.body) }, 'Organization updated'),
  );

  app.post(
    '/organizations/:id/invite',
    {
      schema: inviteMember,
    },
    async (request, reply) => {
      const invitation = await service.invite(request.params.id, request.auth!.id, request.body);
      return reply.status(201).send(ok({ invitation }, `Invitation sent to ${invitation.email}`));
    },
  );

  app.get(
    '/organizations/:id/invitations',
    {
      schema: listInvitations,
    },
    async (request) => {
      const { page, limit, sort } = request.query;
      return ok(await service.invitations(request.params.id, request.auth!.id, { page, limit, ...parseSort(sort) }));
    },
  );

  app.delete(
    '/organizations/:id/invitations/:invitationId',
    {
      schema: revokeInvitation,
    },
    async (request) => {
      await service.revokeInvitation(request.params.id, request.auth!.id, request.params.invitationId);
      return okMessage('Invitation revoked');
    },
  );

  app.get(
    '/organizations/:id/members',
    {
      schema: listMembers,
    },
    async (request) => {
      const { page, limit, sort } = request.query;
      return ok(await service.members(request.params.id, request.auth!.id, { page, limit, ...parseSort(sort) }));
    },
  );

  app.patch(
    '/organizations/:id/members/:memberId',
    {
      schema: updateMember,
    },
    async (request) => {
      const member = await service.changeRole(request.params.id, request.auth!.id, request.params.memberId, request.body.role);
      return ok({ member }, 'Member role updated');
    },
  );

  app.delete(
    '/organizations/:id/members/:memberId',
    {
      schema: removeMember,
    },
    async (request) => {
      await service.removeMember(request.params.id, request.auth!.id, request.params.memberId);
      return okMessage('Membership revoked');
    },
  );
};

export default routes;
