import { and, asc, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { organizationInvitations, organizationMembers, organizations, type OrgRole } from '../../db/schema/organizations.js';
import { workspaceMembers, workspaces } from '../../db/schema/workspaces.js';

export type OrganizationRow = typeof organizations.$inferSelect;
export type OrgMemberRow = typeof organizationMembers.$inferSelect;
export type InvitationRow = typeof organizationInvitations.$inferSelect;

/** Orders of `GET /organizations/:id/members`. */
export const MEMBER_SORT_COLUMNS = { joinedAt: organizationMembers.joinedAt, role: organizationMembers.role } as const;
export type MemberSortField = keyof typeof MEMBER_SORT_COLUMNS;
/** Orders of `GET /organizations/:id/invitations`. */
export const INVITATION_SORT_COLUMNS = {
  createdAt: organizationInvitations.createdAt,
  expiresAt: organizationInvitations.expiresAt,
  email: organizationInvitations.email,
} as const;
export type InvitationSortField = keyof typeof INVITATION_SORT_COLUMNS;

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return String(e?.code ?? e?.cause?.code) === '23505';
};

/**
 * All SQL of organizations, their members and invitations. Organizations and vendor
 * workspaces form one tenancy domain: revoking an organization member also
 * ends that user's explicit memberships of the organization's workspaces, in the same
 * transaction.
 */
export function organizationsRepository(db: Db) {
  return {
    /** Creates the organization with its first member (org_admin); null when the user already belongs to one. */
    async createWithAdmin(values: { name: string; lei: string | null; country: string | null }, userId: string): Promise<OrganizationRow | null> {
      try {
        return await db.transaction(async (tx) => {
          const [org] = await tx
            .insert(organizations)
            .values({ ...values, createdBy: userId })
            .returning();
          await tx.insert(organizationMembers).values({ orgId: org.id, userId, role: 'org_admin' });
          return org;
        });
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
    },
    async findById(id: string): Promise<OrganizationRow | null> {
      const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
      return row ?? null;
    },
    async update(id: string, values: Partial<Pick<OrganizationRow, 'name' | 'lei' | 'country'>>): Promise<OrganizationRow | null> {
      const [row] = await db
        .update(organizations)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(organizations.id, id))
        .returning();
      return row ?? null;
    },
    /** The caller's organization membership (a user belongs to at most one). */
    async membershipOf(userId: string): Promise<OrgMemberRow | null> {
      const [row] = await db.select().from(organizationMembers).where(eq(organizationMembers.userId, userId));
      return row ?? null;
    },
    async member(orgId: string, userId: string): Promise<OrgMemberRow | null> {
      const [row] = await db
        .select()
        .from(organizationMembers)
        .where(and(eq(organizationMembers.orgId, orgId), eq(organizationMembers.userId, userId)));
      return row ?? null;
    },
    async members(orgId: string): Promise<OrgMemberRow[]> {
      return db
        .select()
        .from(organizationMembers)
        .where(eq(organizationMembers.orgId, orgId))
        .orderBy(asc(organizationMembers.joinedAt), asc(organizationMembers.userId));
    },
    /** One page of the members, in SQL (`sort`: `joinedAt` or `role`; ties by join time, then user id). */
    async memberPage(
      orgId: string,
      q: { offset: number; limit: number; sort: MemberSortField; descending: boolean },
    ): Promise<{ rows: OrgMemberRow[]; total: number }> {
      const where = eq(organizationMembers.orgId, orgId);
      const col = MEMBER_SORT_COLUMNS[q.sort];
      const [rows, [n]] = await Promise.all([
        db
          .select()
          .from(organizationMembers)
          .where(where)
          .orderBy(q.descending ? desc(col) : asc(col), asc(organizationMembers.joinedAt), asc(organizationMembers.userId))
          .limit(q.limit)
          .offset(q.offset),
        db.select({ n: count() }).from(organizationMembers).where(where),
      ]);
      return { rows, total: Number(n?.n ?? 0) };
    },
    async countAdmins(orgId: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(organizationMembers)
        .where(and(eq(organizationMembers.orgId, orgId), eq(organizationMembers.role, 'org_admin')));
      return Number(row?.n ?? 0);
    },
    /**
     * Changes a member's role. Refuses (returns 'last_admin') to demote the last
     * org_admin; the check and the update run in one transaction with the admin rows locked.
     */
    async setRole(orgId: string, userId: string, role: OrgRole): Promise<OrgMemberRow | 'last_admin' | null> {
      return db.transaction(async (tx) => {
        const admins = await tx
          .select({ userId: organizationMembers.userId })
          .from(organizationMembers)
          .where(and(eq(organizationMembers.orgId, orgId), eq(organizationMembers.role, 'org_admin')))
          .for('update');
        if (role !== 'org_admin' && admins.length === 1 && admins[0].userId === userId) return 'last_admin' as const;
        const [row] = await tx
          .update(organizationMembers)
          .set({ role, updatedAt: new Date() })
          .where(and(eq(organizationMembers.orgId, orgId), eq(organizationMembers.userId, userId)))
          .returning();
        if (row && role === 'org_admin') {
          // An org_admin keeps admin access to every workspace: withdrawn access no longer applies.
          const ids = tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.orgId, orgId));
          await tx
            .delete(workspaceMembers)
            .where(and(eq(workspaceMembers.userId, userId), inArray(workspaceMembers.workspaceId, ids), sql`${workspaceMembers.status} <> 'active'`));
        }
        return row ?? null;
      });
    },
    /**
     * Ends a membership and the user's explicit memberships of the organization's
     * workspaces. Returns 'owns_workspaces' (nothing changed) when the user still owns
     * workspaces, 'last_admin' when it is the last org_admin.
     */
    async removeMember(orgId: string, userId: string): Promise<'removed' | 'not_found' | 'owns_workspaces' | 'last_admin'> {
      return db.transaction(async (tx) => {
        const [m] = await tx
          .select()
          .from(organizationMembers)
          .where(and(eq(organizationMembers.orgId, orgId), eq(organizationMembers.userId, userId)))
          .for('update');
        if (!m) return 'not_found' as const;
        const owned = await tx
          .select({ id: workspaces.id })
          .from(workspaces)
          .where(and(eq(workspaces.orgId, orgId), eq(workspaces.ownerId, userId)));
        if (owned.length > 0) return 'owns_workspaces' as const;
        if (m.role === 'org_admin') {
          const admins = await tx
            .select({ userId: organizationMembers.userId })
            .from(organizationMembers)
            .where(and(eq(organizationMembers.orgId, orgId), eq(organizationMembers.role, 'org_admin')))
            .for('update');
          if (admins.length <= 1) return 'last_admin' as const;
        }
        const ids = tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.orgId, orgId));
        await tx.delete(workspaceMembers).where(and(eq(workspaceMembers.userId, userId), inArray(workspaceMembers.workspaceId, ids)));
        await tx.delete(organizationMembers).where(and(eq(organizationMembers.orgId, orgId), eq(organizationMembers.userId, userId)));
        return 'removed' as const;
      });
    },
    /** Workspaces of the organization owned by a user (ids and names). */
    async workspacesOwnedBy(orgId: string, userId: string): Promise<{ id: string; name: string }[]> {
      return db
        .select({ id: workspaces.id, name: workspaces.name })
        .from(workspaces)
        .where(and(eq(workspaces.orgId, orgId), eq(workspaces.ownerId, userId)));
    },

    async insertInvitation(values: {
      orgId: string;
      email: string;
      role: OrgRole;
      tokenHash: string;
      invitedBy: string;
      expiresAt: Date;
    }): Promise<InvitationRow> {
      return db.transaction(async (tx) => {
        // A new invitation supersedes pending ones for the same address.
        await tx
          .update(organizationInvitations)
          .set({ revokedAt: new Date() })
          .where(
            and(
              eq(organizationInvitations.orgId, values.orgId),
              eq(organizationInvitations.email, values.email),
              isNull(organizationInvitations.acceptedAt),
              isNull(organizationInvitations.revokedAt),
            ),
          );
        const [row] = await tx.insert(organizationInvitations).values(values).returning();
        return row;
      });
    },
    async findPendingInvitation(tokenHash: string): Promise<InvitationRow | null> {
      const [row] = await db
        .select()
        .from(organizationInvitations)
        .where(
          and(
            eq(organizationInvitations.tokenHash, tokenHash),
            isNull(organizationInvitations.acceptedAt),
            isNull(organizationInvitations.revokedAt),
            gt(organizationInvitations.expiresAt, new Date()),
          ),
        );
      return row ?? null;
    },
    /** One page of the pending invitations (not accepted, revoked or expired), in SQL. */
    async pendingInvitations(
      orgId: string,
      q: { offset: number; limit: number; sort: InvitationSortField; descending: boolean },
    ): Promise<{ rows: InvitationRow[]; total: number }> {
      const where = and(
        eq(organizationInvitations.orgId, orgId),
        isNull(organizationInvitations.acceptedAt),
        isNull(organizationInvitations.revokedAt),
        gt(organizationInvitations.expiresAt, new Date()),
      );
      const col = INVITATION_SORT_COLUMNS[q.sort];
      const [rows, [n]] = await Promise.all([
        db
          .select()
          .from(organizationInvitations)
          .where(where)
          .orderBy(q.descending ? desc(col) : asc(col), asc(organizationInvitations.createdAt), asc(organizationInvitations.id))
          .limit(q.limit)
          .offset(q.offset),
        db.select({ n: count() }).from(organizationInvitations).where(where),
      ]);
      return { rows, total: Number(n?.n ?? 0) };
    },
    async revokeInvitation(orgId: string, id: string): Promise<boolean> {
      const rows = await db
        .update(organizationInvitations)
        .set({ revokedAt: new Date() })
        .where(
          and(
            eq(organizationInvitations.orgId, orgId),
            eq(organizationInvitations.id, id),
            isNull(organizationInvitations.acceptedAt),
            isNull(organizationInvitations.revokedAt),
          ),
        )
        .returning({ id: organizationInvitations.id });
      return rows.length === 1;
    },
    /**
     * Accepts an invitation: consumes it (single use, not expired, e-mail must match)
     * and adds the user to the organization, atomically. Returns the membership, or
     * 'invalid' / 'already_member' with nothing changed.
     */
    async acceptInvitation(tokenHash: string, user: { id: string; email: string }): Promise<OrgMemberRow | 'invalid' | 'email_mismatch' | 'already_member'> {
      return db.transaction(async (tx) => {
        const [inv] = await tx
          .select()
          .from(organizationInvitations)
          .where(
            and(
              eq(organizationInvitations.tokenHash, tokenHash),
              isNull(organizationInvitations.acceptedAt),
              isNull(organizationInvitations.revokedAt),
              gt(organizationInvitations.expiresAt, new Date()),
            ),
          )
          .for('update');
        if (!inv) return 'invalid' as const;
        if (inv.email !== user.email.toLowerCase()) return 'email_mismatch' as const;
        const [existing] = await tx.select().from(organizationMembers).where(eq(organizationMembers.userId, user.id));
        if (existing) return 'already_member' as const;
        await tx.update(organizationInvitations).set({ acceptedAt: new Date(), acceptedBy: user.id }).where(eq(organizationInvitations.id, inv.id));
        const [m] = await tx.insert(organizationMembers).values({ orgId: inv.orgId, userId: user.id, role: inv.role, invitedBy: inv.invitedBy }).returning();
        // Leftovers of an earlier membership of this organization do not come back.
        const ids = tx.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.orgId, inv.orgId));
        await tx.delete(workspaceMembers).where(and(eq(workspaceMembers.userId, user.id), inArray(workspaceMembers.workspaceId, ids)));
        return m;
      });
    },
  };
}
export type OrganizationsRepository = ReturnType<typeof organizationsRepository>;
