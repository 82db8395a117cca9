import type { OrgRole } from '../../db/schema/organizations.js';
import { PERMISSION_FLAGS, type PermissionFlag, type Permissions, type WorkspaceRole } from '../../db/schema/workspaces.js';

export { PERMISSION_FLAGS, type PermissionFlag, type Permissions, type WorkspaceRole };

/**
 * The role matrix (docs/permissions.md). Each role is a strict superset of the one
 * below it. `canEditSettings` and `canDeleteWorkspace` are owner-level: held by the
 * owner only and never grantable to another role.
 */
export const ROLE_PERMISSIONS: Record<WorkspaceRole, Permissions> = {
  owner: { canQuery: true, canViewSources: true, canInvite: true, canManageSync: true, canEditSettings: true, canDeleteWorkspace: true },
  admin: { canQuery: true, canViewSources: true, canInvite: true, canManageSync: true, canEditSettings: false, canDeleteWorkspace: false },
  member: { canQuery: true, canViewSources: true, canInvite: false, canManageSync: true, canEditSettings: false, canDeleteWorkspace: false },
  viewer: { canQuery: true, canViewSources: true, canInvite: false, canManageSync: false, canEditSettings: false, canDeleteWorkspace: false },
};

/** Flags only the owner holds. */
export const OWNER_ONLY_FLAGS: readonly PermissionFlag[] = ['canEditSettings', 'canDeleteWorkspace'];

/** Organization role -> workspace role in every workspace of the organization. */
export const ORG_ROLE_TO_WORKSPACE_ROLE: Record<OrgRole, Exclude<WorkspaceRole, 'owner'>> = {
  org_admin: 'admin',
  analyst: 'member',
  viewer: 'viewer',
};

export const ROLE_RANK: Record<WorkspaceRole, number> = { viewer: 1, member: 2, admin: 3, owner: 4 };

export function defaultPermissions(role: WorkspaceRole): Permissions {
  return { ...ROLE_PERMISSIONS[role] };
}

/** A full flag set: the role's defaults with the given overrides (owner-only flags stay the role's). */
export function permissionsFor(role: WorkspaceRole, overrides: Partial<Permissions> = {}): Permissions {
  const out = defaultPermissions(role);
  for (const flag of PERMISSION_FLAGS) {
    if (OWNER_ONLY_FLAGS.includes(flag)) continue;
    const v = overrides[flag];
    if (typeof v === 'boolean') out[flag] = v;
  }
  return out;
}

/** Flag-wise OR. */
export function unionPermissions(a: Permissions, b: Permissions): Permissions {
  const out = { ...a };
  for (const flag of PERMISSION_FLAGS) out[flag] = a[flag] || b[flag];
  return out;
}

/** A stored flag set, normalized to the full set (unknown keys dropped, missing ones from the role). */
export function normalizePermissions(role: WorkspaceRole, stored: unknown): Permissions {
  const given = (stored && typeof stored === 'object' ? stored : {}) as Partial<Permissions>;
  return permissionsFor(role, given);
}
