import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizationMembers, type OrgRole } from '../../db/schema/organizations.js';
import { workspaceMembers, workspaces, type Permissions, type SyncSchedule, type WorkspaceRole } from '../../db/schema/workspaces.js';

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type WorkspaceMemberRow = typeof workspaceMembers.$inferSelect;

/** The constraint a unique violation hit (postgres-js: constraint_name, PGlite: constraint), else null. */
function uniqueViolation(err: unknown): string | null {
  for (let e = err as Record<string, unknown> | undefined, i = 0; e && i < 4; e = e.cause as Record<string, unknown> | undefined, i++) {
    if (String(e.code) === '23505') return String(e.constraint_name ?? e.constraint ?? 'unknown');
  }
  return null;
}
const conflictOf = (err: unknown): 'slug_taken' | 'name_taken' | null => {
  const c = uniqueViolation(err);
  if (!c) return null;
  return c.includes('name') ? 'name_taken' : 'slug_taken';
};

/** `X-Workspace-Id` / `:id` may hold the opaque id or the human-readable `workspace_id`. */
const byKey = (key: string) => or(eq(workspaces.id, key), eq(workspaces.workspaceId, key));

export interface AccessRow {
  workspace: WorkspaceRow;
  orgRole: OrgRole | null;
  member: { role: WorkspaceRole; permissions: Permissions; status: string } | null;
}

/**
 * All SQL of vendor workspaces and their memberships. Access resolution reads the
 * caller's organization membership in the same query (one tenancy domain, issue #3).
 */
export function workspacesRepository(db: Db) {
  return {
    /** Creates the workspace and the owner's membership; 'slug_taken' when `workspace_id` exists. */
    async insertWithOwner(values: {
      orgId: string;
      ownerId: string;
      name: string;
      workspaceId: string;
      syncSchedule: SyncSchedule;
      vendorProfile: Record<string, unknown>;
      ownerPermissions: Permissions;
    }): Promise<WorkspaceRow | 'slug_taken' | 'name_taken'> {
      try {
        return await db.transaction(async (tx) => {
          const { ownerPermissions, ...ws } = values;
          const [row] = await tx.insert(workspaces).values(ws).returning();
          await tx.insert(workspaceMembers).values({ workspaceId: row.id, userId: values.ownerId, role: 'owner', permissions: ownerPermissions, addedBy: values.ownerId });
          return row;
        });
      } catch (err) {
        const c = conflictOf(err);
        if (c) return c;
        throw err;
      }
    },
    async slugExists(slug: string): Promise<boolean> {
      const [row] = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.workspaceId, slug));
      return !!row;
    },
    /** Workspaces whose sync schedule is enabled (read by the sync scheduler, docs/sync-schedule.md). */
    async withScheduleEnabled(): Promise<{ id: string; syncSchedule: SyncSchedule }[]> {
      return db
        .select({ id: workspaces.id, syncSchedule: workspaces.syncSchedule })
        .from(workspaces)
        .where(sql`(${workspaces.syncSchedule}->>'enabled')::boolean IS TRUE`);
    },
    /** Workspaces by opaque id, in one query (register export). */
    async findByIds(ids: string[]): Promise<WorkspaceRow[]> {
      if (!ids.length) return [];
      return db.select().from(workspaces).where(inArray(workspaces.id, ids));
    },
    async findByKey(key: string): Promise<WorkspaceRow | null> {
      const [row] = await db.select().from(workspaces).where(byKey(key)).limit(1);
      return row ?? null;
    },
    /** The workspace with the caller's organization role (in its organization) and explicit membership. */
    async accessRow(key: string, userId: string): Promise<AccessRow | null> {
      const [row] = await db
        .select({
          workspace: workspaces,
          orgRole: organizationMembers.role,
          memberRole: workspaceMembers.role,
          memberPermissions: workspaceMembers.permissions,
          memberStatus: workspaceMembers.status,
        })
        .from(workspaces)
        .leftJoin(organizationMembers, and(eq(organizationMembers.orgId, workspaces.orgId), eq(organizationMembers.userId, userId)))
        .leftJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, userId)))
        .where(byKey(key))
        .limit(1);
      if (!row) return null;
      return {
        workspace: row.workspace,
        orgRole: row.orgRole ?? null,
        member: row.memberRole ? { role: row.memberRole, permissions: row.memberPermissions!, status: row.memberStatus! } : null,
      };
    },
    /** Workspaces of an organization with the caller's explicit membership, oldest first. */
    async listForOrg(orgId: string, userId: string): Promise<{ workspace: WorkspaceRow; member: WorkspaceMemberRow | null }[]> {
      const rows = await db
        .select({ workspace: workspaces, member: workspaceMembers })
        .from(workspaces)
        .leftJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, userId)))
        .where(eq(workspaces.orgId, orgId))
        .orderBy(asc(workspaces.createdAt), asc(workspaces.id));
      return rows;
    },
    /** Explicit membership rows (any status) of the given workspaces. */
    async membersOf(workspaceIds: string[]): Promise<WorkspaceMemberRow[]> {
      if (workspaceIds.length === 0) return [];
      return db.select().from(workspaceMembers).where(inArray(workspaceMembers.workspaceId, workspaceIds)).orderBy(asc(workspaceMembers.joinedAt), asc(workspaceMembers.userId));
    },
    async member(workspaceId: string, userId: string): Promise<WorkspaceMemberRow | null> {
      const [row] = await db.select().from(workspaceMembers).where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
      return row ?? null;
    },
    /**
     * Updates a workspace in one transaction; `profile` computes the new vendor profile
     * from the locked current one (it may throw to abort with nothing changed).
     * 'name_taken' when another workspace of the organization has that name.
     */
    async update(
      id: string,
      values: Partial<Pick<WorkspaceRow, 'name' | 'syncSchedule'>>,
      profile?: (current: Record<string, unknown>) => Record<string, unknown>,
    ): Promise<WorkspaceRow | null | 'name_taken'> {
      try {
        return await db.transaction(async (tx) => {
          const [cur] = await tx.select().from(workspaces).where(eq(workspaces.id, id)).for('update');
          if (!cur) return null;
          const vendorProfile = profile ? profile(cur.vendorProfile) : undefined;
          const [row] = await tx
            .update(workspaces)
            .set({ ...values, ...(vendorProfile ? { vendorProfile } : {}), updatedAt: new Date() })
            .where(eq(workspaces.id, id))
            .returning();
          return row ?? null;
        });
      } catch (err) {
        if (conflictOf(err) === 'name_taken') return 'name_taken' as const;
        throw err;
      }
    },
    /** Workspaces of an organization whose vendor identifier has this value (duplicate vendor check). */
    async withIdentifier(orgId: string, value: string): Promise<{ id: string; name: string }[]> {
      return db
        .select({ id: workspaces.id, name: workspaces.name })
        .from(workspaces)
        .where(and(eq(workspaces.orgId, orgId), sql`${workspaces.vendorProfile}->'identifier'->>'value' = ${value}`));
    },
    /** Deletes the workspace; every table referencing workspaces.id cascades. */
    async delete(id: string): Promise<boolean> {
      const rows = await db.delete(workspaces).where(eq(workspaces.id, id)).returning({ id: workspaces.id });
      return rows.length === 1;
    },
    /**
     * Creates or re-activates an explicit membership. 'exists' when an active one exists
     * (nothing changed).
     */
    async addMember(values: { workspaceId: string; userId: string; role: WorkspaceRole; permissions: Permissions; addedBy: string }): Promise<WorkspaceMemberRow | 'exists'> {
      return db.transaction(async (tx) => {
        const [cur] = await tx
          .select()
          .from(workspaceMembers)
          .where(and(eq(workspaceMembers.workspaceId, values.workspaceId), eq(workspaceMembers.userId, values.userId)))
          .for('update');
        if (cur?.status === 'active') return 'exists' as const;
        if (cur) {
          const [row] = await tx
            .update(workspaceMembers)
            .set({ role: values.role, permissions: values.permissions, status: 'active', addedBy: values.addedBy, joinedAt: new Date(), updatedAt: new Date() })
            .where(and(eq(workspaceMembers.workspaceId, values.workspaceId), eq(workspaceMembers.userId, values.userId)))
            .returning();
          return row;
        }
        const [row] = await tx.insert(workspaceMembers).values({ ...values, status: 'active' }).returning();
        return row;
      });
    },
    /** Writes an explicit membership (role + flags), creating the row when the access was implicit. */
    async putMember(values: { workspaceId: string; userId: string; role: WorkspaceRole; permissions: Permissions; addedBy: string; joinedAt: Date }): Promise<WorkspaceMemberRow> {
      const [row] = await db
        .insert(workspaceMembers)
        .values({ ...values, status: 'active' })
        .onConflictDoUpdate({
          target: [workspaceMembers.workspaceId, workspaceMembers.userId],
          set: { role: values.role, permissions: values.permissions, status: 'active', updatedAt: new Date() },
        })
        .returning();
      return row;
    },
    /**
     * Ends a membership: the row stays with status `removed` or `left` so that access
     * implied by the organization role is withdrawn too.
     */
    async endMembership(values: { workspaceId: string; userId: string; status: 'removed' | 'left'; role: WorkspaceRole; permissions: Permissions; by: string; joinedAt: Date }): Promise<void> {
      await db
        .insert(workspaceMembers)
        .values({ workspaceId: values.workspaceId, userId: values.userId, role: values.role, permissions: values.permissions, status: values.status, addedBy: values.by, joinedAt: values.joinedAt })
        .onConflictDoUpdate({ target: [workspaceMembers.workspaceId, workspaceMembers.userId], set: { status: values.status, updatedAt: new Date() } });
    },
    /**
     * Makes `toUserId` the owner and the previous owner an admin, atomically; 'not_owner'
     * when `fromUserId` is no longer the owner (nothing changed).
     */
    async transfer(workspaceId: string, fromUserId: string, toUserId: string, perms: { owner: Permissions; admin: Permissions }, toJoinedAt: Date): Promise<'ok' | 'not_owner'> {
      return db.transaction(async (tx) => {
        const [ws] = await tx.select().from(workspaces).where(eq(workspaces.id, workspaceId)).for('update');
        if (!ws || ws.ownerId !== fromUserId) return 'not_owner' as const;
        await tx.update(workspaces).set({ ownerId: toUserId, updatedAt: new Date() }).where(eq(workspaces.id, workspaceId));
        await tx
          .update(workspaceMembers)
          .set({ role: 'admin', permissions: perms.admin, status: 'active', updatedAt: new Date() })
          .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, fromUserId)));
        await tx
          .insert(workspaceMembers)
          .values({ workspaceId, userId: toUserId, role: 'owner', permissions: perms.owner, status: 'active', addedBy: fromUserId, joinedAt: toJoinedAt })
          .onConflictDoUpdate({ target: [workspaceMembers.workspaceId, workspaceMembers.userId], set: { role: 'owner', permissions: perms.owner, status: 'active', updatedAt: new Date() } });
        return 'ok' as const;
      });
    },
    /** Per workspace, users whose access was withdrawn (status removed/left). */
    async withdrawn(workspaceIds: string[]): Promise<{ workspaceId: string; userId: string }[]> {
      if (workspaceIds.length === 0) return [];
      return db
        .select({ workspaceId: workspaceMembers.workspaceId, userId: workspaceMembers.userId })
        .from(workspaceMembers)
        .where(and(inArray(workspaceMembers.workspaceId, workspaceIds), sql`${workspaceMembers.status} <> 'active'`));
    },
  };
}
export type WorkspacesRepository = ReturnType<typeof workspacesRepository>;
