import type { Permissions, WorkspaceRole } from '../../db/schema/workspaces.js';
import type { Scope } from '../../domain/scope.js';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.js';
import type { AuthService } from '../auth/service.js';
import type { NotificationsService } from '../notifications/service.js';
import type { OrganizationsService } from '../organizations/service.js';
import { checkGrant, checkTarget, effectiveAccess, type Effective, type WorkspaceAccess } from './access.js';
import { defaultPermissions, permissionsFor, ROLE_RANK } from './permissions.js';
import type { WorkspaceRow, WorkspacesRepository } from './repository.js';
import { workspaceNotFound } from '../../lib/requestAccess.js';

export { workspaceNotFound };
const memberNotFound = () => notFound('Member not found', 'MEMBER_NOT_FOUND');
const orgAdminKeepsAccess = (what: string) =>
  conflict(`Organization admins keep ${what} every workspace of the organization; change their organization role first`, 'ORG_ADMIN_ACCESS');

/** A member as the API shows it. */
export interface MemberView {
  user: { id: string; name: string; email: string };
  role: WorkspaceRole;
  permissions: Permissions;
  status: string;
  joinedAt: string;
}

/** Someone with access to a workspace: role and flags in effect, since when. */
export interface AccessEntry {
  userId: string;
  eff: Effective;
  status: string;
  joinedAt: Date;
}

/** Membership of a workspace: who has access, adding, changing and ending it, ownership. */
export interface WorkspaceMembers {
  /** Everyone with access to a workspace, with role and flags (owner first). */
  accessList(ws: WorkspaceRow): Promise<AccessEntry[]>;
  /** Adds a member of the organization with a role (default member) and optional flags; notifies them. */
  addMember(scope: Scope, access: WorkspaceAccess, input: { email: string; role?: WorkspaceRole; permissions?: Partial<Permissions> }): Promise<MemberView>;
  /** Changes a member's role and/or flags (not the owner's, not the caller's own). */
  updateMember(scope: Scope, access: WorkspaceAccess, userId: string, input: { role?: WorkspaceRole; permissions?: Partial<Permissions> }): Promise<MemberView>;
  /** Withdraws a member's access (a member removing themselves leaves). */
  removeMember(scope: Scope, access: WorkspaceAccess, userId: string): Promise<void>;
  /** The caller leaves the workspace (not the owner, not an org_admin). */
  leave(scope: Scope, access: WorkspaceAccess): Promise<void>;
  /** Transfers ownership to another member; the previous owner becomes admin. */
  transfer(scope: Scope, newOwnerId: string): Promise<void>;
}

export function workspaceMembers(deps: {
  repo: WorkspacesRepository;
  orgs: Pick<OrganizationsService, 'membersOf'>;
  users: Pick<AuthService, 'usersByIds' | 'findByEmail'>;
  notifications?: Pick<NotificationsService, 'notifyQuietly'>;
}): WorkspaceMembers {
  const { repo, orgs, users } = deps;

  async function accessList(ws: WorkspaceRow) {
    const [orgMembers, rows] = await Promise.all([orgs.membersOf(ws.orgId), repo.membersOf([ws.id])]);
    const byUser = new Map(rows.map((r) => [r.userId, r]));
    const out: AccessEntry[] = [];
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

  /** The scope's workspace row, or 404. */
  async function workspaceOf(scope: Scope) {
    const ws = await repo.findByKey(scope.workspaceId);
    if (!ws) throw workspaceNotFound();
    return ws;
  }

  /** A user who has access to the workspace, or 404. */
  async function accessOf(ws: WorkspaceRow, userId: string) {
    const found = (await accessList(ws)).find((m) => m.userId === userId);
    if (!found) throw memberNotFound();
    return found;
  }

  return {
    accessList,

    async addMember(scope, access, input) {
      const role = input.role ?? 'member';
      checkGrant(access, role, input.permissions);
      const user = await users.findByEmail(input.email);
      const orgMembers = await orgs.membersOf(scope.orgId);
      const om = user && orgMembers.find((m) => m.userId === user.id);
      if (!user || !om) {
        throw notFound('No member of this organization has this e-mail address; invite them to the organization first', 'USER_NOT_FOUND');
      }
      if (user.id === access.ownerId) throw conflict('This user is already a member of the workspace', 'ALREADY_MEMBER');
      if (om.role === 'org_admin' && ROLE_RANK[role] < ROLE_RANK.admin) throw orgAdminKeepsAccess('admin access to');
      const permissions = permissionsFor(role, input.permissions);
      const row = await repo.addMember(scope, { userId: user.id, role, permissions });
      if (row === 'exists') throw conflict('This user is already a member of the workspace', 'ALREADY_MEMBER');
      const eff = effectiveAccess({ ownerId: access.ownerId }, user.id, om.role, row)!;
      await deps.notifications?.notifyQuietly({
        userIds: [user.id],
        workspaceId: scope.workspaceId,
        type: 'invitation',
        title: `You were added to the workspace ${scope.workspaceName}`,
        body: `You can now work on ${scope.workspaceName} as ${eff.role}.`,
        data: {
          kind: 'workspace',
          workspaceId: scope.workspaceId,
          workspaceSlug: scope.slug,
          workspaceName: scope.workspaceName,
          role: eff.role,
          addedBy: scope.userId,
        },
      });
      return {
        user: { id: user.id, name: user.name, email: user.email },
        role: eff.role,
        permissions: eff.permissions,
        status: row.status,
        joinedAt: row.joinedAt.toISOString(),
      };
    },

    async updateMember(scope, access, userId, input) {
      const ws = await workspaceOf(scope);
      const target = await accessOf(ws, userId);
      if (userId === ws.ownerId) {
        throw new AppError(400, 'OWNER_IMMUTABLE', "The owner's role and permissions cannot be changed; transfer ownership instead");
      }
      if (userId === scope.userId) throw forbidden('Insufficient permission: you cannot change your own role or permissions', 'INSUFFICIENT_PERMISSION');
      checkTarget(access, target.eff.role);
      const role = input.role ?? (target.eff.role as Exclude<WorkspaceRole, 'owner'>);
      checkGrant(access, input.role, input.permissions);
      const orgRole = (await orgs.membersOf(scope.orgId)).find((m) => m.userId === userId)?.role ?? null;
      if (orgRole === 'org_admin' && ROLE_RANK[role] < ROLE_RANK.admin) throw orgAdminKeepsAccess('admin access to');
      // Without a new role the current flags are kept and the given ones applied on top.
      const base = input.role ? defaultPermissions(role) : target.eff.permissions;
      const permissions = permissionsFor(role, { ...base, ...input.permissions });
      const row = await repo.putMember(scope, { userId, role, permissions, joinedAt: target.joinedAt });
      const eff = effectiveAccess(ws, userId, orgRole, row)!;
      const u = (await users.usersByIds([userId])).get(userId);
      return {
        user: { id: userId, name: u?.name ?? '', email: u?.email ?? '' },
        role: eff.role,
        permissions: eff.permissions,
        status: row.status,
        joinedAt: row.joinedAt.toISOString(),
      };
    },

    async removeMember(scope, access, userId) {
      const ws = await workspaceOf(scope);
      const target = await accessOf(ws, userId);
      if (userId === ws.ownerId) {
        throw new AppError(400, 'OWNER_CANNOT_BE_REMOVED', 'The owner cannot be removed from the workspace; transfer ownership first');
      }
      if (userId !== scope.userId) checkTarget(access, target.eff.role);
      const orgRole = (await orgs.membersOf(scope.orgId)).find((m) => m.userId === userId)?.role;
      if (orgRole === 'org_admin') throw orgAdminKeepsAccess('access to');
      await repo.endMembership(scope, {
        userId,
        status: userId === scope.userId ? 'left' : 'removed',
        role: target.eff.role,
        permissions: target.eff.permissions,
        joinedAt: target.joinedAt,
      });
    },

    async leave(scope, access) {
      if (access.role === 'owner') throw new AppError(400, 'OWNER_CANNOT_LEAVE', 'The owner cannot leave the workspace; transfer ownership first');
      if (access.orgRole === 'org_admin') throw orgAdminKeepsAccess('access to');
      const ws = await workspaceOf(scope);
      const me = await accessOf(ws, scope.userId);
      await repo.endMembership(scope, { userId: scope.userId, status: 'left', role: me.eff.role, permissions: me.eff.permissions, joinedAt: me.joinedAt });
    },

    async transfer(scope, newOwnerId) {
      if (newOwnerId === scope.userId) {
        throw new AppError(400, 'VALIDATION_ERROR', 'Validation failed: newOwnerId is already the owner', ['newOwnerId: is already the owner']);
      }
      const ws = await workspaceOf(scope);
      const target = (await accessList(ws)).find((m) => m.userId === newOwnerId);
      if (!target) {
        throw new AppError(400, 'NOT_A_MEMBER', 'Validation failed: newOwnerId must be a member of this workspace', [
          'newOwnerId: must be a member of this workspace',
        ]);
      }
      const result = await repo.transfer(scope, newOwnerId, { owner: defaultPermissions('owner'), admin: defaultPermissions('admin') }, target.joinedAt);
      if (result === 'not_owner') throw forbidden('Insufficient permission: only the owner can transfer ownership', 'INSUFFICIENT_PERMISSION');
    },
  };
}
