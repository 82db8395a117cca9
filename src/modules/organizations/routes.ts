import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ORG_ROLES } from '../../db/schema/organizations.js';
import { Envelope, MessageEnvelope, errorResponses, ok, okMessage } from '../../lib/envelope.js';
import { CountrySchema, LeiSchema } from '../../domain/vendorProfile.js';
import type { OrganizationsService } from './service.js';
import { pageQuery, PaginationSchema, parseSort, sortQuery } from '../../domain/paging.js';
import { INVITATION_SORT_COLUMNS, MEMBER_SORT_COLUMNS, type InvitationSortField, type MemberSortField } from './repository.js';

const OrgRole = Type.Enum([...ORG_ROLES]);
const MEMBER_SORTS = Object.keys(MEMBER_SORT_COLUMNS) as MemberSortField[];
const INVITATION_SORTS = Object.keys(INVITATION_SORT_COLUMNS) as InvitationSortField[];
const OrgName = Type.String({ minLength: 2, maxLength: 200, pattern: '\\S' });
const Country = CountrySchema;
const Organization = Type.Object({
  id: Type.String(),
  name: Type.String(),
  lei: Type.Union([Type.String(), Type.Null()]),
  country: Type.Union([Type.String(), Type.Null()]),
  myRole: OrgRole,
  memberCount: Type.Number(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
const OrgMember = Type.Object({
  user: Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() }),
  role: OrgRole,
  status: Type.String(),
  joinedAt: Type.String(),
});
const Invitation = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: OrgRole,
  status: Type.String(),
  expiresAt: Type.String(),
  createdAt: Type.String(),
});
const Id = Type.String({ minLength: 1, maxLength: 100 });

export interface OrganizationRouteOptions {
  service: OrganizationsService;
}

/** Organizations: authentication required, no workspace context; access rules in the service. */
const routes: FastifyPluginAsyncTypebox<OrganizationRouteOptions> = async (app, { service }) => {
  app.post('/organizations', {
    schema: {
      tags: ['organizations'],
      summary: 'Onboarding: create the caller\'s organization (the caller becomes org_admin)',
      body: Type.Object({ name: OrgName, lei: Type.Optional(LeiSchema), country: Type.Optional(Country) }, { additionalProperties: false }),
      response: { 201: Envelope(Type.Object({ organization: Organization })), ...errorResponses },
    },
  }, async (request, reply) => {
    const organization = await service.create(request.auth!.id, request.body);
    return reply.status(201).send(ok({ organization }, 'Organization created'));
  });

  app.get('/organizations/me', {
    schema: {
      tags: ['organizations'],
      summary: 'The caller\'s organization (403 ONBOARDING_REQUIRED before onboarding)',
      response: { 200: Envelope(Type.Object({ organization: Organization })), ...errorResponses },
    },
  }, async (request) => ok({ organization: await service.mine(request.auth!.id) }));

  app.post('/organizations/invitations/accept', {
    schema: {
      tags: ['organizations'],
      summary: 'Accept an invitation with the token from the e-mail (signed-in user without organization)',
      body: Type.Object({ token: Type.String({ minLength: 10, maxLength: 200 }) }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ organization: Organization })), ...errorResponses },
    },
  }, async (request) => {
    const organization = await service.acceptInvitation({ id: request.auth!.id, email: request.auth!.email }, request.body.token);
    return ok({ organization }, 'Invitation accepted');
  });

  app.patch('/organizations/:id', {
    schema: {
      tags: ['organizations'],
      summary: 'Update the organization (org_admin)',
      params: Type.Object({ id: Id }),
      body: Type.Object({
        name: Type.Optional(OrgName),
        lei: Type.Optional(Type.Union([LeiSchema, Type.Null()])),
        country: Type.Optional(Type.Union([Country, Type.Null()])),
      }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Envelope(Type.Object({ organization: Organization })), ...errorResponses },
    },
  }, async (request) => ok({ organization: await service.update(request.params.id, request.auth!.id, request.body) }, 'Organization updated'));

  app.post('/organizations/:id/invite', {
    schema: {
      tags: ['organizations'],
      summary: 'Invite a team member by e-mail (org_admin); default role analyst',
      params: Type.Object({ id: Id }),
      body: Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }), role: Type.Optional(OrgRole) }, { additionalProperties: false }),
      response: { 201: Envelope(Type.Object({ invitation: Invitation })), ...errorResponses },
    },
  }, async (request, reply) => {
    const invitation = await service.invite(request.params.id, request.auth!.id, request.body);
    return reply.status(201).send(ok({ invitation }, `Invitation sent to ${invitation.email}`));
  });

  app.get('/organizations/:id/invitations', {
    schema: {
      tags: ['organizations'],
      summary: 'Pending invitations (org_admin), paged',
      params: Type.Object({ id: Id }),
      querystring: Type.Object({ ...pageQuery(), sort: sortQuery(INVITATION_SORTS, 'createdAt') }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ invitations: Type.Array(Invitation), pagination: PaginationSchema })), ...errorResponses },
    },
  }, async (request) => {
    const { page, limit, sort } = request.query;
    return ok(await service.invitations(request.params.id, request.auth!.id, { page, limit, ...parseSort(sort) }));
  });

  app.delete('/organizations/:id/invitations/:invitationId', {
    schema: {
      tags: ['organizations'],
      summary: 'Revoke a pending invitation (org_admin)',
      params: Type.Object({ id: Id, invitationId: Id }),
      response: { 200: MessageEnvelope, ...errorResponses },
    },
  }, async (request) => {
    await service.revokeInvitation(request.params.id, request.auth!.id, request.params.invitationId);
    return okMessage('Invitation revoked');
  });

  app.get('/organizations/:id/members', {
    schema: {
      tags: ['organizations'],
      summary: 'Members of the organization (any member), paged',
      params: Type.Object({ id: Id }),
      querystring: Type.Object({ ...pageQuery(), sort: sortQuery(MEMBER_SORTS, 'joinedAt') }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ members: Type.Array(OrgMember), pagination: PaginationSchema })), ...errorResponses },
    },
  }, async (request) => {
    const { page, limit, sort } = request.query;
    return ok(await service.members(request.params.id, request.auth!.id, { page, limit, ...parseSort(sort) }));
  });

  app.patch('/organizations/:id/members/:memberId', {
    schema: {
      tags: ['organizations'],
      summary: 'Change a member\'s organization role (org_admin); memberId is the user id',
      params: Type.Object({ id: Id, memberId: Id }),
      body: Type.Object({ role: OrgRole }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ member: OrgMember })), ...errorResponses },
    },
  }, async (request) => {
    const member = await service.changeRole(request.params.id, request.auth!.id, request.params.memberId, request.body.role);
    return ok({ member }, 'Member role updated');
  });

  app.delete('/organizations/:id/members/:memberId', {
    schema: {
      tags: ['organizations'],
      summary: 'Revoke a membership (org_admin, or the member themself)',
      params: Type.Object({ id: Id, memberId: Id }),
      response: { 200: MessageEnvelope, ...errorResponses },
    },
  }, async (request) => {
    await service.removeMember(request.params.id, request.auth!.id, request.params.memberId);
    return okMessage('Membership revoked');
  });
};

export default routes;
