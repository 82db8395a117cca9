import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { WORKSPACE_ROLES } from '../../db/schema/workspaces.js';
import { Envelope, MessageEnvelope, errorResponses, ok, okMessage } from '../../lib/envelope.js';
import { PERMISSION_FLAGS } from './permissions.js';
import { SLUG_PATTERN, SYNC_STATUSES, type WorkspacesService } from './service.js';
import { VendorProfilePatchSchema, VendorProfileSchema } from '../../domain/vendorProfile.js';
import { FieldSourcesSchema } from '../../domain/profileDrafts.js';
import { pageQuery, PaginationSchema, parseSort, sortQuery } from '../../domain/paging.js';
import { requestAccess, requestScope } from '../../plugins/workspace.js';
import { WORKSPACE_SORT_COLUMNS, type WorkspaceSortField } from './repository.js';

const WORKSPACE_SORTS = Object.keys(WORKSPACE_SORT_COLUMNS) as WorkspaceSortField[];
const flag = Type.Boolean();
export const PermissionsSchema = Type.Object(Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, flag])) as Record<(typeof PERMISSION_FLAGS)[number], typeof flag>);
const PermissionsPatch = Type.Object(
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, Type.Optional(flag)])) as Record<(typeof PERMISSION_FLAGS)[number], ReturnType<typeof Type.Optional<typeof flag>>>,
  { additionalProperties: false },
);
const Role = Type.Enum([...WORKSPACE_ROLES]);
export const SyncScheduleSchema = Type.Object(
  { enabled: Type.Boolean(), intervalHours: Type.Integer({ minimum: 1, maximum: 720 }) },
  { additionalProperties: false },
);
const WorkspaceName = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const UserRef = Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() });
const Member = Type.Object({
  user: UserRef,
  role: Role,
  permissions: PermissionsSchema,
  status: Type.String(),
  membership: Type.Optional(Type.Enum(['explicit', 'organization'])),
  joinedAt: Type.String(),
});
const Stats = Type.Object({ totalPages: Type.Number(), totalDatabases: Type.Number(), totalDocuments: Type.Number() });
const WorkspaceBase = {
  id: Type.String(),
  workspaceName: Type.String(),
  workspaceId: Type.String(),
  organizationId: Type.String(),
  syncStatus: Type.Enum([...SYNC_STATUSES]),
  syncSchedule: SyncScheduleSchema,
  vendorProfile: VendorProfileSchema,
  vendorProfileSources: FieldSourcesSchema,
  createdAt: Type.String(),
  updatedAt: Type.String(),
};
const WorkspaceListItem = Type.Object({
  id: Type.String(),
  workspaceName: Type.String(),
  workspaceId: Type.String(),
  syncStatus: Type.Enum([...SYNC_STATUSES]),
  myRole: Role,
  permissions: PermissionsSchema,
  memberCount: Type.Number(),
  syncSchedule: SyncScheduleSchema,
  documentCount: Type.Integer({ description: 'live indexed documents (data sources and MCP sources)' }),
  lastSyncedAt: Type.Union([Type.String(), Type.Null()], { description: 'newest successful ingestion or MCP sync; null if none' }),
  createdAt: Type.String(),
});
const WorkspaceCreated = Type.Object({ ...WorkspaceBase, myRole: Role, permissions: PermissionsSchema });
const WorkspaceDetail = Type.Object({
  ...WorkspaceBase,
  myRole: Role,
  permissions: PermissionsSchema,
  memberCount: Type.Number(),
  owner: UserRef,
  members: Type.Array(Member),
  stats: Stats,
});
const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });
const MemberParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }), userId: Type.String({ minLength: 1, maxLength: 100 }) });

/** The workspace comes from `:id` (opaque id or workspaceId); access is checked by the workspace plugin. */
const inPath = { workspaceParam: 'id' } as const;

export interface WorkspaceRouteOptions {
  service: WorkspacesService;
}

const routes: FastifyPluginAsyncTypebox<WorkspaceRouteOptions> = async (app, { service }) => {
  app.get('/workspaces', {
    schema: {
      tags: ['workspaces'],
      summary: 'The vendor workspaces the caller can access, with role, permissions and member count, paged',
      querystring: Type.Object({ ...pageQuery(), sort: sortQuery(WORKSPACE_SORTS, 'createdAt') }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ workspaces: Type.Array(WorkspaceListItem), pagination: PaginationSchema })), ...errorResponses },
    },
  }, async (request) => {
    const { page, limit, sort } = request.query;
    return ok(await service.page(request.auth!.id, { page, limit, ...parseSort(sort) }));
  });

  app.post('/workspaces', {
    schema: {
      tags: ['workspaces'],
      summary: 'Create a vendor workspace in the caller\'s organization (the caller becomes its owner)',
      body: Type.Object({
        workspaceName: WorkspaceName,
        workspaceId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: SLUG_PATTERN })),
        syncSchedule: Type.Optional(SyncScheduleSchema),
        vendorProfile: Type.Optional(VendorProfileSchema),
      }, { additionalProperties: false }),
      response: { 201: Envelope(Type.Object({ workspace: WorkspaceCreated })), ...errorResponses },
    },
  }, async (request, reply) => {
    const workspace = await service.create(request.auth!.id, request.body);
    return reply.status(201).send(ok({ workspace }, 'Workspace created'));
  });

  app.get('/workspaces/:id', {
    config: { workspace: true, ...inPath },
    schema: {
      tags: ['workspaces'],
      summary: 'Workspace details: owner, members, stats, vendor profile',
      params: IdParams,
      response: { 200: Envelope(Type.Object({ workspace: WorkspaceDetail })), ...errorResponses },
    },
  }, async (request) => ok({ workspace: await service.detail(requestScope(request), requestAccess(request)) }));

  app.patch('/workspaces/:id', {
    config: { permission: 'canEditSettings', ...inPath },
    schema: {
      tags: ['workspaces'],
      summary: 'Update name, sync schedule and vendor profile (owner only)',
      params: IdParams,
      body: Type.Object({
        workspaceName: Type.Optional(WorkspaceName),
        syncSchedule: Type.Optional(SyncScheduleSchema),
        vendorProfile: Type.Optional(VendorProfilePatchSchema),
      }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Envelope(Type.Object({ workspace: Type.Object(WorkspaceBase) })), ...errorResponses },
    },
  }, async (request) => ok({ workspace: await service.update(requestScope(request), request.body) }, 'Workspace updated'));

  app.delete('/workspaces/:id', {
    config: { permission: 'canDeleteWorkspace', ...inPath },
    schema: {
      tags: ['workspaces'],
      summary: 'Delete the workspace and all its data (owner only)',
      params: IdParams,
      response: { 200: MessageEnvelope, ...errorResponses },
    },
  }, async (request) => {
    await service.remove(requestScope(request));
    return okMessage('Workspace deleted');
  });

  app.post('/workspaces/:id/members', {
    config: { permission: 'canInvite', ...inPath },
    schema: {
      tags: ['workspaces'],
      summary: 'Add a member of the organization to the workspace with a role (default member) and optional permission flags',
      params: IdParams,
      body: Type.Object({
        email: Type.String({ format: 'email', maxLength: 254 }),
        role: Type.Optional(Role),
        permissions: Type.Optional(PermissionsPatch),
      }, { additionalProperties: false }),
      response: { 201: Envelope(Type.Object({ member: Member })), ...errorResponses },
    },
  }, async (request, reply) => {
    const member = await service.addMember(requestScope(request), requestAccess(request), request.body);
    return reply.status(201).send(ok({ member }, 'Member added'));
  });

  app.patch('/workspaces/:id/members/:userId', {
    config: { permission: 'canInvite', ...inPath },
    schema: {
      tags: ['workspaces'],
      summary: 'Change a member\'s role and/or permission flags',
      params: MemberParams,
      body: Type.Object({ role: Type.Optional(Role), permissions: Type.Optional(PermissionsPatch) }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Envelope(Type.Object({ member: Member })), ...errorResponses },
    },
  }, async (request) => {
    const member = await service.updateMember(requestScope(request), requestAccess(request), request.params.userId, request.body);
    return ok({ member }, 'Member updated');
  });

  app.delete('/workspaces/:id/members/:userId', {
    config: { permission: 'canInvite', ...inPath },
    schema: {
      tags: ['workspaces'],
      summary: 'Remove a member from the workspace',
      params: MemberParams,
      response: { 200: MessageEnvelope, ...errorResponses },
    },
  }, async (request) => {
    await service.removeMember(requestScope(request), requestAccess(request), request.params.userId);
    return okMessage('Member removed');
  });

  app.post('/workspaces/:id/leave', {
    config: { workspace: true, ...inPath },
    schema: {
      tags: ['workspaces'],
      summary: 'Leave the workspace (not for the owner)',
      params: IdParams,
      response: { 200: MessageEnvelope, ...errorResponses },
    },
  }, async (request) => {
    await service.leave(requestScope(request), requestAccess(request));
    return okMessage('You have left the workspace');
  });

  app.post('/workspaces/:id/transfer', {
    config: { permission: 'canDeleteWorkspace', ...inPath },
    schema: {
      tags: ['workspaces'],
      summary: 'Transfer ownership to another member (owner only); the previous owner becomes admin',
      params: IdParams,
      body: Type.Object({ newOwnerId: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
      response: { 200: MessageEnvelope, ...errorResponses },
    },
  }, async (request) => {
    await service.transfer(requestScope(request), request.body.newOwnerId);
    return okMessage('Ownership transferred');
  });
};

export default routes;
