import type { Permissions, SyncSchedule, WorkspaceRole } from '../../db/schema/workspaces.js';
import type { LifecycleStatus } from '../../domain/inventory.js';
import type { pagination } from '../../domain/paging.js';
import type { FieldSource } from '../../domain/profileDrafts.js';
import type { Scope } from '../../domain/scope.js';
import { mergeVendorProfile, withContractIds, type Contract, type VendorProfile, type VendorProfilePatch } from '../../domain/vendorProfile.js';
import { AppError, badRequest, conflict, forbidden } from '../../lib/errors.js';
import { newSecret } from '../../lib/ids.js';
import type { WorkspaceContext } from '../../lib/requestAccess.js';
import type { AuthService } from '../auth/service.js';
import type { NotificationsService } from '../notifications/service.js';
import type { OrganizationsService } from '../organizations/service.js';
import { effectiveAccess, type WorkspaceAccess } from './access.js';
import { type InventoryKpis, type InventoryPageRequest, workspaceInventory } from './inventory.js';
import { type MemberView, workspaceMembers, workspaceNotFound } from './members.js';
import { defaultPermissions } from './permissions.js';
import {
  type StatsProvider,
  type SyncStateProvider,
  type WorkspaceDeletedHook,
  type WorkspaceStats,
  type WorkspaceSyncStatus,
  workspaceProviders,
} from './providers.js';
import type { WorkspacesRepository } from './repository.js';
import { assertProfile, keepUnchangedSources, organizationProfileRules, withReviewDate } from './vendorProfile.js';
import { memberViews, type WorkspaceDetail, type WorkspaceListItem, type WorkspaceView, workspaceView } from './views.js';

/**
 * The workspaces service: a vendor workspace's lifecycle (create, read, update, delete) and the
 * façade other modules and the routes call. Its concerns live beside it: members and invitations
 * (members.ts), the inventory list and KPIs (inventory.ts), the vendor profile's rules
 * (vendorProfile.ts), the stats and sync-state providers (providers.ts) and the views (views.ts).
 */

const nameTaken = () => conflict('A workspace with this name already exists in the organization', 'WORKSPACE_NAME_TAKEN');

/** Human-readable identifier: lowercase letters, digits and hyphens; never shaped like a UUID. */
export const SLUG_PATTERN = '^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$';
const SLUG_RE = new RegExp(SLUG_PATTERN);
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/g, '');
  return s || 'vendor';
}

/** The slug of a new workspace as asked for (never shaped like a UUID), or null to make one from the name. */
function requestedSlug(workspaceId: string | undefined): string | null {
  if (workspaceId === undefined) return null;
  if (UUID_RE.test(workspaceId)) {
    throw new AppError(400, 'VALIDATION_ERROR', 'Validation failed: workspaceId must not look like a UUID', ['workspaceId: must not look like a UUID']);
  }
  return workspaceId;
}

export interface CreateWorkspaceInput {
  workspaceName: string;
  /** The slug asked for (the API's `workspaceId`); made from the name when absent. */
  workspaceId?: string;
  syncSchedule?: SyncSchedule;
  vendorProfile?: VendorProfile;
  lifecycle?: LifecycleStatus;
}

export interface UpdateWorkspaceInput {
  workspaceName?: string;
  syncSchedule?: SyncSchedule;
  vendorProfile?: VendorProfilePatch;
  /** The vendor owner: a user with access to the workspace; null clears it. */
  vendorOwnerId?: string | null;
  lifecycle?: LifecycleStatus;
}

/** Vendor workspaces, access to them and their members (docs/organizations-and-workspaces.md, docs/permissions.md). */
export interface WorkspacesService {
  /** Registers a source of workspace stats (documents, pages, databases). */
  addStatsProvider(p: StatsProvider): void;
  /** Registers a source of sync state (what `syncStatus` is derived from). */
  addSyncStateProvider(p: SyncStateProvider): void;
  /** The derived `syncStatus` of many workspaces (opaque ids) in one call. */
  syncStatuses(workspaceIds: string[]): Promise<Map<string, WorkspaceSyncStatus>>;
  /** Registers a hook run after a workspace is deleted. */
  onDeleted(h: WorkspaceDeletedHook): void;
  /** Stats of a workspace (opaque id), summed over the providers. */
  stats(workspaceId: string): Promise<WorkspaceStats>;
  /** The caller's access to a workspace given by opaque id or slug (used by the workspace plugin only). */
  resolveAccess(userId: string, key: string): Promise<WorkspaceContext | 'not_found' | 'denied'>;
  /** Workspaces the caller can access (all of their organization's, minus withdrawn ones). */
  list(userId: string): Promise<WorkspaceListItem[]>;
  /** One page of the workspaces the caller can access (paged and sorted in SQL). */
  page(userId: string, q: InventoryPageRequest): Promise<{ workspaces: WorkspaceListItem[]; pagination: ReturnType<typeof pagination> }>;
  /** The portfolio KPIs over the workspaces the caller can access, each with the inventory query it counts. */
  inventoryKpis(userId: string): Promise<InventoryKpis>;
  /** Creates a vendor workspace in the caller's organization; the caller becomes its owner. */
  create(userId: string, input: CreateWorkspaceInput): Promise<WorkspaceView & { syncStatus: 'active'; myRole: 'owner'; permissions: Permissions }>;
  /** Detail: owner, members (everyone with access), stats. */
  detail(scope: Scope, access: WorkspaceAccess): Promise<WorkspaceDetail>;
  /** Name, sync schedule and vendor profile (the patch replaces top-level fields; null clears one). */
  update(scope: Scope, input: UpdateWorkspaceInput): Promise<WorkspaceView & { syncStatus: WorkspaceSyncStatus }>;
  /** Applies drafted values to the locked profile and its field sources in one transaction (400 naming an invalid field). */
  applyProfileValues(
    workspaceId: string,
    apply: (profile: VendorProfile, sources: Record<string, FieldSource>) => { profile: VendorProfile; sources: Record<string, FieldSource> },
  ): Promise<WorkspaceView>;
  /** Ids of everyone with access to a workspace (optionally holding a flag); empty when it does not exist. */
  memberUserIds(workspaceId: string, permission?: string): Promise<string[]>;
  /** Workspaces whose sync schedule is enabled: id and schedule (for the sync scheduler). */
  withScheduleEnabled(): Promise<{ id: string; syncSchedule: SyncSchedule }[]>;
  /** A workspace by opaque id or slug (for other modules), or null. */
  get(workspaceId: string): Promise<WorkspaceView | null>;
  /** Every contract of the organization's vendors, with its vendor (register: references are unique per organization). */
  orgContracts(orgId: string): Promise<{ contract: Contract; workspaceId: string; workspaceName: string }[]>;
  /** Workspaces by opaque id, in one query; unknown ids are skipped (register export). */
  getMany(workspaceIds: string[]): Promise<WorkspaceView[]>;
  /** Deletes the workspace and everything in it; runs the deleted hooks. */
  remove(scope: Scope): Promise<void>;
  /** Adds a member of the organization with a role (default member) and optional flags. */
  addMember(scope: Scope, access: WorkspaceAccess, input: { email: string; role?: WorkspaceRole; permissions?: Partial<Permissions> }): Promise<MemberView>;
  /** Changes a member's role and/or flags. */
  updateMember(scope: Scope, access: WorkspaceAccess, userId: string, input: { role?: WorkspaceRole; permissions?: Partial<Permissions> }): Promise<MemberView>;
  /** Withdraws a member's access. */
  removeMember(scope: Scope, access: WorkspaceAccess, userId: string): Promise<void>;
  /** The caller leaves the workspace. */
  leave(scope: Scope, access: WorkspaceAccess): Promise<void>;
  /** Transfers ownership to another member (owner only). */
  transfer(scope: Scope, newOwnerId: string): Promise<void>;
}

type Orgs = Pick<OrganizationsService, 'requireMembership' | 'membersOf'>;

export function workspacesService(deps: {
  repo: WorkspacesRepository;
  orgs: Orgs;
  users: Pick<AuthService, 'usersByIds' | 'findByEmail'>;
  notifications?: Pick<NotificationsService, 'notifyQuietly'>;
}): WorkspacesService {
  const { repo, orgs, users } = deps;
  const members = workspaceMembers(deps);
  const providers = workspaceProviders();
  const inventory = workspaceInventory(repo);
  const { assertNewVendor, assertUniqueReferences } = organizationProfileRules(repo);

  async function uniqueSlug(base: string): Promise<string> {
    const root = SLUG_RE.test(base) && !UUID_RE.test(base) ? base : slugify(base);
    if (!(await repo.slugExists(root))) return root;
    for (let i = 0; i < 5; i++) {
      const candidate = `${root.slice(0, 56)}-${
        newSecret(4)
          .toLowerCase()
          .replace(/[^a-z0-9]/g, '')
          .slice(0, 5) || 'x'
      }`;
      if (!(await repo.slugExists(candidate))) return candidate;
    }
    return `${root.slice(0, 40)}-${Date.now().toString(36)}`;
  }

  /** 400 unless the vendor owner asked for is a user with access to the workspace. */
  async function assertVendorOwner(workspaceId: string, vendorOwnerId: string) {
    const ws = await repo.findByKey(workspaceId);
    if (!ws) throw workspaceNotFound();
    const list = await members.accessList(ws);
    if (!list.some((m) => m.userId === vendorOwnerId)) {
      throw badRequest('vendorOwnerId: the vendor owner must be a user with access to this workspace', [
        'vendorOwnerId: not a user with access to this workspace',
      ]);
    }
  }

  return {
    addStatsProvider: providers.addStatsProvider,
    addSyncStateProvider: providers.addSyncStateProvider,
    syncStatuses: providers.syncStatuses,
    onDeleted: providers.onDeleted,
    stats: providers.stats,

    async resolveAccess(userId, key) {
      const row = await repo.accessRow(key, userId);
      if (!row) return 'not_found';
      const eff = effectiveAccess(row.workspace, userId, row.orgRole, row.member);
      if (!eff || !row.orgRole) return 'denied';
      const ws = row.workspace;
      return { id: ws.id, workspaceId: ws.slug, name: ws.name, orgId: ws.orgId, ownerId: ws.ownerId, orgRole: row.orgRole, ...eff };
    },

    list: inventory.list,
    page: inventory.page,
    inventoryKpis: inventory.inventoryKpis,

    async create(userId, input) {
      const org = await orgs.requireMembership(userId);
      if (org.role === 'viewer') throw forbidden('Insufficient permission: organization viewers cannot create workspaces', 'INSUFFICIENT_PERMISSION');
      if (input.vendorProfile) {
        assertProfile(input.vendorProfile);
        await assertNewVendor(org.orgId, input.vendorProfile);
        await assertUniqueReferences(org.orgId, input.vendorProfile);
      }
      const name = input.workspaceName.trim();
      const slug = requestedSlug(input.workspaceId) ?? (await uniqueSlug(slugify(name)));
      const row = await repo.insertWithOwner({
        orgId: org.orgId,
        ownerId: userId,
        name,
        slug,
        syncSchedule: input.syncSchedule ?? { enabled: false, intervalHours: 24 },
        vendorProfile: withReviewDate(withContractIds(input.vendorProfile ?? {}), input.vendorProfile),
        lifecycle: input.lifecycle ?? 'active',
        ownerPermissions: defaultPermissions('owner'),
      });
      if (row === 'slug_taken') throw conflict(`workspaceId ${slug} is already taken`, 'WORKSPACE_ID_TAKEN');
      if (row === 'name_taken') throw nameTaken();
      return { ...workspaceView(row), syncStatus: 'active' as const, myRole: 'owner' as const, permissions: defaultPermissions('owner') };
    },

    async detail(scope, access) {
      const ws = await repo.findByKey(scope.workspaceId);
      if (!ws) throw workspaceNotFound();
      const list = await members.accessList(ws);
      const byId = await users.usersByIds([ws.ownerId, ...list.map((m) => m.userId)]);
      const owner = byId.get(ws.ownerId);
      return {
        ...workspaceView(ws),
        syncStatus: await providers.syncStatusOf(ws.id),
        myRole: access.role,
        permissions: access.permissions,
        memberCount: list.length,
        owner: { id: ws.ownerId, name: owner?.name ?? '', email: owner?.email ?? '' },
        members: memberViews(list, byId),
        stats: await providers.stats(ws.id),
      };
    },

    async update(scope, input) {
      const values: { name?: string; syncSchedule?: SyncSchedule; vendorOwnerId?: string | null; lifecycle?: LifecycleStatus } = {};
      if (input.workspaceName !== undefined) values.name = input.workspaceName.trim();
      if (input.syncSchedule !== undefined) values.syncSchedule = input.syncSchedule;
      if (input.lifecycle !== undefined) values.lifecycle = input.lifecycle;
      if (input.vendorOwnerId !== undefined) {
        if (input.vendorOwnerId !== null) await assertVendorOwner(scope.workspaceId, input.vendorOwnerId);
        values.vendorOwnerId = input.vendorOwnerId;
      }
      const patch = input.vendorProfile;
      if (patch?.identifier) await assertNewVendor(scope.orgId, { identifier: patch.identifier }, scope.workspaceId);
      if (patch?.contracts) await assertUniqueReferences(scope.orgId, { contracts: patch.contracts }, scope.workspaceId);
      const row = await repo.update(
        scope.workspaceId,
        values,
        patch
          ? (current, sources) => {
              const merged = withReviewDate(withContractIds(mergeVendorProfile(current as VendorProfile, patch)), patch);
              assertProfile(merged);
              // A value changed by hand no longer comes from its document.
              return { profile: merged as Record<string, unknown>, sources: keepUnchangedSources(merged, sources) };
            }
          : undefined,
      );
      if (row === 'name_taken') throw nameTaken();
      if (!row) throw workspaceNotFound();
      return { ...workspaceView(row), syncStatus: await providers.syncStatusOf(row.id) };
    },

    async applyProfileValues(workspaceId, apply) {
      const row = await repo.update(workspaceId, {}, (current, sources) => {
        const next = apply(structuredClone(current) as VendorProfile, structuredClone(sources));
        const profile = withContractIds(next.profile);
        assertProfile(profile);
        return { profile: profile as Record<string, unknown>, sources: keepUnchangedSources(profile, next.sources) };
      });
      if (row === 'name_taken' || !row) throw workspaceNotFound();
      return workspaceView(row);
    },

    async memberUserIds(workspaceId, permission) {
      const ws = await repo.findByKey(workspaceId);
      if (!ws) return [];
      const list = await members.accessList(ws);
      return list.filter((m) => !permission || (m.eff.permissions as unknown as Record<string, boolean>)[permission]).map((m) => m.userId);
    },

    async withScheduleEnabled() {
      return repo.withScheduleEnabled();
    },

    async get(workspaceId) {
      const row = await repo.findByKey(workspaceId);
      return row && workspaceView(row);
    },

    async orgContracts(orgId) {
      return (await repo.contractsOf(orgId)) as { contract: Contract; workspaceId: string; workspaceName: string }[];
    },

    async getMany(workspaceIds) {
      return (await repo.findByIds(workspaceIds)).map(workspaceView);
    },

    async remove(scope) {
      if (!(await repo.delete(scope.workspaceId))) throw workspaceNotFound();
      await providers.deleted({ id: scope.workspaceId, orgId: scope.orgId });
    },

    addMember: members.addMember,
    updateMember: members.updateMember,
    removeMember: members.removeMember,
    leave: members.leave,
    transfer: members.transfer,
  };
}
