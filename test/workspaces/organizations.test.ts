import t from 'tap';
import { queryRows, sql } from '../../src/db/client.js';
import { buildTestApp, cookiesOf, registerUser, type Session } from '../helpers/app.js';
import { createOrg, createWorkspace, makeLei } from '../helpers/workspaces.js';

const ctx = await buildTestApp();
t.teardown(ctx.close);
const { app } = ctx;

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, session: Session, payload?: unknown) =>
  app.inject({ method, url: `/api/v1${url}`, headers: session.headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

function tokenFor(email: string): string {
  const mail = [...ctx.mailer.sent].reverse().find((m) => m.to === email.toLowerCase() && /invited/.test(m.subject));
  const token = mail && /Invitation token: (\S+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no invitation mail for ${email}`);
  return token;
}

async function registerWithToken(email: string, invitationToken?: string): Promise<Session> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: { email, password: 'correct horse battery', name: 'Invited Person', ...(invitationToken ? { invitationToken } : {}) },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  const cookies = cookiesOf(res);
  return {
    id: res.json().data.user.id,
    email,
    name: 'Invited Person',
    accessToken: cookies.accessToken,
    refreshToken: cookies.refreshToken,
    cookies,
    headers: { authorization: `Bearer ${cookies.accessToken}` },
  };
}

const admin = await registerUser(app, { name: 'Alice Admin' });

t.test('onboarding: no organization -> clear error; create; one organization per user', async (t) => {
  const me = await call('GET', '/organizations/me', admin);
  t.equal(me.statusCode, 403);
  t.equal(me.json().error.code, 'ONBOARDING_REQUIRED');
  t.match(me.json().message, /POST \/organizations/);

  for (const body of [
    {},
    { name: 'A' },
    { name: 'Acme', lei: 'NOTALEI' },
    { name: 'Acme', lei: makeLei('529900ACMEBANK0001').slice(0, 18) + '99' },
    { name: 'Acme', country: 'XX' },
    { name: 'Acme', extra: true },
  ]) {
    const bad = await call('POST', '/organizations', admin, body);
    t.equal(bad.statusCode, 400, JSON.stringify(body));
    t.equal(bad.json().error.code, 'VALIDATION_ERROR');
  }
  const lei = makeLei('529900ACMEBANK0001');
  const res = await call('POST', '/organizations', admin, { name: 'Acme Bank', lei, country: 'DE' });
  t.equal(res.statusCode, 201);
  t.match(res.json().data.organization, { name: 'Acme Bank', lei, country: 'DE', myRole: 'org_admin', memberCount: 1 });
  const again = await call('POST', '/organizations', admin, { name: 'Second' });
  t.equal(again.statusCode, 409);
  t.equal(again.json().error.code, 'ALREADY_IN_ORGANIZATION');
  const mine = await call('GET', '/organizations/me', admin);
  t.equal(mine.json().data.organization.id, res.json().data.organization.id);
});

t.test('invitations: e-mail, register with token, accept, single use, expiry, mismatch', async (t) => {
  const orgId = (await call('GET', '/organizations/me', admin)).json().data.organization.id;
  const ws = await createWorkspace(app, admin, 'GitHub');

  const inv = await call('POST', `/organizations/${orgId}/invite`, admin, { email: 'New.Analyst@Example.com', role: 'analyst' });
  t.equal(inv.statusCode, 201);
  t.match(inv.json().data.invitation, { email: 'new.analyst@example.com', role: 'analyst', status: 'pending' });
  t.notOk(JSON.stringify(inv.json()).includes(tokenFor('new.analyst@example.com')), 'the token is never in the response');
  const stored = await queryRows<{ token_hash: string }>(
    ctx.database.db,
    sql`select token_hash from organization_invitations where email = 'new.analyst@example.com'`,
  );
  t.not(stored[0].token_hash, tokenFor('new.analyst@example.com'), 'stored hashed');

  const newcomer = await registerWithToken('new.analyst@example.com', tokenFor('new.analyst@example.com'));
  const seen = await call('GET', '/workspaces', newcomer);
  t.equal(seen.statusCode, 200, 'joined at registration');
  t.same(
    seen.json().data.workspaces.map((w: { id: string }) => w.id),
    [ws.id],
    'sees all workspaces of the organization',
  );
  t.equal(seen.json().data.workspaces[0].myRole, 'member');

  // single use
  const reuse = await registerUser(app, { email: 'thief@example.com' });
  const reused = await call('POST', '/organizations/invitations/accept', reuse, { token: tokenFor('new.analyst@example.com') });
  t.equal(reused.statusCode, 400);
  t.equal(reused.json().error.code, 'INVALID_INVITATION');

  // existing user accepts; e-mail must match
  const existing = await registerUser(app, { email: 'existing@example.com' });
  await call('POST', `/organizations/${orgId}/invite`, admin, { email: 'existing@example.com', role: 'viewer' });
  const wrongUser = await call('POST', '/organizations/invitations/accept', reuse, { token: tokenFor('existing@example.com') });
  t.equal(wrongUser.statusCode, 403);
  t.equal(wrongUser.json().error.code, 'INVITATION_EMAIL_MISMATCH');
  const accepted = await call('POST', '/organizations/invitations/accept', existing, { token: tokenFor('existing@example.com') });
  t.equal(accepted.statusCode, 200);
  t.match(accepted.json().data.organization, { id: orgId, myRole: 'viewer' });
  t.equal((await call('GET', '/workspaces', existing)).json().data.workspaces[0].myRole, 'viewer');

  // expiry
  await call('POST', `/organizations/${orgId}/invite`, admin, { email: 'late@example.com' });
  await queryRows(ctx.database.db, sql`update organization_invitations set expires_at = now() - interval '1 second' where email = 'late@example.com'`);
  const late = await registerUser(app, { email: 'late@example.com' });
  const expired = await call('POST', '/organizations/invitations/accept', late, { token: tokenFor('late@example.com') });
  t.equal(expired.statusCode, 400);
  t.equal(expired.json().error.code, 'INVALID_INVITATION');
  t.equal((await call('GET', '/workspaces', late)).json().error.code, 'ONBOARDING_REQUIRED');

  // registering with an invalid token still registers, without organization
  const stray = await registerWithToken('stray@example.com', 'x'.repeat(43));
  t.equal((await call('GET', '/organizations/me', stray)).statusCode, 403);

  // a newer invitation supersedes the older one; revocation
  await call('POST', `/organizations/${orgId}/invite`, admin, { email: 'twice@example.com' });
  const first = tokenFor('twice@example.com');
  await call('POST', `/organizations/${orgId}/invite`, admin, { email: 'twice@example.com', role: 'viewer' });
  const second = tokenFor('twice@example.com');
  const pending = await call('GET', `/organizations/${orgId}/invitations`, admin);
  t.equal(pending.json().data.invitations.filter((i: { email: string }) => i.email === 'twice@example.com').length, 1);
  const twice = await registerUser(app, { email: 'twice@example.com' });
  t.equal((await call('POST', '/organizations/invitations/accept', twice, { token: first })).statusCode, 400, 'superseded token');
  const invId = pending.json().data.invitations.find((i: { email: string }) => i.email === 'twice@example.com').id;
  t.equal((await call('DELETE', `/organizations/${orgId}/invitations/${invId}`, admin)).statusCode, 200);
  t.equal((await call('POST', '/organizations/invitations/accept', twice, { token: second })).statusCode, 400, 'revoked token');
  t.equal((await call('DELETE', `/organizations/${orgId}/invitations/${invId}`, admin)).statusCode, 404);

  // invite conflicts and permissions
  const dupMember = await call('POST', `/organizations/${orgId}/invite`, admin, { email: newcomer.email });
  t.equal(dupMember.statusCode, 409);
  t.equal(dupMember.json().error.code, 'ALREADY_MEMBER');
  const otherAdmin = await registerUser(app);
  const otherOrg = await createOrg(app, otherAdmin, 'Other Bank');
  const elsewhere = await call('POST', `/organizations/${orgId}/invite`, admin, { email: otherAdmin.email });
  t.equal(elsewhere.statusCode, 409);
  t.equal(elsewhere.json().error.code, 'USER_IN_OTHER_ORGANIZATION');
  const byAnalyst = await call('POST', `/organizations/${orgId}/invite`, newcomer, { email: 'x@example.com' });
  t.equal(byAnalyst.statusCode, 403);
  t.equal(byAnalyst.json().error.code, 'INSUFFICIENT_PERMISSION');
  const foreign = await call('POST', `/organizations/${otherOrg}/invite`, admin, { email: 'x@example.com' });
  t.equal(foreign.statusCode, 403);
  t.equal(foreign.json().error.code, 'ORGANIZATION_ACCESS_DENIED');
  const unknownOrg = await call('POST', '/organizations/no-such-org/invite', admin, { email: 'x@example.com' });
  t.equal(unknownOrg.statusCode, 404);
  const badRole = await call('POST', `/organizations/${orgId}/invite`, admin, { email: 'x@example.com', role: 'owner' });
  t.equal(badRole.statusCode, 400);
  const badEmail = await call('POST', `/organizations/${orgId}/invite`, admin, { email: 'not-an-email' });
  t.equal(badEmail.statusCode, 400);
  const foreignAccept = await call('POST', '/organizations/invitations/accept', otherAdmin, { token: 'y'.repeat(43) });
  t.equal(foreignAccept.statusCode, 400);
});

t.test('members: list, change role, revoke', async (t) => {
  const orgId = (await call('GET', '/organizations/me', admin)).json().data.organization.id;
  const members = await call('GET', `/organizations/${orgId}/members`, admin);
  t.equal(members.statusCode, 200);
  const list = members.json().data.members as { user: { id: string; email: string }; role: string }[];
  t.ok(list.length >= 3);
  t.match(list[0], { user: { id: admin.id }, role: 'org_admin', status: 'active' });
  const analyst = list.find((m) => m.user.email === 'new.analyst@example.com')!;
  const viewer = list.find((m) => m.user.email === 'existing@example.com')!;
  const viewerSession = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: 'existing@example.com', password: 'correct horse battery' },
  });
  const vs = { headers: { authorization: `Bearer ${viewerSession.json().data.accessToken}` } } as unknown as Session;
  t.equal((await call('GET', `/organizations/${orgId}/members`, vs)).statusCode, 200, 'any member lists members');

  const byViewer = await call('PATCH', `/organizations/${orgId}/members/${analyst.user.id}`, vs, { role: 'viewer' });
  t.equal(byViewer.statusCode, 403);
  const bad = await call('PATCH', `/organizations/${orgId}/members/${analyst.user.id}`, admin, { role: 'admin' });
  t.equal(bad.statusCode, 400);
  const unknown = await call('PATCH', `/organizations/${orgId}/members/no-such-user`, admin, { role: 'viewer' });
  t.equal(unknown.statusCode, 404);
  const lastAdmin = await call('PATCH', `/organizations/${orgId}/members/${admin.id}`, admin, { role: 'analyst' });
  t.equal(lastAdmin.statusCode, 409);
  t.equal(lastAdmin.json().error.code, 'LAST_ORG_ADMIN');
  const promote = await call('PATCH', `/organizations/${orgId}/members/${viewer.user.id}`, admin, { role: 'org_admin' });
  t.equal(promote.statusCode, 200);
  t.match(promote.json().data.member, { role: 'org_admin', user: { id: viewer.user.id } });
  t.equal((await call('GET', '/workspaces', vs)).json().data.workspaces[0].myRole, 'admin', 'org_admin maps onto admin');
  const demote = await call('PATCH', `/organizations/${orgId}/members/${viewer.user.id}`, admin, { role: 'viewer' });
  t.equal(demote.statusCode, 200);

  // revoke: an owner of workspaces must transfer first
  const ws = (await call('GET', '/workspaces', admin)).json().data.workspaces[0];
  const analystSession = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: 'new.analyst@example.com', password: 'correct horse battery' },
  });
  const as = { headers: { authorization: `Bearer ${analystSession.json().data.accessToken}` } } as unknown as Session;
  const own = await createWorkspace(app, as, 'Analyst Owned');
  const owns = await call('DELETE', `/organizations/${orgId}/members/${analyst.user.id}`, admin);
  t.equal(owns.statusCode, 409);
  t.equal(owns.json().error.code, 'MEMBER_OWNS_WORKSPACES');
  t.equal((await call('GET', `/workspaces/${ws.id}`, as)).statusCode, 200, 'nothing changed');
  await call('POST', `/workspaces/${own.id}/transfer`, as, { newOwnerId: admin.id });
  await call('POST', `/workspaces/${ws.id}/members`, admin, { email: 'new.analyst@example.com', role: 'admin' });
  const revoked = await call('DELETE', `/organizations/${orgId}/members/${analyst.user.id}`, admin);
  t.equal(revoked.statusCode, 200);
  const after = await call('GET', `/workspaces/${ws.id}`, as);
  t.equal(after.statusCode, 403, 'a revoked member loses access to every workspace');
  t.equal((await call('GET', '/workspaces', as)).json().error.code, 'ONBOARDING_REQUIRED');
  const leftovers = await queryRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from workspace_members where user_id = ${analyst.user.id}`);
  t.equal(leftovers[0].n, 0, 'explicit workspace memberships ended too');
  t.equal((await call('DELETE', `/organizations/${orgId}/members/${analyst.user.id}`, admin)).statusCode, 404);
  const lastAdminRevoke = await call('DELETE', `/organizations/${orgId}/members/${admin.id}`, admin);
  t.equal(lastAdminRevoke.statusCode, 409);

  // a member may leave the organization themself
  const selfLeave = await call('DELETE', `/organizations/${orgId}/members/${viewer.user.id}`, vs);
  t.equal(selfLeave.statusCode, 200);
});

t.test('update organization: org_admin only, validated', async (t) => {
  const orgId = (await call('GET', '/organizations/me', admin)).json().data.organization.id;
  const upd = await call('PATCH', `/organizations/${orgId}`, admin, { name: 'Acme Bank AG', lei: null, country: 'AT' });
  t.equal(upd.statusCode, 200);
  t.match(upd.json().data.organization, { name: 'Acme Bank AG', lei: null, country: 'AT' });
  t.equal((await call('PATCH', `/organizations/${orgId}`, admin, {})).statusCode, 400);
  t.equal((await call('PATCH', `/organizations/${orgId}`, admin, { country: 'ZZ' })).statusCode, 400);
  const outsider = await registerUser(app);
  t.equal((await call('PATCH', `/organizations/${orgId}`, outsider, { name: 'Mine now' })).statusCode, 403);
  t.equal((await call('GET', `/organizations/${orgId}/members`, outsider)).statusCode, 403);
  t.equal((await call('GET', '/organizations/me', admin)).json().data.organization.name, 'Acme Bank AG');
});
