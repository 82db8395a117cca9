import type { FastifyInstance } from 'fastify';
import { registerUser, type Session } from './app.js';

export interface OrgAndWorkspace {
  orgId: string;
  /** Opaque workspace id (`workspaces.id`), the value of `X-Workspace-Id`. */
  workspaceId: string;
  /** The human-readable second identifier (also accepted in `X-Workspace-Id`). */
  workspaceSlug: string;
  /** Bearer + X-Workspace-Id headers of the owner. */
  headers: Record<string, string>;
}

/** Onboards a user: creates their organization (they become org_admin). */
export async function createOrg(app: FastifyInstance, session: Session, name = 'Acme Bank'): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/organizations', headers: session.headers, payload: { name } });
  if (res.statusCode !== 201) throw new Error(`create organization failed: ${res.statusCode} ${res.body}`);
  return res.json().data.organization.id;
}

/** Creates a vendor workspace in the session's organization (the session's user becomes owner). */
export async function createWorkspace(
  app: FastifyInstance,
  session: Session,
  name = 'GitHub',
  extra: Record<string, unknown> = {},
): Promise<{ id: string; slug: string; headers: Record<string, string> }> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/workspaces', headers: session.headers, payload: { workspaceName: name, ...extra } });
  if (res.statusCode !== 201) throw new Error(`create workspace failed: ${res.statusCode} ${res.body}`);
  const ws = res.json().data.workspace;
  return { id: ws.id, slug: ws.workspaceId, headers: { ...session.headers, 'x-workspace-id': ws.id } };
}

/**
 * Onboards `session` (new organization, unless it already has one) and creates a
 * workspace owned by it. Returns the ids and the owner's headers including
 * `X-Workspace-Id`, ready for workspace-scoped requests.
 */
export async function createOrgAndWorkspace(app: FastifyInstance, session: Session, name = 'GitHub', orgName = 'Acme Bank'): Promise<OrgAndWorkspace> {
  const me = await app.inject({ method: 'GET', url: '/api/v1/organizations/me', headers: session.headers });
  const orgId = me.statusCode === 200 ? me.json().data.organization.id : await createOrg(app, session, orgName);
  const ws = await createWorkspace(app, session, name);
  return { orgId, workspaceId: ws.id, workspaceSlug: ws.slug, headers: ws.headers };
}

/**
 * Brings a new user into an organization through a real invitation (e-mail recorded
 * by the test mailer) with the given organization role; returns their session.
 */
export async function addOrgMember(
  app: FastifyInstance,
  admin: Session,
  orgId: string,
  role: 'org_admin' | 'analyst' | 'viewer' = 'analyst',
  fields: { email?: string; name?: string } = {},
): Promise<Session> {
  const email = fields.email ?? `member-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const inv = await app.inject({ method: 'POST', url: `/api/v1/organizations/${orgId}/invite`, headers: admin.headers, payload: { email, role } });
  if (inv.statusCode !== 201) throw new Error(`invite failed: ${inv.statusCode} ${inv.body}`);
  const mail = [...app.mailer.sent].reverse().find((m) => m.to === email);
  const token = mail && /Invitation token: (\S+)/.exec(mail.text)?.[1];
  if (!token) throw new Error('invitation e-mail not found');
  const session = await registerUser(app, { email, name: fields.name });
  const acc = await app.inject({ method: 'POST', url: '/api/v1/organizations/invitations/accept', headers: session.headers, payload: { token } });
  if (acc.statusCode !== 200) throw new Error(`accept failed: ${acc.statusCode} ${acc.body}`);
  return session;
}

/** Headers of a session for a workspace. */
export const wsHeaders = (session: Session, workspaceId: string) => ({ ...session.headers, 'x-workspace-id': workspaceId });

/** A valid LEI (ISO 17442 check digits computed) from 18 characters [A-Z0-9]. */
export function makeLei(base18: string): string {
  let rem = 0;
  for (const ch of `${base18}00`) {
    const digits = /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of digits) rem = (rem * 10 + Number(d)) % 97;
  }
  return `${base18}${String(98 - rem).padStart(2, '0')}`;
}

let contractCounter = 0;
/**
 * A complete, valid vendor profile (field names: docs/organizations-and-workspaces.md); each
 * call's contract has its own reference (CTR-2024-001, -002, …): references are unique across
 * an organization's register.
 */
export function sampleVendorProfile(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  contractCounter += 1;
  return {
    legalName: 'GitHub, Inc.',
    identifier: { type: 'LEI', value: makeLei('5493001GITHUB00001') },
    country: 'US',
    ictServiceType: 'S19',
    criticalityTier: 'high',
    supportsCriticalFunction: true,
    description: 'Source code hosting and CI',
    website: 'https://github.com',
    contracts: [
      {
        reference: `CTR-2024-${String(contractCounter).padStart(3, '0')}`,
        ictServiceType: 'S19',
        startDate: '2024-01-01',
        endDate: '2026-12-31',
        noticePeriodDaysEntity: 90,
        noticePeriodDaysProvider: 180,
        governingLaw: 'IE',
        annualCost: { amount: 120000, currency: 'EUR' },
        storesData: true,
        dataStorageLocations: ['US', 'IE'],
        dataProcessingLocations: ['US'],
        dataSensitivity: 'high',
      },
    ],
    certifications: [
      { type: 'ISO/IEC 27001', issuer: 'Schellman', validUntil: '2099-06-30', status: 'valid' },
      { type: 'SOC 2 Type II', issuer: 'Deloitte', status: 'pending' },
    ],
    substitutability: 'medium_complexity',
    discontinuationImpact: 'high',
    exitPlan: {
      exists: true,
      lastTestedDate: '2024-03-01',
      reintegrationPossibility: 'difficult',
      alternativeProvidersIdentified: true,
      alternativeProviders: ['GitLab'],
    },
    nextReviewDate: '2099-01-31',
    ...overrides,
  };
}
