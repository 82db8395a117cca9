import type { Permissions, SyncSchedule, WorkspaceRole } from '../../db/schema/workspaces.js';
import type { Scope } from '../../domain/scope.js';
import { AppError, badRequest, conflict, forbidden } from '../../lib/errors.js';
import { newSecret } from '../../lib/ids.js';
import type { AuthService } from '../auth/service.js';
import type { NotificationsService } from '../notifications/service.js';
import { onboardingRequired, type OrganizationsService } from '../organizations/service.js';
import { effectiveAccess, type WorkspaceAccess } from './access.js';
import { accessDenied, type WorkspaceContext } from '../../lib/requestAccess.js';
import { workspaceMembers, workspaceNotFound, type AccessEntry, type MemberView } from './members.js';
import { defaultPermissions } from './permissions.js';
import type { AccessibleWorkspace, WorkspaceRow, WorkspaceSortField, WorkspacesRepository } from './repository.js';
import {
  checkVendorProfile,
  mergeVendorProfile,
  readVendorProfile,
  withContractIds,
  type Contract,
  type VendorProfile,
  type VendorProfilePatch,
  today,
} from '../../domain/vendorProfile.js';
import { offsetOf, pagination, type PageRequest } from '../../domain/paging.js';
import type { FieldSource } from '../../domain/profileDrafts.js';
import { kpiQuery, nextReviewAfter, PORTFOLIO_KPIS, reviewCycleMonths, type KpiFilters, type KpiKey, type LifecycleStatus } from '../../domain/inventory.js';
import type { InventoryFilters } from './repository.js';

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

/**
 * What the workspace plugin puts on `request.workspace`: the caller's access plus the
 * workspace's keys under their API names (`workspaceId` is the slug here, as in responses).
 */
export type { WorkspaceContext };
export type { WorkspaceAccess };

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

export { accessDenied };
export { workspaceNotFound };
const nameTaken = () => conflict('A workspace with this name already exists in the organization', 'WORKSPACE_NAME_TAKEN');
/** A contract reference is the key of the arrangement in the organization's register (B_02.01 c0010). */
export const contractReferenceTaken = (reference: string, vendor: string) =>
  conflict(`Contract reference ${reference} is already used by ${vendor}: every contract of the register needs its own reference`, 'CONTRACT_REFERENCE_TAKEN');

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

/** The stored fields under their API names; API responses add the derived `syncStatus`, other modules do not need it. */
function workspaceView(ws: WorkspaceRow) {
  return {
    id: ws.id,
    workspaceName: ws.name,
    workspaceId: ws.slug,
    organizationId: ws.orgId,
    vendorOwnerId: ws.vendorOwnerId ?? null,
    lifecycle: ws.lifecycle,
    reviewCycleMonths: reviewCycleMonths(ws.criticalityTier),
    syncSchedule: ws.syncSchedule,
    vendorProfile: readVendorProfile(ws.vendorProfile),
    vendorProfileSources: ws.fieldSources ?? {},
    createdAt: ws.createdAt.toISOString(),
    updatedAt: ws.updatedAt.toISOString(),
  };
}
export type WorkspaceView = ReturnType<typeof workspaceView>;

const iso = (v: string | null | undefined) => (v ? new Date(v).toISOString() : null);

/** A row of the workspace list for a caller with the given access. */
function listItemView({ workspace: ws, memberCount, sync, inventory: inv }: AccessibleWorkspace, eff: Pick<WorkspaceAccess, 'role' | 'permissions'>) {
  const la = inv.latestAssessment;
  return {
    id: ws.id,
    workspaceName: ws.name,
    workspaceId: ws.slug,
    syncStatus: sync.syncing > 0 ? ('syncing' as const) : sync.failed > 0 ? ('error' as const) : ('active' as const),
    myRole: eff.role,
    permissions: eff.permissions,
    memberCount,
    syncSchedule: ws.syncSchedule,
    documentCount: sync.documents,
    lastSyncedAt: sync.lastSyncedAt ? new Date(sync.lastSyncedAt).toISOString() : null,
    createdAt: ws.createdAt.toISOString(),
    vendorOwner: ws.vendorOwnerId ? { id: ws.vendorOwnerId, name: inv.vendorOwnerName ?? '' } : null,
    lifecycle: ws.lifecycle,
    criticalityTier: ws.criticalityTier ?? null,
    supportsCriticalFunction: inv.supportsCriticalFunction,
    exitPlan: inv.exitPlan,
    riskRating: la?.riskRating ?? null,
    latestAssessment: la ? { id: la.id, score: la.score, riskRating: la.riskRating, completedAt: iso(la.completedAt), signedOffAt: iso(la.signedOffAt) } : null,
    lastSignedOffAt: inv.lastSignedOffAt,
    contractEnd: ws.contractEnd ?? null,
    nextReviewDate: ws.nextReviewDate ?? null,
    reviewCycleMonths: reviewCycleMonths(ws.criticalityTier),
    outstandingQuestionnaires: inv.outstandingQuestionnaires,
    overdueQuestionnaires: inv.overdueQuestionnaires,
  };
}
export type WorkspaceListItem = ReturnType<typeof listItemView>;

/** The workspace with the caller's access, its members and stats (GET /workspaces/:id). */
export type WorkspaceDetail = WorkspaceView & {
  syncStatus: WorkspaceSyncStatus;
  myRole: WorkspaceRole;
  permissions: Permissions;
  memberCount: number;
  owner: { id: string; name: string; email: string };
  members: (MemberView & { membership: 'explicit' | 'organization' })[];
  stats: WorkspaceStats;
};

export interface CreateWorkspaceInput {
  workspaceName: string;
  /** The slug asked for (the API's `workspaceId`); made from the name when absent. */
  workspaceId?: string;
  syncSchedule?: SyncSchedule;
  vendorProfile?: VendorProfile;
  lifecycle?: LifecycleStatus;
}

export interface InventoryKpis {
  asOf: string;
  vendors: number;
  questionnairesOutstanding: number;
  questionnairesOverdue: number;
  kpis: { key: KpiKey; label: string; value: number; query: string }[];
}

export interface UpdateWorkspaceInput {
  workspaceName?: string;
  syncSchedule?: SyncSchedule;
  vendorProfile?: VendorProfilePatch;
  /** The vendor owner: a user with access to the workspace; null clears it. */
  vendorOwnerId?: string | null;
  lifecycle?: LifecycleStatus;
}

/**
 * The review cycle (docs/inventory.md): a tier set without a next review date sets it to
 * today + the tier's cycle, unless the vendor already has an earlier one.
 */
function withReviewDate(profile: VendorProfile, patch: Pick<VendorProfilePatch, 'criticalityTier' | 'nextReviewDate'> | undefined): VendorProfile {
  if (!patch?.criticalityTier || patch.nextReviewDate !== undefined) return profile;
  const next = nextReviewAfter(today(), patch.criticalityTier);
  return profile.nextReviewDate && profile.nextReviewDate <= next ? profile : { ...profile, nextReviewDate: next };
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
  page(
    userId: string,
    q: PageRequest & { sort: WorkspaceSortField; descending: boolean; filters?: Omit<InventoryFilters, 'today'> },
  ): Promise<{ workspaces: WorkspaceListItem[]; pagination: ReturnType<typeof pagination> }>;
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

/** `syncStatus` per workspace from the providers' counts: syncing, else error, else active. */
function syncStatusOfCounts(workspaceIds: string[], reports: Map<string, SyncCounts>[]): Map<string, WorkspaceSyncStatus> {
  const totals = new Map<string, SyncCounts>(workspaceIds.map((id) => [id, { syncing: 0, failed: 0 }]));
  for (const counts of reports) {
    for (const [id, c] of counts) {
      const t = totals.get(id);
      if (!t) continue;
      t.syncing += c.syncing;
      t.failed += c.failed;
    }
  }
  return new Map([...totals].map(([id, t]) => [id, t.syncing > 0 ? 'syncing' : t.failed > 0 ? 'error' : 'active']));
}

/** Everyone with access as the detail shows them (users no longer found are left out). */
function memberViews(list: AccessEntry[], byId: Map<string, { id: string; name: string; email: string }>) {
  return list.flatMap((m) => {
    const u = byId.get(m.userId);
    if (!u) return [];
    return [
      {
        user: { id: u.id, name: u.name, email: u.email },
        role: m.eff.role,
        permissions: m.eff.permissions,
        status: m.status,
        membership: m.eff.membership,
        joinedAt: m.joinedAt.toISOString(),
      },
    ];
  });
}

/** The slug of a new workspace as asked for (never shaped like a UUID), or null to make one from the name. */
function requestedSlug(workspaceId: string | undefined): string | null {
  if (workspaceId === undefined) return null;
  if (UUID_RE.test(workspaceId)) {
    throw new AppError(400, 'VALIDATION_ERROR', 'Validation failed: workspaceId must not look like a UUID', ['workspaceId: must not look like a UUID']);
  }
  return workspaceId;
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
  const statsProviders: StatsProvider[] = [];
  const syncStateProviders: SyncStateProvider[] = [];
  const deletedHooks: WorkspaceDeletedHook[] = [];

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

  /** One workspace per vendor identifier within an organization. */
  async function assertNewVendor(orgId: string, p: Pick<VendorProfile, 'identifier'>, exceptId?: string) {
    if (!p.identifier) return;
    const dup = (await repo.withIdentifier(orgId, p.identifier.value)).filter((w) => w.id !== exceptId);
    if (dup.length) {
      throw new AppError(
        409,
        'VENDOR_ALREADY_REGISTERED',
        `A workspace for this vendor identifier already exists: ${dup[0].name}`,
        dup.map((w) => `${w.id}: ${w.name}`),
      );
    }
  }

  /** 409 CONTRACT_REFERENCE_TAKEN when a contract reference is already used by another vendor of the organization. */
  async function assertUniqueReferences(orgId: string, p: Pick<VendorProfile, 'contracts'>, exceptId?: string) {
    if (!p.contracts?.length) return;
    const mine = new Set(p.contracts.map((c) => c.reference));
    const taken = (await repo.contractsOf(orgId)).filter((r) => r.workspaceId !== exceptId && mine.has(String(r.contract.reference)));
    if (taken.length) throw contractReferenceTaken(String(taken[0]!.contract.reference), taken[0]!.workspaceName);
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
    const reports = workspaceIds.length ? await Promise.all(syncStateProviders.map((p) => p(workspaceIds))) : [];
    return syncStatusOfCounts(workspaceIds, reports);
  }
  const syncStatusOf = async (workspaceId: string) => (await syncStatuses([workspaceId])).get(workspaceId) ?? 'active';

  /**
   * List items (role, permissions, member count, sync status) of the workspaces the caller
   * can access: one statement for the organization, the page, the caller's memberships,
   * the member counts, the sync counts kept per workspace (`workspace_sync_counts`) and the total.
   */
  async function accessible(
    userId: string,
    q: { offset: number; limit: number | null; sort: WorkspaceSortField; descending: boolean; filters?: InventoryFilters },
  ) {
    const found = await repo.accessiblePage(userId, q);
    if (!found) throw onboardingRequired();
    const workspaces = found.rows.flatMap((row) => {
      const eff = effectiveAccess(row.workspace, userId, found.orgRole, row.member);
      return eff ? [listItemView(row, eff)] : [];
    });
    return { workspaces, total: found.total };
  }

  return {
    addStatsProvider(p) {
      statsProviders.push(p);
    },
    addSyncStateProvider(p) {
      syncStateProviders.push(p);
    },
    syncStatuses,
    onDeleted(h) {
      deletedHooks.push(h);
    },
    stats,

    async resolveAccess(userId, key) {
      const row = await repo.accessRow(key, userId);
      if (!row) return 'not_found';
      const eff = effectiveAccess(row.workspace, userId, row.orgRole, row.member);
      if (!eff || !row.orgRole) return 'denied';
      const ws = row.workspace;
      return { id: ws.id, workspaceId: ws.slug, name: ws.name, orgId: ws.orgId, ownerId: ws.ownerId, orgRole: row.orgRole, ...eff };
    },

    async list(userId) {
      return (await accessible(userId, { offset: 0, limit: null, sort: 'createdAt', descending: false })).workspaces;
    },

    async page(userId, q) {
      const filters = q.filters ? { ...q.filters, today: today() } : undefined;
      const { workspaces, total } = await accessible(userId, { offset: offsetOf(q), limit: q.limit, sort: q.sort, descending: q.descending, filters });
      return { workspaces, pagination: pagination(q, total) };
    },

    async inventoryKpis(userId) {
      const asOf = today();
      const sets = Object.fromEntries(PORTFOLIO_KPIS.map((k) => [k.key, k.filters])) as Record<KpiKey, KpiFilters>;
      const found = await repo.inventoryCounts(userId, asOf, sets);
      if (!found) throw onboardingRequired();
      return {
        asOf,
        vendors: found.vendors,
        questionnairesOutstanding: found.questionnairesOutstanding,
        questionnairesOverdue: found.questionnairesOverdue,
        kpis: PORTFOLIO_KPIS.map((k) => ({ key: k.key, label: k.label, value: found.counts[k.key], query: kpiQuery(k.filters) })),
      };
    },

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
        syncStatus: await syncStatusOf(ws.id),
        myRole: access.role,
        permissions: access.permissions,
        memberCount: list.length,
        owner: { id: ws.ownerId, name: owner?.name ?? '', email: owner?.email ?? '' },
        members: memberViews(list, byId),
        stats: await stats(ws.id),
      };
    },

    async update(scope, input) {
      const values: { name?: string; syncSchedule?: SyncSchedule; vendorOwnerId?: string | null; lifecycle?: LifecycleStatus } = {};
      if (input.workspaceName !== undefined) values.name = input.workspaceName.trim();
      if (input.syncSchedule !== undefined) values.syncSchedule = input.syncSchedule;
      if (input.lifecycle !== undefined) values.lifecycle = input.lifecycle;
      if (input.vendorOwnerId !== undefined) {
        if (input.vendorOwnerId !== null) {
          const ws = await repo.findByKey(scope.workspaceId);
          if (!ws) throw workspaceNotFound();
          const list = await members.accessList(ws);
          if (!list.some((m) => m.userId === input.vendorOwnerId)) {
            throw badRequest('vendorOwnerId: the vendor owner must be a user with access to this workspace', [
              'vendorOwnerId: not a user with access to this workspace',
            ]);
          }
        }
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
      return { ...workspaceView(row), syncStatus: await syncStatusOf(row.id) };
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
      for (const h of deletedHooks) await h({ id: scope.workspaceId, orgId: scope.orgId });
    },

    addMember: members.addMember,
    updateMember: members.updateMember,
    removeMember: members.removeMember,
    leave: members.leave,
    transfer: members.transfer,
  };
}
