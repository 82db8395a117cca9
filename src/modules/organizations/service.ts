import type { Config } from '../../config.js';
import type { OrgRole } from '../../db/schema/organizations.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { newSecret, sha256 } from '../../lib/ids.js';
import type { Mailer } from '../../lib/mailer.js';
import type { AuthService } from '../auth/service.js';
import type { NotificationsService } from '../notifications/service.js';
import { isCountryCode, isValidLei } from '../../domain/vendorProfile.js';
import type { OrganizationRow, OrganizationsRepository, OrgMemberRow } from './repository.js';
import { offsetOf, pagination, type PageRequest } from '../../domain/paging.js';
import type { InvitationSortField, MemberSortField } from './repository.js';

export interface OrgMembership {
  orgId: string;
  role: OrgRole;
  joinedAt: Date;
}

export const onboardingRequired = () =>
  new AppError(403, 'ONBOARDING_REQUIRED', 'You do not belong to an organization yet: create one with POST /organizations or accept an invitation');

const orgAccessDenied = () => forbidden('Access denied to this organization', 'ORGANIZATION_ACCESS_DENIED');
const orgAdminOnly = () => forbidden('Insufficient permission: only an org_admin can do this', 'INSUFFICIENT_PERMISSION');

/** LEI check digits and the country code list (the schema checks the shapes). */
function checkOrgFields(input: { lei?: string | null; country?: string | null }) {
  const problems: string[] = [];
  if (input.lei && !isValidLei(input.lei)) problems.push('lei: not a valid LEI (20 characters, ISO 17442 check digits)');
  if (input.country && !isCountryCode(input.country)) problems.push(`country: ${input.country} is not an ISO 3166-1 alpha-2 country code`);
  if (problems.length) throw badRequest(problems.join('; '), problems);
}

type Users = Pick<AuthService, 'usersByIds' | 'findByEmail'>;

export function organizationsService(deps: {
  repo: OrganizationsRepository;
  users: Users;
  mailer: Mailer;
  config: Pick<Config, 'invitationTtlSec' | 'publicUrl'>;
  /** In-app notice to an invited user who already has an account (docs/notifications.md). */
  notifications?: Pick<NotificationsService, 'notifyQuietly'>;
}) {
  const { repo, users, mailer, config } = deps;

  async function shape(org: OrganizationRow, myRole: OrgRole) {
    const members = await repo.members(org.id);
    return {
      id: org.id,
      name: org.name,
      lei: org.lei,
      country: org.country,
      myRole,
      memberCount: members.length,
      createdAt: org.createdAt.toISOString(),
      updatedAt: org.updatedAt.toISOString(),
    };
  }

  /** The caller's membership of `orgId`: 404 when unknown, 403 when it is another organization. */
  async function membershipIn(orgId: string, userId: string): Promise<OrgMemberRow> {
    const m = await repo.member(orgId, userId);
    if (m) return m;
    if (!(await repo.findById(orgId))) throw notFound('Organization not found', 'ORGANIZATION_NOT_FOUND');
    throw orgAccessDenied();
  }
  async function adminIn(orgId: string, userId: string): Promise<OrgMemberRow> {
    const m = await membershipIn(orgId, userId);
    if (m.role !== 'org_admin') throw orgAdminOnly();
    return m;
  }

  async function memberView(rows: OrgMemberRow[]) {
    const byId = await users.usersByIds(rows.map((r) => r.userId));
    return rows.flatMap((r) => {
      const u = byId.get(r.userId);
      if (!u) return [];
      return [{ user: { id: u.id, name: u.name, email: u.email }, role: r.role, status: r.status, joinedAt: r.joinedAt.toISOString() }];
    });
  }

  return {
    /** The caller's organization membership, or null before onboarding. */
    async membershipOf(userId: string): Promise<OrgMembership | null> {
      const m = await repo.membershipOf(userId);
      return m && { orgId: m.orgId, role: m.role, joinedAt: m.joinedAt };
    },
    /** Like membershipOf, but a user without organization gets 403 ONBOARDING_REQUIRED. */
    async requireMembership(userId: string): Promise<OrgMembership> {
      const m = await repo.membershipOf(userId);
      if (!m) throw onboardingRequired();
      return { orgId: m.orgId, role: m.role, joinedAt: m.joinedAt };
    },
    /** Members of an organization (for workspace member lists). */
    async membersOf(orgId: string): Promise<{ userId: string; role: OrgRole; joinedAt: Date }[]> {
      return (await repo.members(orgId)).map((m) => ({ userId: m.userId, role: m.role, joinedAt: m.joinedAt }));
    },

    async create(userId: string, input: { name: string; lei?: string | null; country?: string | null }) {
      checkOrgFields(input);
      if (await repo.membershipOf(userId)) throw conflict('You already belong to an organization', 'ALREADY_IN_ORGANIZATION');
      const org = await repo.createWithAdmin({ name: input.name.trim(), lei: input.lei ?? null, country: input.country ?? null }, userId);
      if (!org) throw conflict('You already belong to an organization', 'ALREADY_IN_ORGANIZATION');
      return shape(org, 'org_admin');
    },

    async mine(userId: string) {
      const m = await repo.membershipOf(userId);
      if (!m) throw onboardingRequired();
      const org = await repo.findById(m.orgId);
      if (!org) throw onboardingRequired();
      return shape(org, m.role);
    },

    async update(orgId: string, userId: string, input: { name?: string; lei?: string | null; country?: string | null }) {
      const m = await adminIn(orgId, userId);
      checkOrgFields(input);
      const values: { name?: string; lei?: string | null; country?: string | null } = {};
      if (input.name !== undefined) values.name = input.name.trim();
      if (input.lei !== undefined) values.lei = input.lei;
      if (input.country !== undefined) values.country = input.country;
      const org = await repo.update(orgId, values);
      if (!org) throw notFound('Organization not found', 'ORGANIZATION_NOT_FOUND');
      return shape(org, m.role);
    },

    /** A page of the members (any member of the organization may list them). */
    async members(orgId: string, userId: string, q: PageRequest & { sort: MemberSortField; descending: boolean }) {
      await membershipIn(orgId, userId);
      const { rows, total } = await repo.memberPage(orgId, { offset: offsetOf(q), limit: q.limit, sort: q.sort, descending: q.descending });
      return { members: await memberView(rows), pagination: pagination(q, total) };
    },

    async changeRole(orgId: string, userId: string, memberId: string, role: OrgRole) {
      await adminIn(orgId, userId);
      const result = await repo.setRole(orgId, memberId, role);
      if (result === null) throw notFound('Member not found', 'MEMBER_NOT_FOUND');
      if (result === 'last_admin') throw conflict('The organization must keep at least one org_admin', 'LAST_ORG_ADMIN');
      return (await memberView([result]))[0];
    },

    /** Revokes a membership (an org_admin, or the member themself leaving). */
    async removeMember(orgId: string, userId: string, memberId: string) {
      const caller = await membershipIn(orgId, userId);
      if (memberId !== userId && caller.role !== 'org_admin') throw orgAdminOnly();
      const result = await repo.removeMember(orgId, memberId);
      if (result === 'not_found') throw notFound('Member not found', 'MEMBER_NOT_FOUND');
      if (result === 'last_admin') throw conflict('The organization must keep at least one org_admin', 'LAST_ORG_ADMIN');
      if (result === 'owns_workspaces') {
        const owned = await repo.workspacesOwnedBy(orgId, memberId);
        throw new AppError(
          409,
          'MEMBER_OWNS_WORKSPACES',
          'This member owns workspaces: transfer their ownership first',
          owned.map((w) => `${w.id}: ${w.name}`),
        );
      }
    },

    async invite(orgId: string, userId: string, input: { email: string; role?: OrgRole }) {
      await adminIn(orgId, userId);
      const email = input.email.trim().toLowerCase();
      const role: OrgRole = input.role ?? 'analyst';
      const existing = await users.findByEmail(email);
      if (existing) {
        const m = await repo.membershipOf(existing.id);
        if (m?.orgId === orgId) throw conflict('This user is already a member of the organization', 'ALREADY_MEMBER');
        if (m) throw conflict('This user already belongs to another organization', 'USER_IN_OTHER_ORGANIZATION');
      }
      const org = await repo.findById(orgId);
      if (!org) throw notFound('Organization not found', 'ORGANIZATION_NOT_FOUND');
      const inviter = (await users.usersByIds([userId])).get(userId);
      const token = newSecret(32);
      const inv = await repo.insertInvitation({
        orgId,
        email,
        role,
        tokenHash: sha256(token),
        invitedBy: userId,
        expiresAt: new Date(Date.now() + config.invitationTtlSec * 1000),
      });
      const days = Math.max(1, Math.round(config.invitationTtlSec / 86400));
      const link = `${config.publicUrl}/accept-invitation?token=${encodeURIComponent(token)}`;
      await mailer.send({
        to: email,
        subject: `You are invited to join ${org.name}`,
        text:
          `Hello,\n\n${inviter?.name ?? 'A colleague'} invited you to join ${org.name} as ${role} on the DORA vendor-risk service.\n\n` +
          `Open this link to accept:\n${link}\n\n` +
          `If you have no account yet, register with this e-mail address and the invitation token (POST /api/v1/auth/register with "invitationToken"). ` +
          `If you already have one, sign in and send the token to POST /api/v1/organizations/invitations/accept.\n\nInvitation token: ${token}\n\n` +
          `The invitation expires in ${days} day(s) and can be used once.\n`,
      });
      if (existing) {
        await deps.notifications?.notifyQuietly({
          userIds: [existing.id],
          type: 'invitation',
          title: `You are invited to join ${org.name}`,
          body: `${inviter?.name ?? 'A colleague'} invited you to join ${org.name} as ${role}. The invitation link was sent to ${email}.`,
          data: {
            kind: 'organization',
            organizationId: orgId,
            organizationName: org.name,
            invitationId: inv.id,
            role,
            invitedBy: userId,
            expiresAt: inv.expiresAt.toISOString(),
          },
        });
      }
      return {
        id: inv.id,
        email: inv.email,
        role: inv.role,
        status: 'pending' as const,
        expiresAt: inv.expiresAt.toISOString(),
        createdAt: inv.createdAt.toISOString(),
      };
    },

    /** A page of the pending invitations (org_admin). */
    async invitations(orgId: string, userId: string, q: PageRequest & { sort: InvitationSortField; descending: boolean }) {
      await adminIn(orgId, userId);
      const { rows, total } = await repo.pendingInvitations(orgId, { offset: offsetOf(q), limit: q.limit, sort: q.sort, descending: q.descending });
      const invitations = rows.map((inv) => ({
        id: inv.id,
        email: inv.email,
        role: inv.role,
        status: 'pending' as const,
        expiresAt: inv.expiresAt.toISOString(),
        createdAt: inv.createdAt.toISOString(),
      }));
      return { invitations, pagination: pagination(q, total) };
    },

    async revokeInvitation(orgId: string, userId: string, invitationId: string) {
      await adminIn(orgId, userId);
      if (!(await repo.revokeInvitation(orgId, invitationId))) throw notFound('Invitation not found', 'INVITATION_NOT_FOUND');
    },

    /** An existing user accepts an invitation (POST /organizations/invitations/accept). */
    async acceptInvitation(user: { id: string; email: string }, token: string) {
      const result = await repo.acceptInvitation(sha256(token), user);
      if (result === 'invalid') throw new AppError(400, 'INVALID_INVITATION', 'Invalid or expired invitation');
      if (result === 'email_mismatch') throw forbidden('This invitation was sent to another e-mail address', 'INVITATION_EMAIL_MISMATCH');
      if (result === 'already_member') throw conflict('You already belong to an organization', 'ALREADY_IN_ORGANIZATION');
      const org = await repo.findById(result.orgId);
      if (!org) throw new AppError(400, 'INVALID_INVITATION', 'Invalid or expired invitation');
      return shape(org, result.role);
    },

    /**
     * Register hook: a user who registers with a valid invitation token for their
     * e-mail address joins the inviting organization. An invalid token does not block
     * registration (the account exists already); the user lands in onboarding.
     */
    async onRegistered(user: { id: string; email: string }, invitationToken: string | undefined): Promise<boolean> {
      if (!invitationToken) return false;
      const result = await repo.acceptInvitation(sha256(invitationToken), user);
      return typeof result === 'object';
    },
  };
}
export type OrganizationsService = ReturnType<typeof organizationsService>;
