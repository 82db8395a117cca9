import type { OrgRole } from '../../db/schema/organizations.js';
import type { Permissions, SyncSchedule, WorkspaceRole } from '../../db/schema/workspaces.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { newSecret } from '../../lib/ids.js';
import type { AuthService } from '../auth/service.js';
import type { NotificationsService } from '../notifications/service.js';
import { onboardingRequired, type OrganizationsService } from '../organizations/service.js';
import {
  defaultPermissions,
  normalizePermissions,
  ORG_ROLE_TO_WORKSPACE_ROLE,
  OWNER_ONLY_FLAGS,
  PERMISSION_FLAGS,
  permissionsFor,
  ROLE_RANK,
  unionPermissions,
} from './permissions.js';
import type { WorkspaceMemberRow, WorkspaceRow, WorkspaceSortField, WorkspacesRepository } from './repository.js';
import { checkVendorProfile, mergeVendorProfile, readVendorProfile, type VendorProfile, type VendorProfilePatch } from './vendorProfile.js';
import { offsetOf, pagination, type PageRequest } from '../../domain/paging.js';
import type { FieldSource } from '../../compliance/drafting/types.js';

/** The value at a profile path (`contracts.0.governingLaw`). */
export function valueAt(profile: unknown, path: string): unknown {
  let cur: unknown = profile;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** Field sources whose value is still the one in the profile. */
function keepUnchangedSources(profile: VendorProfile, sources: Record<string, FieldSource>): Record<string, FieldSource> {
  const out: Record<string, FieldSource> = {};
  for (const [path, src] of Object.entries(sources ?? {})) {
    if (JSON.stringify(valueAt(profile, path) ?? null) === JSON.stringify(src.value ?? null)) out[path] = src;
  }
  return out;
}

/** What the workspace plugin puts on `request.workspace`. */
export interface WorkspaceContext {
  /** Opaque id (`workspaces.id`); every workspace-scoped row references it. */
  id: string;
  /** The second, human-readable identifier. */
  workspaceId: string;
  name: string;
  orgId: string;
  ownerId: string;
  role: WorkspaceRole;
  permissions: Permissions;
  /** `explicit`: a workspace membership row; `organization`: implied by the organization role. */
  membership: 'explicit' | 'organization';
  orgRole: OrgRole;
}

export interface WorkspaceStats {
  totalPages: number;
  totalDatabases: number;
  totalDocuments: number;
}
/** Other modules (data sources, documents) feed the workspace stats through providers. */
export type StatsProvider = (workspaceId: string) => Promise<Partial<WorkspaceStats>>;

/** What a module that syncs reports per workspace: items with a sync under way, items whose last sync failed. */
export interface SyncCounts {
  syncing: number;
  failed: number;
}
/** Modules that sync (data sources, MCP sources) report their counts for many workspaces in one call. */
export type SyncStateProvider = (workspaceIds: string[]) => Promise<Map<string, SyncCounts>>;

/**
 * A workspace's `syncStatus` (docs/organizations-and-workspaces.md), derived on read from
 * its sources: `syncing` while any sync is queued or running, else `error` while the last
 * sync of any source failed, else `active`.
 */
export const SYNC_STATUSES = ['active', 'syncing', 'error'] as const;
export type WorkspaceSyncStatus = (typeof SYNC_STATUSES)[number];
/** Called after a workspace was deleted (its rows are gone through ON DELETE CASCADE). */
export type WorkspaceDeletedHook = (workspace: { id: string; orgId: string }) => Promise<void>;

export const accessDenied = () => forbidden('Access denied to this workspace', 'WORKSPACE_ACCESS_DENIED');
export const workspaceNotFound = () => notFound('Workspace not found', 'WORKSPACE_NOT_FOUND');
const memberNotFound = () => notFound('Member not found', 'MEMBER_NOT_FOUND');
const nameTaken = () => conflict('A workspace with this name already exists in the organization', 'WORKSPACE_NAME_TAKEN');

function assertProfile(p: VendorProfile) {
  const problems = checkVendorProfile(p);
  if (problems.length) throw badRequest(problems.join('; '), problems);
}

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

interface Effective {
  role: WorkspaceRole;
  permissions: Permissions;
  membership: 'explicit' | 'organization';
}

/**
 * The one rule of workspace access (docs/permissions.md):
 * - only members of the workspace's organization have access at all;
 * - the owner is `owner`;
 * - an active explicit membership gives its role and flags, except that an org_admin
 *   is never below `admin`;
 * - a withdrawn membership (removed / left) gives no access (never for org_admins);
 * - otherwise the organization role maps onto a workspace role.
 */
export function effectiveAccess(
  ws: Pick<WorkspaceRow, 'ownerId'>,
  userId: string,
  orgRole: OrgRole | null,
  member: Pick<WorkspaceMemberRow, 'role' | 'permissions' | 'status'> | null,
): Effective | null {
  if (!orgRole) return null;
  if (ws.ownerId === userId) return { role: 'owner', permissions: defaultPermissions('owner'), membership: 'explicit' };
  const mapped = ORG_ROLE_TO_WORKSPACE_ROLE[orgRole];
  if (member && member.status === 'active') {
    let role: WorkspaceRole = member.role === 'owner' ? 'admin' : member.role;
    let permissions = normalizePermissions(role, member.permissions);
    if (orgRole === 'org_admin' && ROLE_RANK[role] < ROLE_RANK.admin) {
      role = 'admin';
      permissions = unionPermissions(permissions, defaultPermissions('admin'));
    }
    return { role, permissions, membership: 'explicit' };
  }
  if (member && orgRole !== 'org_admin') return null;
  return { role: mapped, permissions: defaultPermissions(mapped), membership: 'organization' };
}

type Users = Pick<AuthService, 'usersByIds' | 'findByEmail'>;
type Orgs = Pick<OrganizationsService, 'requireMembership' | 'membersOf'>;

export function workspacesService(deps: { repo: WorkspacesRepository; orgs: Orgs; users: Users; notifications?: Pick<NotificationsService, 'notifyQuietly'> }) {
  const { repo, orgs, users } = deps;
  const statsProviders: StatsProvider[] = [];
  const syncStateProviders: SyncStateProvider[] = [];
  const deletedHooks: WorkspaceDeletedHook[] = [];

  async function uniqueSlug(base: string): Promise<string> {
    const root = SLUG_RE.test(base) && !UUID_RE.test(base) ? base : slugify(base);
    if (!(await repo.slugExists(root))) return root;
    for (let i = 0; i < 5; i++) {
      const candidate = `${root.slice(0, 56)}-${newSecret(4).toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 5) || 'x'}`;
      if (!(await repo.slugExists(candidate))) return candidate;
    }
    return `${root.slice(0, 40)}-${Date.now().toString(36)}`;
  }

  /** Everyone with access to a workspace, with role and flags (owner first). */
  async function accessList(ws: WorkspaceRow) {
    const [orgMembers, rows] = await Promise.all([orgs.membersOf(ws.orgId), repo.membersOf([ws.id])]);
    const byUser = new Map(rows.map((r) => [r.userId, r]));
    const out: { userId: string; eff: Effective; status: string; joinedAt: Date }[] = [];
    for (const m of orgMembers) {
      const row = byUser.get(m.userId) ?? null;
      const eff = effectiveAccess(ws, m.userId, m.role, row);
      if (!eff) continue;
      const joinedAt = row?.status === 'active' ? row.joinedAt : new Date(Math.max(m.joinedAt.getTime(), ws.createdAt.getTime()));
      out.push({ userId: m.userId, eff, status: 'active', joinedAt });
    }
    out.sort((a, b) => ROLE_RANK[b.eff.role] - ROLE_RANK[a.eff.role] || a.joinedAt.getTime() - b.joinedAt.getTime() || a.userId.localeCompare(b.userId));
    return out;
  }

  /** One workspace per vendor identifier within an organization. */
  async function assertNewVendor(orgId: string, p: Pick<VendorProfile, 'identifier'>, exceptId?: string) {
    if (!p.identifier) return;
    const dup = (await repo.withIdentifier(orgId, p.identifier.value)).filter((w) => w.id !== exceptId);
    if (dup.length) {
      throw new AppError(409, 'VENDOR_ALREADY_REGISTERED', `A workspace for this vendor identifier already exists: ${dup[0].name}`, dup.map((w) => `${w.id}: ${w.name}`));
    }
  }

  async function stats(workspaceId: string): Promise<WorkspaceStats> {
    const total: WorkspaceStats = { totalPages: 0, totalDatabases: 0, totalDocuments: 0 };
    for (const p of statsProviders) {
      const s = await p(workspaceId);
      total.totalPages += s.totalPages ?? 0;
      total.totalDatabases += s.totalDatabases ?? 0;
      total.totalDocuments += s.totalDocuments ?? 0;
    }
    return total;
  }

  async function syncStatuses(workspaceIds: string[]): Promise<Map<string, WorkspaceSyncStatus>> {
    const totals = new Map<string, SyncCounts>(workspaceIds.map((id) => [id, { syncing: 0, failed: 0 }]));
    if (workspaceIds.length) {
      for (const counts of await Promise.all(syncStateProviders.map((p) => p(workspaceIds)))) {
        for (const [id, c] of counts) {
          const t = totals.get(id);
          if (!t) continue;
          t.syncing += c.syncing;
          t.failed += c.failed;
        }
      }
    }
    return new Map([...totals].map(([id, t]) => [id, t.syncing > 0 ? 'syncing' : t.failed > 0 ? 'error' : 'active']));
  }
  /**
   * List items (role, permissions, member count, sync status) of the workspaces the caller
   * can access: one statement for the organization, the page, the caller's memberships,
   * the member counts, the sync counts kept per workspace (`workspace_sync_counts`) and the total.
   */
  async function accessible(userId: string, q: { offset: number; limit: number | null; sort: WorkspaceSortField; descending: boolean }) {
    const found = await repo.accessiblePage(userId, q);
    if (!found) throw onboardingRequired();
    const workspaces = found.rows.flatMap(({ workspace: ws, member, memberCount, sync }) => {
      const eff = effectiveAccess(ws, userId, found.orgRole, member);
      if (!eff) return [];
      return [{
        id: ws.id,
        workspaceName: ws.name,
        workspaceId: ws.workspaceId,
        syncStatus: sync.syncing > 0 ? ('syncing' as const) : sync.failed > 0 ? ('error' as const) : ('active' as const),
        myRole: eff.role,
        permissions: eff.permissions,
        memberCount,
        syncSchedule: ws.syncSchedule,
        documentCount: sync.documents,
        lastSyncedAt: sync.lastSyncedAt ? new Date(sync.lastSyncedAt).toISOString() : null,
        createdAt: ws.createdAt.toISOString(),
      }];
    });
    return { workspaces, total: found.total };
  }

  const syncStatusOf = async (workspaceId: string) => (await syncStatuses([workspaceId])).get(workspaceId) ?? 'active';

  /** A user who has access to the workspace, or 404. */
  async function accessOf(ws: WorkspaceRow, userId: string) {
    const list = await accessList(ws);
    const found = list.find((m) => m.userId === userId);
    if (!found) throw memberNotFound();
    return found;
  }

  function checkGrant(ctx: WorkspaceContext, role: WorkspaceRole | undefined, permissions: Partial<Permissions> | undefined) {
    if (role === 'owner') {
      throw new AppError(400, 'VALIDATION_ERROR', 'Validation failed: role owner is given with POST /workspaces/:id/transfer', ['role: owner is given by transferring ownership']);
    }
    if (role && ctx.role !== 'owner' && ROLE_RANK[role] >= ROLE_RANK[ctx.role]) {
      throw forbidden(`Insufficient permission: a ${ctx.role} can only assign roles below ${ctx.role}`, 'INSUFFICIENT_PERMISSION');
    }
    for (const flag of PERMISSION_FLAGS) {
      if (permissions?.[flag] !== true) continue;
      if (OWNER_ONLY_FLAGS.includes(flag)) {
        throw new AppError(400, 'VALIDATION_ERROR', `Validation failed: ${flag} is held by the owner only`, [`permissions.${flag}: is held by the owner only`]);
      }
      if (!ctx.permissions[flag]) throw forbidden(`Insufficient permission: you cannot grant ${flag}, which you do not hold`, 'INSUFFICIENT_PERMISSION');
    }
  }

  function checkTarget(ctx: WorkspaceContext, targetRole: WorkspaceRole) {
    if (ctx.role !== 'owner' && ROLE_RANK[targetRole] >= ROLE_RANK[ctx.role]) {
      throw forbidden(`Insufficient permission: a ${ctx.role} can only manage members below ${ctx.role}`, 'INSUFFICIENT_PERMISSION');
    }
  }

  return {
    /** Registers a source of workspace stats (documents, pages, databases). */
    addStatsProvider(p: StatsProvider) {
      statsProviders.push(p);
    },
    /** Registers a source of sync state (what `syncStatus` is derived from). */
    addSyncStateProvider(p: SyncStateProvider) {
      syncStateProviders.push(p);
    },
    syncStatuses,
    /** Registers a hook run after a workspace is deleted. */
    onDeleted(h: WorkspaceDeletedHook) {
      deletedHooks.push(h);
    },
    stats,

    /**
     * Resolves the caller's access to a workspace given by id or `workspace_id`
     * (used by the workspace plugin only).
     */
    async resolveAccess(userId: string, key: string): Promise<WorkspaceContext | 'not_found' | 'denied'> {
      const row = await repo.accessRow(key, userId);
      if (!row) return 'not_found';
      const eff = effectiveAccess(row.workspace, userId, row.orgRole, row.member);
      if (!eff || !row.orgRole) return 'denied';
      const ws = row.workspace;
      return { id: ws.id, workspaceId: ws.workspaceId, name: ws.name, orgId: ws.orgId, ownerId: ws.ownerId, orgRole: row.orgRole, ...eff };
    },

    /** Workspaces the caller can access (all of their organization's, minus withdrawn ones). */
    async list(userId: string) {
      return (await accessible(userId, { offset: 0, limit: null, sort: 'createdAt', descending: false })).workspaces;
    },

    /** One page of the workspaces the caller can access (paged and sorted in SQL). */
    async page(userId: string, q: PageRequest & { sort: WorkspaceSortField; descending: boolean }) {
      const { workspaces, total } = await accessible(userId, { offset: offsetOf(q), limit: q.limit, sort: q.sort, descending: q.descending });
      return { workspaces, pagination: pagination(q, total) };
    },

    /** Creates a vendor workspace in the caller's organization; the caller becomes its owner. */
    async create(userId: string, input: { workspaceName: string; workspaceId?: string; syncSchedule?: SyncSchedule; vendorProfile?: VendorProfile }) {
      const org = await orgs.requireMembership(userId);
      if (org.role === 'viewer') throw forbidden('Insufficient permission: organization viewers cannot create workspaces', 'INSUFFICIENT_PERMISSION');
      if (input.vendorProfile) {
        assertProfile(input.vendorProfile);
        await assertNewVendor(org.orgId, input.vendorProfile);
      }
      const name = input.workspaceName.trim();
      let slug: string;
      if (input.workspaceId !== undefined) {
        if (UUID_RE.test(input.workspaceId)) {
          throw new AppError(400, 'VALIDATION_ERROR', 'Validation failed: workspaceId must not look like a UUID', ['workspaceId: must not look like a UUID']);
        }
        slug = input.workspaceId;
      } else {
        slug = await uniqueSlug(slugify(name));
      }
      const row = await repo.insertWithOwner({
        orgId: org.orgId,
        ownerId: userId,
        name,
        workspaceId: slug,
        syncSchedule: input.syncSchedule ?? { enabled: false, intervalHours: 24 },
        vendorProfile: input.vendorProfile ?? {},
        ownerPermissions: defaultPermissions('owner'),
      });
      if (row === 'slug_taken') throw conflict(`workspaceId ${slug} is already taken`, 'WORKSPACE_ID_TAKEN');
      if (row === 'name_taken') throw nameTaken();
      return { ...shape(row), syncStatus: 'active' as const, myRole: 'owner' as const, permissions: defaultPermissions('owner') };
    },

    /** Detail: owner, members (everyone with access), stats. */
    async detail(ctx: WorkspaceContext) {
      const ws = await repo.findByKey(ctx.id);
      if (!ws) throw workspaceNotFound();
      const list = await accessList(ws);
      const byId = await users.usersByIds([ws.ownerId, ...list.map((m) => m.userId)]);
      const owner = byId.get(ws.ownerId);
      return {
        ...shape(ws),
        syncStatus: await syncStatusOf(ws.id),
        myRole: ctx.role,
        permissions: ctx.permissions,
        memberCount: list.length,
        owner: { id: ws.ownerId, name: owner?.name ?? '', email: owner?.email ?? '' },
        members: list.flatMap((m) => {
          const u = byId.get(m.userId);
          if (!u) return [];
          return [{
            user: { id: u.id, name: u.name, email: u.email },
            role: m.eff.role,
            permissions: m.eff.permissions,
            status: m.status,
            membership: m.eff.membership,
            joinedAt: m.joinedAt.toISOString(),
          }];
        }),
        stats: await stats(ws.id),
      };
    },

    /** Owner only (route permission canEditSettings). The vendor profile patch replaces top-level fields; null clears one. */
    async update(ctx: WorkspaceContext, input: { workspaceName?: string; syncSchedule?: SyncSchedule; vendorProfile?: VendorProfilePatch }) {
      const values: { name?: string; syncSchedule?: SyncSchedule } = {};
      if (input.workspaceName !== undefined) values.name = input.workspaceName.trim();
      if (input.syncSchedule !== undefined) values.syncSchedule = input.syncSchedule;
      const patch = input.vendorProfile;
      if (patch?.identifier) await assertNewVendor(ctx.orgId, { identifier: patch.identifier }, ctx.id);
      const row = await repo.update(
        ctx.id,
        values,
        patch
          ? (current, sources) => {
              const merged = mergeVendorProfile(current as VendorProfile, patch);
              assertProfile(merged);
              // A value changed by hand no longer comes from its document.
              return { profile: merged as Record<string, unknown>, sources: keepUnchangedSources(merged, sources) };
            }
          : undefined,
      );
      if (row === 'name_taken') throw nameTaken();
      if (!row) throw workspaceNotFound();
      return { ...shape(row), syncStatus: await syncStatusOf(row.id) };
    },

    /**
     * Applies drafted values (docs/register-drafting.md) in one transaction: `apply` edits a
     * copy of the locked profile and its field sources; the result must be a valid profile
     * (400 naming the field otherwise).
     */
    async applyProfileValues(workspaceId: string, apply: (profile: VendorProfile, sources: Record<string, FieldSource>) => { profile: VendorProfile; sources: Record<string, FieldSource> }) {
      const row = await repo.update(workspaceId, {}, (current, sources) => {
        const next = apply(structuredClone(current) as VendorProfile, structuredClone(sources));
        assertProfile(next.profile);
        return { profile: next.profile as Record<string, unknown>, sources: keepUnchangedSources(next.profile, next.sources) };
      });
      if (row === 'name_taken' || !row) throw workspaceNotFound();
      return shape(row);
    },

    /** Ids of everyone with access to a workspace (for notifications); empty when it does not exist. */
    async memberUserIds(workspaceId: string, permission?: string): Promise<string[]> {
      const ws = await repo.findByKey(workspaceId);
      if (!ws) return [];
      const list = await accessList(ws);
      return list.filter((m) => !permission || (m.eff.permissions as unknown as Record<string, boolean>)[permission]).map((m) => m.userId);
    },

    /** Workspaces whose sync schedule is enabled: id and schedule (for the sync scheduler). */
    async withScheduleEnabled(): Promise<{ id: string; syncSchedule: SyncSchedule }[]> {
      return repo.withScheduleEnabled();
    },

    /** Workspace row by id (for other modules, e.g. the register export and the scheduler). */
    async get(workspaceId: string) {
      const row = await repo.findByKey(workspaceId);
      return row && shape(row);
    },

    /** Workspaces (with their vendor profile) by opaque id, in one query; unknown ids are skipped (register export). */
    async getMany(workspaceIds: string[]) {
      return (await repo.findByIds(workspaceIds)).map(shape);
    },

    async remove(ctx: WorkspaceContext) {
      if (!(await repo.delete(ctx.id))) throw workspaceNotFound();
      for (const h of deletedHooks) await h({ id: ctx.id, orgId: ctx.orgId });
    },

    async addMember(ctx: WorkspaceContext, callerId: string, input: { email: string; role?: WorkspaceRole; permissions?: Partial<Permissions> }) {
      const role = input.role ?? 'member';
      checkGrant(ctx, role, input.permissions);
      const user = await users.findByEmail(input.email);
      const orgMembers = await orgs.membersOf(ctx.orgId);
      const om = user && orgMembers.find((m) => m.userId === user.id);
      if (!user || !om) {
        throw notFound('No member of this organization has this e-mail address; invite them to the organization first', 'USER_NOT_FOUND');
      }
      if (user.id === ctx.ownerId) throw conflict('This user is already a member of the workspace', 'ALREADY_MEMBER');
      if (om.role === 'org_admin' && ROLE_RANK[role] < ROLE_RANK.admin) {
        throw conflict('Organization admins keep admin access to every workspace of the organization; change their organization role first', 'ORG_ADMIN_ACCESS');
      }
      const permissions = permissionsFor(role, input.permissions);
      const row = await repo.addMember({ workspaceId: ctx.id, userId: user.id, role, permissions, addedBy: callerId });
      if (row === 'exists') throw conflict('This user is already a member of the workspace', 'ALREADY_MEMBER');
      const eff = effectiveAccess({ ownerId: ctx.ownerId }, user.id, om.role, row)!;
      await deps.notifications?.notifyQuietly({
        userIds: [user.id],
        workspaceId: ctx.id,
        type: 'invitation',
        title: `You were added to the workspace ${ctx.name}`,
        body: `You can now work on ${ctx.name} as ${eff.role}.`,
        data: { kind: 'workspace', workspaceId: ctx.id, workspaceSlug: ctx.workspaceId, workspaceName: ctx.name, role: eff.role, addedBy: callerId },
      });
      return { user: { id: user.id, name: user.name, email: user.email }, role: eff.role, permissions: eff.permissions, status: row.status, joinedAt: row.joinedAt.toISOString() };
    },

    async updateMember(ctx: WorkspaceContext, callerId: string, userId: string, input: { role?: WorkspaceRole; permissions?: Partial<Permissions> }) {
      const ws = await repo.findByKey(ctx.id);
      if (!ws) throw workspaceNotFound();
      const target = await accessOf(ws, userId);
      if (userId === ws.ownerId) {
        throw new AppError(400, 'OWNER_IMMUTABLE', "The owner's role and permissions cannot be changed; transfer ownership instead");
      }
      if (userId === callerId) throw forbidden('Insufficient permission: you cannot change your own role or permissions', 'INSUFFICIENT_PERMISSION');
      checkTarget(ctx, target.eff.role);
      const role = input.role ?? (target.eff.role as Exclude<WorkspaceRole, 'owner'>);
      checkGrant(ctx, input.role, input.permissions);
      const orgRole = (await orgs.membersOf(ctx.orgId)).find((m) => m.userId === userId)?.role ?? null;
      if (orgRole === 'org_admin' && ROLE_RANK[role] < ROLE_RANK.admin) {
        throw conflict('Organization admins keep admin access to every workspace of the organization; change their organization role first', 'ORG_ADMIN_ACCESS');
      }
      // Without a new role the current flags are kept and the given ones applied on top.
      const base = input.role ? defaultPermissions(role) : target.eff.permissions;
      const permissions = permissionsFor(role, { ...base, ...input.permissions });
      const row = await repo.putMember({ workspaceId: ctx.id, userId, role, permissions, addedBy: callerId, joinedAt: target.joinedAt });
      const eff = effectiveAccess(ws, userId, orgRole, row)!;
      const u = (await users.usersByIds([userId])).get(userId);
      return { user: { id: userId, name: u?.name ?? '', email: u?.email ?? '' }, role: eff.role, permissions: eff.permissions, status: row.status, joinedAt: row.joinedAt.toISOString() };
    },

    async removeMember(ctx: WorkspaceContext, callerId: string, userId: string) {
      const ws = await repo.findByKey(ctx.id);
      if (!ws) throw workspaceNotFound();
      const target = await accessOf(ws, userId);
      if (userId === ws.ownerId) {
        throw new AppError(400, 'OWNER_CANNOT_BE_REMOVED', 'The owner cannot be removed from the workspace; transfer ownership first');
      }
      if (userId !== callerId) checkTarget(ctx, target.eff.role);
      const orgRole = (await orgs.membersOf(ctx.orgId)).find((m) => m.userId === userId)?.role;
      if (orgRole === 'org_admin') {
        throw conflict('Organization admins keep access to every workspace of the organization; change their organization role first', 'ORG_ADMIN_ACCESS');
      }
      await repo.endMembership({ workspaceId: ctx.id, userId, status: userId === callerId ? 'left' : 'removed', role: target.eff.role, permissions: target.eff.permissions, by: callerId, joinedAt: target.joinedAt });
    },

    async leave(ctx: WorkspaceContext, userId: string) {
      if (ctx.role === 'owner') throw new AppError(400, 'OWNER_CANNOT_LEAVE', 'The owner cannot leave the workspace; transfer ownership first');
      if (ctx.orgRole === 'org_admin') {
        throw conflict('Organization admins keep access to every workspace of the organization; change their organization role first', 'ORG_ADMIN_ACCESS');
      }
      const ws = await repo.findByKey(ctx.id);
      if (!ws) throw workspaceNotFound();
      const me = await accessOf(ws, userId);
      await repo.endMembership({ workspaceId: ctx.id, userId, status: 'left', role: me.eff.role, permissions: me.eff.permissions, by: userId, joinedAt: me.joinedAt });
    },

    async transfer(ctx: WorkspaceContext, callerId: string, newOwnerId: string) {
      if (newOwnerId === callerId) {
        throw new AppError(400, 'VALIDATION_ERROR', 'Validation failed: newOwnerId is already the owner', ['newOwnerId: is already the owner']);
      }
      const ws = await repo.findByKey(ctx.id);
      if (!ws) throw workspaceNotFound();
      const list = await accessList(ws);
      const target = list.find((m) => m.userId === newOwnerId);
      if (!target) {
        throw new AppError(400, 'NOT_A_MEMBER', 'Validation failed: newOwnerId must be a member of this workspace', ['newOwnerId: must be a member of this workspace']);
      }
      const result = await repo.transfer(ctx.id, callerId, newOwnerId, { owner: defaultPermissions('owner'), admin: defaultPermissions('admin') }, target.joinedAt);
      if (result === 'not_owner') throw forbidden('Insufficient permission: only the owner can transfer ownership', 'INSUFFICIENT_PERMISSION');
    },
  };
}

/** The stored fields; API responses add the derived `syncStatus`, other modules do not need it. */
function shape(ws: WorkspaceRow) {
  return {
    id: ws.id,
    workspaceName: ws.name,
    workspaceId: ws.workspaceId,
    organizationId: ws.orgId,
    syncSchedule: ws.syncSchedule,
    vendorProfile: readVendorProfile(ws.vendorProfile),
    vendorProfileSources: ws.fieldSources ?? {},
    createdAt: ws.createdAt.toISOString(),
    updatedAt: ws.updatedAt.toISOString(),
  };
}

export type WorkspacesService = ReturnType<typeof workspacesService>;
