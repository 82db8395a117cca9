import { Type } from 'typebox';
import { ORG_ROLES } from '../../db/schema/organizations.js';
import { Envelope, MessageEnvelope, errorResponses } from '../../lib/envelope.js';
import { CountrySchema, LeiSchema } from '../../domain/vendorProfile.js';
import { pageQuery, PaginationSchema, sortQuery } from '../../domain/paging.js';
import { INVITATION_SORT_COLUMNS, MEMBER_SORT_COLUMNS, type InvitationSortField, type MemberSortField } from './repository.js';

/** Request and response schemas of organizations, invitations and members: one named schema per route (routes.ts). */

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

export const createOrganization = {
  operationId: 'createOrganization',
  tags: ['organizations'],
  summary: "Onboarding: create the caller's organization (the caller becomes org_admin)",
  body: Type.Object({ name: OrgName, lei: Type.Optional(LeiSchema), country: Type.Optional(Country) }, { additionalProperties: false }),
  response: { 201: Envelope(Type.Object({ organization: Organization })), ...errorResponses },
};

export const getMyOrganization = {
  operationId: 'getMyOrganization',
  tags: ['organizations'],
  summary: "The caller's organization (403 ONBOARDING_REQUIRED before onboarding)",
  response: { 200: Envelope(Type.Object({ organization: Organization })), ...errorResponses },
};

export const acceptInvitation = {
  operationId: 'acceptInvitation',
  tags: ['organizations'],
  summary: 'Accept an invitation with the token from the e-mail (signed-in user without organization)',
  body: Type.Object({ token: Type.String({ minLength: 10, maxLength: 200 }) }, { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ organization: Organization })), ...errorResponses },
};

export const updateOrganization = {
  operationId: 'updateOrganization',
  tags: ['organizations'],
  summary: 'Update the organization (org_admin)',
  params: Type.Object({ id: Id }),
  body: Type.Object(
    {
      name: Type.Optional(OrgName),
      lei: Type.Optional(Type.Union([LeiSchema, Type.Null()])),
      country: Type.Optional(Type.Union([Country, Type.Null()])),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  response: { 200: Envelope(Type.Object({ organization: Organization })), ...errorResponses },
};

export const inviteMember = {
  operationId: 'inviteMember',
  tags: ['organizations'],
  summary: 'Invite a team member by e-mail (org_admin); default role analyst',
  params: Type.Object({ id: Id }),
  body: Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }), role: Type.Optional(OrgRole) }, { additionalProperties: false }),
  response: { 201: Envelope(Type.Object({ invitation: Invitation })), ...errorResponses },
};

export const listInvitations = {
  operationId: 'listInvitations',
  tags: ['organizations'],
  summary: 'Pending invitations (org_admin), paged',
  params: Type.Object({ id: Id }),
  querystring: Type.Object({ ...pageQuery(), sort: sortQuery(INVITATION_SORTS, 'createdAt') }, { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ invitations: Type.Array(Invitation), pagination: PaginationSchema })), ...errorResponses },
};

export const revokeInvitation = {
  operationId: 'revokeInvitation',
  tags: ['organizations'],
  summary: 'Revoke a pending invitation (org_admin)',
  params: Type.Object({ id: Id, invitationId: Id }),
  response: { 200: MessageEnvelope, ...errorResponses },
};

export const listMembers = {
  operationId: 'listOrganizationMembers',
  tags: ['organizations'],
  summary: 'Members of the organization (any member), paged',
  params: Type.Object({ id: Id }),
  querystring: Type.Object({ ...pageQuery(), sort: sortQuery(MEMBER_SORTS, 'joinedAt') }, { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ members: Type.Array(OrgMember), pagination: PaginationSchema })), ...errorResponses },
};

export const updateMember = {
  operationId: 'updateOrganizationMember',
  tags: ['organizations'],
  summary: "Change a member's organization role (org_admin); memberId is the user id",
  params: Type.Object({ id: Id, memberId: Id }),
  body: Type.Object({ role: OrgRole }, { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ member: OrgMember })), ...errorResponses },
};

export const removeMember = {
  operationId: 'removeOrganizationMember',
  tags: ['organizations'],
  summary: 'Revoke a membership (org_admin, or the member themself)',
  params: Type.Object({ id: Id, memberId: Id }),
  response: { 200: MessageEnvelope, ...errorResponses },
};
