import type { Permissions, WorkspaceRole } from '../../db/schema/workspaces.js';
import { reviewCycleMonths } from '../../domain/inventory.js';
import { readVendorProfile } from '../../domain/vendorProfile.js';
import type { WorkspaceAccess } from './access.js';
import type { AccessEntry, MemberView } from './members.js';
import type { WorkspaceStats, WorkspaceSyncStatus } from './providers.js';
import type { AccessibleWorkspace, WorkspaceRow } from './repository.js';

/** How a workspace reads in responses and to other modules: the stored rows under their API names. */

/** The stored fields under their API names; API responses add the derived `syncStatus`, other modules do not need it. */
export function workspaceView(ws: WorkspaceRow) {
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
export function listItemView({ workspace: ws, memberCount, sync, inventory: inv }: AccessibleWorkspace, eff: Pick<WorkspaceAccess, 'role' | 'permissions'>) {
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

/** Everyone with access as the detail shows them (users no longer found are left out). */
export function memberViews(list: AccessEntry[], byId: Map<string, { id: string; name: string; email: string }>) {
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
