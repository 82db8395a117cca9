import { Type } from 'typebox';
import { WORKSPACE_ROLES } from '../../db/schema/workspaces.js';
import { Envelope, MessageEnvelope, errorResponses } from '../../lib/envelope.js';
import { PERMISSION_FLAGS } from './permissions.js';
import { SYNC_STATUSES } from './providers.js';
import { SLUG_PATTERN } from './service.js';
import { CRITICALITY_TIERS, VendorProfilePatchSchema, VendorProfileSchema } from '../../domain/vendorProfile.js';
import { LIFECYCLE_STATUSES } from '../../domain/inventory.js';
import { RISK_RATINGS } from '../../db/schema/assessments.js';
import { FieldSourcesSchema } from '../../domain/profileDrafts.js';
import { pageQuery, PaginationSchema, sortQuery } from '../../domain/paging.js';
import { WORKSPACE_SORT_COLUMNS, type WorkspaceSortField } from './repository.js';

/** Request and response schemas of vendor workspaces and their members: one named schema per route (routes.ts). */

const WORKSPACE_SORTS = Object.keys(WORKSPACE_SORT_COLUMNS) as WorkspaceSortField[];
const flag = Type.Boolean();
export const PermissionsSchema = Type.Object(
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, flag])) as Record<(typeof PERMISSION_FLAGS)[number], typeof flag>,
);
const PermissionsPatch = Type.Object(
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, Type.Optional(flag)])) as Record<
    (typeof PERMISSION_FLAGS)[number],
    ReturnType<typeof Type.Optional<typeof flag>>
  >,
  { additionalProperties: false },
);
const Role = Type.Enum([...WORKSPACE_ROLES]);
const Lifecycle = Type.Enum([...LIFECYCLE_STATUSES], { description: 'onboarding, active, exiting or exited' });
const NullableString = Type.Union([Type.String(), Type.Null()]);
const DateText = Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
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
  vendorOwnerId: Type.Union([Type.String(), Type.Null()], { description: 'The person accountable for the vendor relationship (docs/inventory.md)' }),
  lifecycle: Lifecycle,
  reviewCycleMonths: Type.Integer({ description: "Months between reviews, from the vendor's tier (docs/inventory.md)" }),
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
  vendorOwner: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
  lifecycle: Lifecycle,
  criticalityTier: Type.Union([Type.Enum([...CRITICALITY_TIERS]), Type.Null()]),
  supportsCriticalFunction: Type.Union([Type.Boolean(), Type.Null()]),
  exitPlan: Type.Boolean({ description: 'whether the profile records an exit plan' }),
  riskRating: Type.Union([Type.Enum([...RISK_RATINGS]), Type.Null()], { description: 'of the latest completed assessment' }),
  latestAssessment: Type.Union([
    Type.Object({
      id: Type.String(),
      score: Type.Union([Type.Number(), Type.Null()]),
      riskRating: Type.Union([Type.Enum([...RISK_RATINGS]), Type.Null()]),
      completedAt: NullableString,
      signedOffAt: NullableString,
    }),
    Type.Null(),
  ]),
  lastSignedOffAt: Type.Union([Type.String(), Type.Null()], { description: 'newest sign-off of any assessment' }),
  contractEnd: Type.Union([DateText, Type.Null()], { description: 'latest end date of the contracts' }),
  nextReviewDate: Type.Union([DateText, Type.Null()]),
  reviewCycleMonths: Type.Integer(),
  outstandingQuestionnaires: Type.Integer({ description: 'sent and not complete' }),
  overdueQuestionnaires: Type.Integer({ description: 'outstanding and past their due date' }),
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

export const listWorkspaces = {
  operationId: 'listWorkspaces',
  tags: ['workspaces'],
  summary: 'The vendor workspaces the caller can access, with role, permissions and member count, paged',
  description:
    'The vendor inventory (docs/inventory.md): search by name, filters combined with AND (a list filter takes the parameter repeated: `tier=critical&tier=high`), a sort per column, paged in SQL.',
  querystring: Type.Object(
    {
      ...pageQuery(),
      sort: sortQuery(WORKSPACE_SORTS, 'createdAt'),
      q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Part of the vendor name, any case' })),
      tier: Type.Optional(Type.Array(Type.Enum([...CRITICALITY_TIERS]), { maxItems: 4, description: 'Criticality tiers' })),
      risk: Type.Optional(Type.Array(Type.Enum([...RISK_RATINGS]), { maxItems: 4, description: 'Risk rating of the latest completed assessment' })),
      lifecycle: Type.Optional(Type.Array(Lifecycle, { maxItems: 4 })),
      vendorOwnerId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "The vendor owner's user id" })),
      dueWithinDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650, description: 'Next review on or before today + N days, overdue ones included' })),
      overdue: Type.Optional(Type.Boolean({ description: 'true: next review before today; false: not overdue' })),
      contractEndWithinDays: Type.Optional(Type.Integer({ minimum: 0, maximum: 3650, description: 'Contract end between today and today + N days' })),
      exitPlan: Type.Optional(Type.Enum(['missing'], { description: 'missing: no exit plan recorded' })),
      signedOff: Type.Optional(Type.Enum(['missing'], { description: "missing: no assessment signed off within the vendor's review cycle" })),
      questionnaires: Type.Optional(Type.Enum(['outstanding', 'overdue'], { description: 'a questionnaire sent and not complete; one past its due date' })),
      documents: Type.Optional(Type.Enum(['expired'], { description: 'expired: a document past its expiry date' })),
    },
    { additionalProperties: false },
  ),
  response: { 200: Envelope(Type.Object({ workspaces: Type.Array(WorkspaceListItem), pagination: PaginationSchema })), ...errorResponses },
};

export const createWorkspace = {
  operationId: 'createWorkspace',
  tags: ['workspaces'],
  summary: "Create a vendor workspace in the caller's organization (the caller becomes its owner)",
  body: Type.Object(
    {
      workspaceName: WorkspaceName,
      workspaceId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: SLUG_PATTERN })),
      syncSchedule: Type.Optional(SyncScheduleSchema),
      vendorProfile: Type.Optional(VendorProfileSchema),
      lifecycle: Type.Optional(Lifecycle),
    },
    { additionalProperties: false },
  ),
  response: { 201: Envelope(Type.Object({ workspace: WorkspaceCreated })), ...errorResponses },
};

export const getWorkspace = {
  operationId: 'getWorkspace',
  tags: ['workspaces'],
  summary: 'Workspace details: owner, members, stats, vendor profile',
  params: IdParams,
  response: { 200: Envelope(Type.Object({ workspace: WorkspaceDetail })), ...errorResponses },
};

export const updateWorkspace = {
  operationId: 'updateWorkspace',
  tags: ['workspaces'],
  summary: 'Update name, sync schedule, vendor profile, vendor owner and lifecycle (owner only)',
  params: IdParams,
  body: Type.Object(
    {
      workspaceName: Type.Optional(WorkspaceName),
      syncSchedule: Type.Optional(SyncScheduleSchema),
      vendorProfile: Type.Optional(VendorProfilePatchSchema),
      vendorOwnerId: Type.Optional(
        Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], { description: 'A user with access; null clears' }),
      ),
      lifecycle: Type.Optional(Lifecycle),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  response: { 200: Envelope(Type.Object({ workspace: Type.Object(WorkspaceBase) })), ...errorResponses },
};

export const deleteWorkspace = {
  operationId: 'deleteWorkspace',
  tags: ['workspaces'],
  summary: 'Delete the workspace and all its data (owner only)',
  params: IdParams,
  response: { 200: MessageEnvelope, ...errorResponses },
};

export const addMember = {
  operationId: 'addWorkspaceMember',
  tags: ['workspaces'],
  summary: 'Add a member of the organization to the workspace with a role (default member) and optional permission flags',
  params: IdParams,
  body: Type.Object(
    {
      email: Type.String({ format: 'email', maxLength: 254 }),
      role: Type.Optional(Role),
      permissions: Type.Optional(PermissionsPatch),
    },
    { additionalProperties: false },
  ),
  response: { 201: Envelope(Type.Object({ member: Member })), ...errorResponses },
};

export const updateMember = {
  operationId: 'updateWorkspaceMember',
  tags: ['workspaces'],
  summary: "Change a member's role and/or permission flags",
  params: MemberParams,
  body: Type.Object({ role: Type.Optional(Role), permissions: Type.Optional(PermissionsPatch) }, { additionalProperties: false, minProperties: 1 }),
  response: { 200: Envelope(Type.Object({ member: Member })), ...errorResponses },
};

export const removeMember = {
  operationId: 'removeWorkspaceMember',
  tags: ['workspaces'],
  summary: 'Remove a member from the workspace',
  params: MemberParams,
  response: { 200: MessageEnvelope, ...errorResponses },
};

export const leaveWorkspace = {
  operationId: 'leaveWorkspace',
  tags: ['workspaces'],
  summary: 'Leave the workspace (not for the owner)',
  params: IdParams,
  response: { 200: MessageEnvelope, ...errorResponses },
};

export const transferOwnership = {
  operationId: 'transferWorkspace',
  tags: ['workspaces'],
  summary: 'Transfer ownership to another member (owner only); the previous owner becomes admin',
  params: IdParams,
  body: Type.Object({ newOwnerId: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
  response: { 200: MessageEnvelope, ...errorResponses },
};
