import type { Config } from '../../config.js';
import type { OrgRole } from '../../db/schema/organizations.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { newSecret, sha256 } from '../../lib/ids.js';
import type { Mailer } from '../../lib/mailer.js';
import type { AuthService } from '../auth/service.js';
import type { NotificationsService } from '../notifications/service.js';
import { isCountryCode, isValidLei } from '../../domain/vendorProfile.js';
import type { InvitationRow, OrganizationRow, OrganizationsRepository, OrgMemberRow } from './repository.js';
import { offsetOf, pagination, type PageRequest, type Pagination } from '../../domain/paging.js';
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

/** An organization as the API returns it, with the caller's role and the member count. */
export interface OrganizationView {
  id: string;
  name: string;
  lei: string | null;
  country: string | null;
  myRole: OrgRole;
  memberCount: number;
  createdAt: string;
  updatedAt: string;
}

/** A member of an organization as the API lists them. */
export interface OrgMemberView {
  user: { id: string; name: string; email: string };
  role: OrgRole;
  status: string;
  joinedAt: string;
}

/** A pending invitation as the API returns it. */
export interface InvitationView {
  id: string;
  email: string;
  role: OrgRole;
  status: 'pending';
  expiresAt: string;
  createdAt: string;
}

/** Organizations, their members and invitations (docs/organizations-and-workspaces.md). */
export interface OrganizationsService {
  /** The caller's organization membership, or null before onboarding. */
  membershipOf(userId: string): Promise<OrgMembership | null>;
  /** Like membershipOf, but a user without organization gets 403 ONBOARDING_REQUIRED. */
  requireMembership(userId: string): Promise<OrgMembership>;
  /** Members of an organization (for workspace member lists). */
  membersOf(orgId: string): Promise<{ userId: string; role: OrgRole; joinedAt: Date }[]>;
  /** Creates an organization with the caller as its org_admin (409 when they already belong to one). */
  create(userId: string, input: { name: string; lei?: string | null; country?: string | null }): Promise<OrganizationView>;
  /** The caller's organization (403 ONBOARDING_REQUIRED without one). */
  mine(userId: string): Promise<OrganizationView>;
  /** Name, LEI and country (org_admin). */
  update(orgId: string, userId: string, input: { name?: string; lei?: string | null; country?: string | null }): Promise<OrganizationView>;
  /** A page of the members (any member of the organization may list them). */
  members(
    orgId: string,
    userId: string,
    q: PageRequest & { sort: MemberSortField; descending: boolean },
  ): Promise<{ members: OrgMemberView[]; pagination: Pagination }>;
  /** Changes a member's role (org_admin; the organization keeps at least one org_admin). */
  changeRole(orgId: string, userId: string, memberId: string, role: OrgRole): Promise<OrgMemberView>;
  /** Revokes a membership (an org_admin, or the member themself leaving). */
  removeMember(orgId: string, userId: string, memberId: string): Promise<void>;
  /** Invites an e-mail address (org_admin): stores the invitation, mails the token, notifies an existing user. */
  invite(orgId: string, userId: string, input: { email: string; role?: OrgRole }): Promise<InvitationView>;
  /** A page of the pending invitations (org_admin). */
  invitations(
    orgId: string,
    userId: string,
    q: PageRequest & { sort: InvitationSortField; descending: boolean },
  ): Promise<{ invitations: InvitationView[]; pagination: Pagination }>;
  /** Revokes a pending invitation (org_admin). */
  revokeInvitation(orgId: string, userId: string, invitationId: string): Promise<void>;
  /** An existing user accepts an invitation (POST /organizations/invitations/accept). */
  acceptInvitation(user: { id: string; email: string }, token: string): Promise<OrganizationView>;
  /** Register hook: joins the inviting organization when the token is valid for the address; an invalid token does not block registration. */
  onRegistered(user: { id: string; email: string }, invitationToken: string | undefined): Promise<boolean>;
}

const organizationNotFound = () => notFound('Organization not found', 'ORGANIZATION_NOT_FOUND');
const memberNotFound = () => notFound('Member not found', 'MEMBER_NOT_FOUND');
const lastOrgAdmin = () => conflict('The organization must keep at least one org_admin', 'LAST_ORG_ADMIN');
const alreadyInOrganization = () => conflict('You already belong to an organization', 'ALREADY_IN_ORGANIZATION');
const invalidInvitation = () => new AppError(400, 'INVALID_INVITATION', 'Invalid or expired invitation');

function organizationView(org: OrganizationRow, myRole: OrgRole, memberCount: number): OrganizationView {
  return {
    id: org.id,
    name: org.name,
    lei: org.lei,
    country: org.country,
    myRole,
    memberCount,
    createdAt: org.createdAt.toISOString(),
    updatedAt: org.updatedAt.toISOString(),
  };
}

/** Members as the API lists them (users no longer found are left out). */
function memberViews(rows: OrgMemberRow[], byId: Map<string, { id: string; name: string; email: string }>): OrgMemberView[] {
  return rows.flatMap((r) => {
    const u = byId.get(r.userId);
    if (!u) return [];
    return [{ user: { id: u.id, name: u.name, email: u.email }, role: r.role, status: r.status, joinedAt: r.joinedAt.toISOString() }];
  });
}

function invitationView(inv: InvitationRow): InvitationView {
  return {
    id: inv.id,
    email: inv.email,
    role: inv.role,
    status: 'pending' as const,
    expiresAt: inv.expiresAt.toISOString(),
    createdAt: inv.createdAt.toISOString(),
  };
}

/** The invitation e-mail: who invites, the link and the token, how to use them, when they expire. */
function invitationMail(m: { email: string; orgName: string; inviterName: string; role: OrgRole; token: string; publicUrl: string; ttlSec: number }) {
  const days = Math.max(1, Math.round(m.ttlSec / 86400));
  const link = `${m.publicUrl}/accept-invitation?token=${encodeURIComponent(m.token)}`;
  return {
    to: m.email,
    subject: `You are invited to join ${m.orgName}`,
    text:
      `Hello,\n\n${m.inviterName} invited you to join ${m.orgName} as ${m.role} on the DORA vendor-risk service.\n\n` +
      `Open this link to accept:\n${link}\n\n` +
      `If you have no account yet, register with this e-mail address and the invitation token (POST /api/v1/auth/register with "invitationToken"). ` +
      `If you already have one, sign in and send the token to POST /api/v1/organizations/invitations/accept.\n\nInvitation token: ${m.token}\n\n` +
      `The invitation expires in ${days} day(s) and can be used once.\n`,
  };
}

/** The update's values: the name trimmed, fields left out unchanged. */
function orgValues(input: { name?: string; lei?: string | null; country?: string | null }) {
  const values: { name?: string; lei?: string | null; country?: string | null } = {};
  if (input.name !== undefined) values.name = input.name.trim();
  if (input.lei !== undefined) values.lei = input.lei;
  if (input.country !== undefined) values.country = input.country;
  return values;
}

type Users = Pick<AuthService, 'usersByIds' | 'findByEmail'>;

export function organizationsService(deps: {
  repo: OrganizationsRepository;
  users: Users;
  mailer: Mailer;
  config: Pick<Config, 'invitationTtlSec' | 'publicUrl'>;
  /** In-app notice to an invited user who already has an account (docs/notifications.md). */
  notifications?: Pick<NotificationsService, 'notifyQuietly'>;
}): OrganizationsService {
  const { repo, users, mailer, config } = deps;

  const shape = async (org: OrganizationRow, myRole: OrgRole) => organizationView(org, myRole, (await repo.members(org.id)).length);

  /** The caller's membership of `orgId`: 404 when unknown, 403 when it is another organization. */
  async function membershipIn(orgId: string, userId: string): Promise<OrgMemberRow> {
    const m = await repo.member(orgId, userId);
    if (m) return m;
    if (!(await repo.findById(orgId))) throw organizationNotFound();
    throw orgAccessDenied();
  }
  async function adminIn(orgId: string, userId: string): Promise<OrgMemberRow> {
    const m = await membershipIn(orgId, userId);
    if (m.role !== 'org_admin') throw orgAdminOnly();
    return m;
  }

  const memberView = async (rows: OrgMemberRow[]) => memberViews(rows, await users.usersByIds(rows.map((r) => r.userId)));

  return {
    async membershipOf(userId) {
      const m = await repo.membershipOf(userId);
      return m && { orgId: m.orgId, role: m.role, joinedAt: m.joinedAt };
    },

    async requireMembership(userId) {
      const m = await repo.membershipOf(userId);
      if (!m) throw onboardingRequired();
      return { orgId: m.orgId, role: m.role, joinedAt: m.joinedAt };
    },

    async membersOf(orgId) {
      return (await repo.members(orgId)).map((m) => ({ userId: m.userId, role: m.role, joinedAt: m.joinedAt }));
    },

    async create(userId, input) {
      checkOrgFields(input);
      if (await repo.membershipOf(userId)) throw alreadyInOrganization();
      const org = await repo.createWithAdmin({ name: input.name.trim(), lei: input.lei ?? null, country: input.country ?? null }, userId);
      if (!org) throw alreadyInOrganization();
      return shape(org, 'org_admin');
    },

    async mine(userId) {
      const m = await repo.membershipOf(userId);
      if (!m) throw onboardingRequired();
      const org = await repo.findById(m.orgId);
      if (!org) throw onboardingRequired();
      return shape(org, m.role);
    },

    async update(orgId, userId, input) {
      const m = await adminIn(orgId, userId);
      checkOrgFields(input);
      const org = await repo.update(orgId, orgValues(input));
      if (!org) throw organizationNotFound();
      return shape(org, m.role);
    },

    async members(orgId, userId, q) {
      await membershipIn(orgId, userId);
      const { rows, total } = await repo.memberPage(orgId, { offset: offsetOf(q), limit: q.limit, sort: q.sort, descending: q.descending });
      return { members: await memberView(rows), pagination: pagination(q, total) };
    },

    async changeRole(orgId, userId, memberId, role) {
      await adminIn(orgId, userId);
      const result = await repo.setRole(orgId, memberId, role);
      if (result === null) throw memberNotFound();
      if (result === 'last_admin') throw lastOrgAdmin();
      return (await memberView([result]))[0];
    },

    async removeMember(orgId, userId, memberId) {
      const caller = await membershipIn(orgId, userId);
      if (memberId !== userId && caller.role !== 'org_admin') throw orgAdminOnly();
      const result = await repo.removeMember(orgId, memberId);
      if (result === 'not_found') throw memberNotFound();
      if (result === 'last_admin') throw lastOrgAdmin();
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

    async invite(orgId, userId, input) {
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
      if (!org) throw organizationNotFound();
      const inviterName = (await users.usersByIds([userId])).get(userId)?.name ?? 'A colleague';
      const token = newSecret(32);
      const inv = await repo.insertInvitation({
        orgId,
        email,
        role,
        tokenHash: sha256(token),
        invitedBy: userId,
        expiresAt: new Date(Date.now() + config.invitationTtlSec * 1000),
      });
      await mailer.send(invitationMail({ email, orgName: org.name, inviterName, role, token, publicUrl: config.publicUrl, ttlSec: config.invitationTtlSec }));
      if (existing) {
        await deps.notifications?.notifyQuietly({
          userIds: [existing.id],
          type: 'invitation',
          title: `You are invited to join ${org.name}`,
          body: `${inviterName} invited you to join ${org.name} as ${role}. The invitation link was sent to ${email}.`,
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
      return invitationView(inv);
    },

    async invitations(orgId, userId, q) {
      await adminIn(orgId, userId);
      const { rows, total } = await repo.pendingInvitations(orgId, { offset: offsetOf(q), limit: q.limit, sort: q.sort, descending: q.descending });
      return { invitations: rows.map(invitationView), pagination: pagination(q, total) };
    },

    async revokeInvitation(orgId, userId, invitationId) {
      await adminIn(orgId, userId);
      if (!(await repo.revokeInvitation(orgId, invitationId))) throw notFound('Invitation not found', 'INVITATION_NOT_FOUND');
    },

    async acceptInvitation(user, token) {
      const result = await repo.acceptInvitation(sha256(token), user);
      if (result === 'invalid') throw invalidInvitation();
      if (result === 'email_mismatch') throw forbidden('This invitation was sent to another e-mail address', 'INVITATION_EMAIL_MISMATCH');
      if (result === 'already_member') throw alreadyInOrganization();
      const org = await repo.findById(result.orgId);
      if (!org) throw invalidInvitation();
      return shape(org, result.role);
    },

    async onRegistered(user, invitationToken) {
      if (!invitationToken) return false;
      const result = await repo.acceptInvitation(sha256(invitationToken), user);
      return typeof result === 'object';
    },
  };
}
