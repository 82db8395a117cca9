import type { OrgRole } from '../../db/schema/organizations.js';
import type { Permissions, WorkspaceRole } from '../../db/schema/workspaces.js';
import { AppError, forbidden } from '../../lib/errors.js';
import {
  defaultPermissions,
  normalizePermissions,
  ORG_ROLE_TO_WORKSPACE_ROLE,
  OWNER_ONLY_FLAGS,
  PERMISSION_FLAGS,
  ROLE_RANK,
  unionPermissions,
} from './permissions.js';
import type { WorkspaceMemberRow, WorkspaceRow } from './repository.js';
import type { WorkspaceAccess } from '../../lib/requestAccess.js';

export type { WorkspaceAccess };

export interface Effective {
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

/** What the caller may grant: roles below theirs (any for the owner), flags they hold, never owner-only flags. */
export function checkGrant(ctx: WorkspaceAccess, role: WorkspaceRole | undefined, permissions: Partial<Permissions> | undefined) {
  if (role === 'owner') {
    throw new AppError(400, 'VALIDATION_ERROR', 'Validation failed: role owner is given with POST /workspaces/:id/transfer', [
      'role: owner is given by transferring ownership',
    ]);
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

/** Whom the caller may manage: members below them (anyone for the owner). */
export function checkTarget(ctx: WorkspaceAccess, targetRole: WorkspaceRole) {
  if (ctx.role !== 'owner' && ROLE_RANK[targetRole] >= ROLE_RANK[ctx.role]) {
    throw forbidden(`Insufficient permission: a ${ctx.role} can only manage members below ${ctx.role}`, 'INSUFFICIENT_PERMISSION');
  }
}
