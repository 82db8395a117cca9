import t from 'tap';
import { queryRows, sql } from '../../src/db/client.js';
import { buildTestApp, registerUser, type Session } from '../helpers/app.js';
import { addOrgMember, createOrg, createWorkspace, makeLei, sampleVendorProfile } from '../helpers/workspaces.js';

const ctx = await buildTestApp();
t.teardown(ctx.close);
const { app } = ctx;

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, session: Session, payload?: unknown) =>
  app.inject({ method, url: `/api/v1${url}`, headers: session.headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

const owner = await registerUser(app, { name: 'Olivia Owner' });
const orgId = await createOrg(app, owner, 'Acme Bank');
const analyst = await addOrgMember(app, owner, orgId, 'analyst', { name: 'Ann Analyst' });
const orgViewer = await addOrgMember(app, owner, orgId, 'viewer', { name: 'Vic Viewer' });
const orgAdmin = await addOrgMember(app, owner, orgId, 'org_admin', { name: 'Ada Admin' });
const outsider = await registerUser(app, { name: 'Otto Outsider' });
await createOrg(app, outsider, 'Other Bank');

async function detail(id: string, s: Session = owner) {
  const res = await call('GET', `/workspaces/${id}`, s);
  return res.json().data?.workspace;
}

t.test('create: slug, custom workspaceId, duplicates, bad input, organization viewers', async (t) => {
  const res = await call('POST', '/workspaces', owner, { workspaceName: 'Basecamp', syncSchedule: { enabled: true, intervalHours: 12 } });
  t.equal(res.statusCode, 201);
  const ws = res.json().data.workspace;
  t.match(ws, {
    workspaceName: 'Basecamp',
    workspaceId: 'basecamp',
    syncStatus: 'active',
    syncSchedule: { enabled: true, intervalHours: 12 },
    myRole: 'owner',
    organizationId: orgId,
  });
  t.same(ws.vendorProfile, {});

  const again = await call('POST', '/workspaces', owner, { workspaceName: 'basecamp ' });
  t.equal(again.statusCode, 409, 'same name (case-insensitive) in the organization');
  t.equal(again.json().error.code, 'WORKSPACE_NAME_TAKEN');

  const other = await call('POST', '/workspaces', outsider, { workspaceName: 'Basecamp' });
  t.equal(other.statusCode, 201, 'another organization may use the name');
  t.not(other.json().data.workspace.workspaceId, 'basecamp', 'slug made unique');
  t.match(other.json().data.workspace.workspaceId, /^basecamp-[a-z0-9]+$/);

  const custom = await call('POST', '/workspaces', owner, { workspaceName: 'Slack', workspaceId: 'slack-prod' });
  t.equal(custom.json().data.workspace.workspaceId, 'slack-prod');
  const taken = await call('POST', '/workspaces', owner, { workspaceName: 'Slack 2', workspaceId: 'slack-prod' });
  t.equal(taken.statusCode, 409);
  t.equal(taken.json().error.code, 'WORKSPACE_ID_TAKEN');

  for (const [body, field] of [
    [{}, 'workspaceName'],
    [{ workspaceName: '' }, 'workspaceName'],
    [{ workspaceName: '   ' }, 'workspaceName'],
    [{ workspaceName: 'X', workspaceId: 'Bad Slug' }, 'workspaceId'],
    [{ workspaceName: 'X', workspaceId: '123e4567-e89b-12d3-a456-426614174000' }, 'workspaceId'],
    [{ workspaceName: 'X', syncSchedule: { enabled: true, intervalHours: 0 } }, 'syncSchedule.intervalHours'],
    [{ workspaceName: 'X', syncSchedule: { enabled: true } }, 'syncSchedule.intervalHours'],
    [{ workspaceName: 'X', extra: 1 }, 'extra'],
  ] as const) {
    const bad = await call('POST', '/workspaces', owner, body);
    t.equal(bad.statusCode, 400, JSON.stringify(body));
    t.equal(bad.json().error.code, 'VALIDATION_ERROR');
    t.ok(
      bad.json().error.details.some((d: string) => d.startsWith(field)),
      `details name ${field}: ${bad.json().error.details}`,
    );
  }

  const byViewer = await call('POST', '/workspaces', orgViewer, { workspaceName: 'Viewer Vendor' });
  t.equal(byViewer.statusCode, 403);
  t.equal(byViewer.json().error.code, 'INSUFFICIENT_PERMISSION');
  const byAnalyst = await call('POST', '/workspaces', analyst, { workspaceName: 'Analyst Vendor' });
  t.equal(byAnalyst.statusCode, 201, 'analysts create workspaces (and own them)');

  const lonely = await registerUser(app);
  const noOrg = await call('POST', '/workspaces', lonely, { workspaceName: 'Nope' });
  t.equal(noOrg.statusCode, 403);
  t.equal(noOrg.json().error.code, 'ONBOARDING_REQUIRED');
  const count = await queryRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from workspaces where name = 'Nope' or name = 'Viewer Vendor'`);
  t.equal(count[0].n, 0, 'nothing stored on refusals');
});

t.test('list and detail: role mapping, memberCount, owner, members, stats', async (t) => {
  const ws = await createWorkspace(app, owner, 'Atlassian');
  const list = (s: Session) => call('GET', '/workspaces', s).then((r) => r.json().data.workspaces.find((w: { id: string }) => w.id === ws.id));
  t.match(await list(owner), { myRole: 'owner', memberCount: 4 });
  t.match(await list(orgAdmin), { myRole: 'admin', permissions: { canInvite: true, canEditSettings: false, canDeleteWorkspace: false } });
  t.match(await list(analyst), { myRole: 'member', permissions: { canQuery: true, canManageSync: true, canInvite: false } });
  t.match(await list(orgViewer), { myRole: 'viewer', permissions: { canQuery: true, canViewSources: true, canManageSync: false } });
  t.equal(await list(outsider), undefined, 'other organizations do not see it');

  const d = await detail(ws.id, orgViewer);
  t.same(d.owner, { id: owner.id, name: 'Olivia Owner', email: owner.email });
  t.equal(d.members.length, 4);
  t.equal(d.members[0].role, 'owner', 'owner first');
  t.match(
    d.members.find((m: { user: { id: string } }) => m.user.id === analyst.id),
    { role: 'member', status: 'active', membership: 'organization' },
  );
  t.same(d.stats, { totalPages: 0, totalDatabases: 0, totalDocuments: 0 });
  t.ok(!Number.isNaN(Date.parse(d.createdAt)));

  const unknown = await call('GET', '/workspaces/no-such-workspace', owner);
  t.equal(unknown.statusCode, 404);
  t.equal(unknown.json().error.code, 'WORKSPACE_NOT_FOUND');
  const foreign = await call('GET', `/workspaces/${ws.id}`, outsider);
  t.equal(foreign.statusCode, 403);
  t.equal(foreign.json().message, 'Access denied to this workspace');
});

t.test('update: owner only; vendor profile validated strictly', async (t) => {
  const ws = await createWorkspace(app, owner, 'GitHub');
  const profile = sampleVendorProfile();
  const ok = await call('PATCH', `/workspaces/${ws.id}`, owner, {
    workspaceName: 'GitHub Enterprise',
    syncSchedule: { enabled: true, intervalHours: 6 },
    vendorProfile: profile,
  });
  t.equal(ok.statusCode, 200);
  t.match(ok.json().data.workspace, { id: ws.id, workspaceName: 'GitHub Enterprise' });
  const d = await detail(ws.id);
  t.type(d.vendorProfile.contracts[0].id, 'string', 'a stored contract gets an id');
  const withoutIds = (p: { contracts?: Record<string, unknown>[] }) => ({ ...p, contracts: p.contracts?.map(({ id: _id, ...c }) => c) });
  t.same(withoutIds(d.vendorProfile), profile, 'profile round-trips');
  const stored = d.vendorProfile;
  t.same(d.syncSchedule, { enabled: true, intervalHours: 6 });

  const admin = await call('PATCH', `/workspaces/${ws.id}`, orgAdmin, { workspaceName: 'Hijack' });
  t.equal(admin.statusCode, 403, 'admins cannot update (owner only)');
  t.equal(admin.json().error.code, 'INSUFFICIENT_PERMISSION');
  t.equal((await detail(ws.id)).workspaceName, 'GitHub Enterprise');

  const bads: [Record<string, unknown>, string][] = [
    [{ identifier: { type: 'LEI', value: makeLei('5493001GITHUB00001').slice(0, 18) + '00' } }, 'vendorProfile.identifier.value'],
    [{ identifier: { type: 'LEI', value: 'abc' } }, 'vendorProfile.identifier.value'],
    [{ identifier: { type: 'DUNS', value: '123' } }, 'vendorProfile.identifier.type'],
    [{ country: 'XX' }, 'vendorProfile.country'],
    [{ country: 'de' }, 'vendorProfile.country'],
    [{ ictServiceType: 'S20' }, 'vendorProfile.ictServiceType'],
    [{ criticalityTier: 'extreme' }, 'vendorProfile.criticalityTier'],
    [{ criticalityTier: 'critical', supportsCriticalFunction: false }, 'vendorProfile.supportsCriticalFunction'],
    [{ contracts: [{ reference: 'A', startDate: '2024-02-30' }] }, 'vendorProfile.contracts.0.startDate'],
    [{ contracts: [{ reference: 'A', startDate: '01/02/2024' }] }, 'vendorProfile.contracts.0.startDate'],
    [{ contracts: [{ reference: 'A', startDate: '2024-05-01', endDate: '2024-04-30' }] }, 'vendorProfile.contracts.0.endDate'],
    [
      {
        contracts: [
          { reference: 'A', startDate: '2024-05-01' },
          { reference: 'A', startDate: '2024-05-01' },
        ],
      },
      'vendorProfile.contracts.1.reference',
    ],
    [
      { contracts: [{ reference: 'A', startDate: '2024-05-01', annualCost: { amount: 10, currency: 'EURO' } }] },
      'vendorProfile.contracts.0.annualCost.currency',
    ],
    [
      { contracts: [{ reference: 'A', startDate: '2024-05-01', annualCost: { amount: 10, currency: 'ABC' } }] },
      'vendorProfile.contracts.0.annualCost.currency',
    ],
    [{ contracts: [{ reference: 'A', startDate: '2024-05-01', annualCost: { amount: -1, currency: 'EUR' } }] }, 'vendorProfile.contracts.0.annualCost.amount'],
    [{ contracts: [{ reference: 'A', startDate: '2024-05-01', dataStorageLocations: ['ZZ'] }] }, 'vendorProfile.contracts.0.dataStorageLocations.0'],
    [{ contracts: [{ reference: 'A', startDate: '2024-05-01', governingLaw: 'EU' }] }, 'vendorProfile.contracts.0.governingLaw'],
    [{ contracts: [{ reference: 'A', startDate: '2024-05-01', noticePeriodDaysEntity: 1.5 }] }, 'vendorProfile.contracts.0.noticePeriodDaysEntity'],
    [{ contracts: [{ reference: 'A', startDate: '2024-05-01', surprise: true }] }, 'vendorProfile.contracts.0.surprise'],
    [{ certifications: [{ type: 'ISO/IEC 27001', status: 'valid', validUntil: '2001-01-01' }] }, 'vendorProfile.certifications.0.status'],
    [{ certifications: [{ type: 'ISO/IEC 27001', status: 'great' }] }, 'vendorProfile.certifications.0.status'],
    [{ substitutability: 'maybe' }, 'vendorProfile.substitutability'],
    [{ exitPlan: { exists: false, lastTestedDate: '2024-01-01' } }, 'vendorProfile.exitPlan.lastTestedDate'],
    [{ website: 'ftp://example.com' }, 'vendorProfile.website'],
    [{ unknownField: 1 }, 'vendorProfile.unknownField'],
  ];
  for (const [vp, field] of bads) {
    const res = await call('PATCH', `/workspaces/${ws.id}`, owner, { vendorProfile: vp });
    t.equal(res.statusCode, 400, JSON.stringify(vp));
    t.equal(res.json().error.code, 'VALIDATION_ERROR');
    t.ok(
      res.json().error.details.some((d: string) => d.startsWith(field)),
      `${field} named in ${JSON.stringify(res.json().error.details)}`,
    );
  }
  t.same((await detail(ws.id)).vendorProfile, stored, 'nothing changed by rejected updates');

  const cleared = await call('PATCH', `/workspaces/${ws.id}`, owner, { vendorProfile: { exitPlan: null, nextReviewDate: '2099-12-31' } });
  t.equal(cleared.statusCode, 200);
  const after = (await detail(ws.id)).vendorProfile;
  t.notOk('exitPlan' in after, 'null clears a field');
  t.equal(after.nextReviewDate, '2099-12-31');
  t.same(after.contracts, stored.contracts, 'other fields kept (the contract keeps its id)');

  const dupVendor = await call('POST', '/workspaces', owner, { workspaceName: 'GitHub again', vendorProfile: { identifier: profile.identifier } });
  t.equal(dupVendor.statusCode, 409, 'one workspace per vendor identifier in an organization');
  t.equal(dupVendor.json().error.code, 'VENDOR_ALREADY_REGISTERED');

  const renameClash = await call('PATCH', `/workspaces/${ws.id}`, owner, { workspaceName: 'Basecamp' });
  t.equal(renameClash.statusCode, 409);
  const empty = await call('PATCH', `/workspaces/${ws.id}`, owner, {});
  t.equal(empty.statusCode, 400);

  const created = await call('POST', '/workspaces', owner, {
    workspaceName: 'Expired Cert Vendor',
    vendorProfile: { legalName: 'E Corp', certifications: [{ type: 'ISO 22301', status: 'valid', validUntil: '2099-01-01' }] },
  });
  t.equal(created.statusCode, 201, 'create accepts a profile');
  await queryRows(
    ctx.database.db,
    sql`update workspaces set vendor_profile = jsonb_set(vendor_profile, '{certifications,0,validUntil}', '"2020-01-01"') where id = ${created.json().data.workspace.id}`,
  );
  t.equal((await detail(created.json().data.workspace.id)).vendorProfile.certifications[0].status, 'expired', 'a certificate past validUntil reads as expired');
});

t.test('members: add, update, remove, leave; escalation and bad input', async (t) => {
  const ws = await createWorkspace(app, owner, 'Members Vendor');
  const base = `/workspaces/${ws.id}/members`;
  const extra = await addOrgMember(app, owner, orgId, 'viewer', { name: 'Eve Extra' });

  const add = await call('POST', base, owner, { email: extra.email.toUpperCase(), role: 'admin' });
  t.equal(add.statusCode, 201);
  t.match(add.json().data.member, { user: { id: extra.id, name: 'Eve Extra', email: extra.email }, role: 'admin', status: 'active' });
  t.equal(add.json().data.member.permissions.canInvite, true);
  const dup = await call('POST', base, owner, { email: extra.email });
  t.equal(dup.statusCode, 409);
  t.equal(dup.json().error.code, 'ALREADY_MEMBER');

  const unknownEmail = await call('POST', base, owner, { email: 'nobody@example.com' });
  t.equal(unknownEmail.statusCode, 404);
  const foreignEmail = await call('POST', base, owner, { email: outsider.email });
  t.equal(foreignEmail.statusCode, 404, 'users of other organizations cannot be added');
  t.equal(foreignEmail.json().error.code, 'USER_NOT_FOUND');
  const asOwner = await call('POST', base, owner, { email: analyst.email, role: 'owner' });
  t.equal(asOwner.statusCode, 400, 'owner is given by transfer');
  const badRole = await call('POST', base, owner, { email: analyst.email, role: 'superuser' });
  t.equal(badRole.statusCode, 400);
  const ownerFlag = await call('POST', base, owner, { email: analyst.email, permissions: { canDeleteWorkspace: true } });
  t.equal(ownerFlag.statusCode, 400, 'owner-only flags cannot be granted');
  const badFlag = await call('POST', base, owner, { email: analyst.email, permissions: { canFly: true } });
  t.equal(badFlag.statusCode, 400);

  // The explicit admin (extra) cannot create another admin nor touch admins.
  const escalate = await call('POST', base, extra, { email: analyst.email, role: 'admin' });
  t.equal(escalate.statusCode, 403);
  t.equal(escalate.json().error.code, 'INSUFFICIENT_PERMISSION');
  const asViewer = await call('POST', base, extra, { email: analyst.email, role: 'viewer' });
  t.equal(asViewer.statusCode, 201, 'an admin adds below admin');
  t.match(
    (await detail(ws.id)).members.find((m: { user: { id: string } }) => m.user.id === analyst.id),
    { role: 'viewer', membership: 'explicit' },
  );

  const byMember = await call('POST', base, analyst, { email: orgViewer.email });
  t.equal(byMember.statusCode, 403, 'viewers cannot invite');
  t.equal(byMember.json().error.code, 'INSUFFICIENT_PERMISSION');

  // update
  const upd = await call('PATCH', `${base}/${analyst.id}`, owner, { role: 'member', permissions: { canInvite: true } });
  t.equal(upd.statusCode, 200);
  t.same(upd.json().data.member.permissions, {
    canQuery: true,
    canViewSources: true,
    canInvite: true,
    canManageSync: true,
    canEditSettings: false,
    canDeleteWorkspace: false,
  });
  t.equal(upd.json().data.member.role, 'member');
  const flagsOnly = await call('PATCH', `${base}/${analyst.id}`, owner, { permissions: { canManageSync: false } });
  t.match(flagsOnly.json().data.member, { role: 'member', permissions: { canInvite: true, canManageSync: false } }, 'flags applied on top of the current ones');
  const implicitUpd = await call('PATCH', `${base}/${orgViewer.id}`, owner, { role: 'member' });
  t.equal(implicitUpd.statusCode, 200, 'an implicit member gets an explicit role');
  t.equal(implicitUpd.json().data.member.role, 'member');
  const ownerUpd = await call('PATCH', `${base}/${owner.id}`, owner, { role: 'viewer' });
  t.equal(ownerUpd.statusCode, 400);
  t.equal(ownerUpd.json().error.code, 'OWNER_IMMUTABLE');
  const adminDemote = await call('PATCH', `${base}/${orgAdmin.id}`, owner, { role: 'viewer' });
  t.equal(adminDemote.statusCode, 409, 'org_admins stay at least admin');
  const adminOnAdmin = await call('PATCH', `${base}/${orgAdmin.id}`, extra, { permissions: { canManageSync: false } });
  t.equal(adminOnAdmin.statusCode, 403, 'an admin cannot manage another admin');
  const unknownUser = await call('PATCH', `${base}/no-such-user`, owner, { role: 'viewer' });
  t.equal(unknownUser.statusCode, 404);
  t.equal(unknownUser.json().error.code, 'MEMBER_NOT_FOUND');
  const outsiderUpd = await call('PATCH', `${base}/${outsider.id}`, owner, { role: 'viewer' });
  t.equal(outsiderUpd.statusCode, 404);
  const emptyUpd = await call('PATCH', `${base}/${analyst.id}`, owner, {});
  t.equal(emptyUpd.statusCode, 400);

  // remove
  const rmOwner = await call('DELETE', `${base}/${owner.id}`, owner);
  t.equal(rmOwner.statusCode, 400);
  t.equal(rmOwner.json().error.code, 'OWNER_CANNOT_BE_REMOVED');
  const rmOrgAdmin = await call('DELETE', `${base}/${orgAdmin.id}`, owner);
  t.equal(rmOrgAdmin.statusCode, 409);
  const rm = await call('DELETE', `${base}/${analyst.id}`, extra);
  t.equal(rm.statusCode, 200);
  const gone = await call('GET', `/workspaces/${ws.id}`, analyst);
  t.equal(gone.statusCode, 403, 'a removed member loses access (organization access withdrawn too)');
  t.notOk((await call('GET', '/workspaces', analyst)).json().data.workspaces.some((w: { id: string }) => w.id === ws.id));
  const rmAgain = await call('DELETE', `${base}/${analyst.id}`, owner);
  t.equal(rmAgain.statusCode, 404);
  const readd = await call('POST', base, owner, { email: analyst.email, role: 'viewer' });
  t.equal(readd.statusCode, 201, 'a removed member can be added again');
  t.equal((await call('GET', `/workspaces/${ws.id}`, analyst)).statusCode, 200);

  // leave
  const ownerLeave = await call('POST', `/workspaces/${ws.id}/leave`, owner);
  t.equal(ownerLeave.statusCode, 400);
  t.equal(ownerLeave.json().error.code, 'OWNER_CANNOT_LEAVE');
  const orgAdminLeave = await call('POST', `/workspaces/${ws.id}/leave`, orgAdmin);
  t.equal(orgAdminLeave.statusCode, 409);
  const leave = await call('POST', `/workspaces/${ws.id}/leave`, analyst);
  t.equal(leave.statusCode, 200);
  t.equal((await call('GET', `/workspaces/${ws.id}`, analyst)).statusCode, 403);
  const leaveAgain = await call('POST', `/workspaces/${ws.id}/leave`, analyst);
  t.equal(leaveAgain.statusCode, 403);
  const outsiderLeave = await call('POST', `/workspaces/${ws.id}/leave`, outsider);
  t.equal(outsiderLeave.statusCode, 403);
});

t.test('transfer: only to a member; old owner becomes admin', async (t) => {
  const ws = await createWorkspace(app, owner, 'Transfer Vendor');
  const url = `/workspaces/${ws.id}/transfer`;
  const before = await detail(ws.id);
  for (const [body, code] of [
    [{ newOwnerId: outsider.id }, 400],
    [{ newOwnerId: 'no-such-user' }, 400],
    [{ newOwnerId: owner.id }, 400],
    [{}, 400],
  ] as const) {
    const res = await call('POST', url, owner, body);
    t.equal(res.statusCode, code, JSON.stringify(body));
  }
  const byAdmin = await call('POST', url, orgAdmin, { newOwnerId: orgAdmin.id });
  t.equal(byAdmin.statusCode, 403);
  t.same(await detail(ws.id), before, 'nothing changed');

  const ok = await call('POST', url, owner, { newOwnerId: analyst.id });
  t.equal(ok.statusCode, 200);
  const after = await detail(ws.id, analyst);
  t.equal(after.owner.id, analyst.id);
  t.equal(after.myRole, 'owner');
  t.match(
    after.members.find((m: { user: { id: string } }) => m.user.id === owner.id),
    { role: 'admin', membership: 'explicit' },
  );
  const oldOwner = await call('PATCH', `/workspaces/${ws.id}`, owner, { workspaceName: 'Nope' });
  t.equal(oldOwner.statusCode, 403, 'the previous owner lost owner rights');
  const newOwner = await call('PATCH', `/workspaces/${ws.id}`, analyst, { workspaceName: 'Transfer Vendor 2' });
  t.equal(newOwner.statusCode, 200);
  const leave = await call('POST', `/workspaces/${ws.id}/leave`, owner);
  t.equal(leave.statusCode, 409, 'the previous owner is an org_admin: keeps admin access');
  const back = await call('POST', url, analyst, { newOwnerId: orgViewer.id });
  t.equal(back.statusCode, 200, 'transfer to an implicit (organization) member');
  t.equal((await detail(ws.id, orgViewer)).owner.id, orgViewer.id);
  const analystLeave = await call('POST', `/workspaces/${ws.id}/leave`, analyst);
  t.equal(analystLeave.statusCode, 200, 'a former owner who is not org_admin may leave');
});

t.test('delete: owner only; removes the workspace and all its data', async (t) => {
  const fks = await queryRows<{ tbl: string; rule: string }>(
    ctx.database.db,
    sql`select conrelid::regclass::text as tbl, confdeltype::text as rule from pg_constraint where contype = 'f' and confrelid = 'workspaces'::regclass`,
  );
  t.ok(fks.length >= 1);
  t.same(
    fks.filter((f) => f.rule !== 'c'),
    [],
    'every table referencing workspaces cascades on delete',
  );

  const ws = await createWorkspace(app, owner, 'Doomed Vendor');
  const conv = await app.inject({
    method: 'POST',
    url: '/api/v1/conversations',
    headers: { ...owner.headers, 'x-workspace-id': ws.id },
    payload: { title: 'About the doomed vendor' },
  });
  t.equal(conv.statusCode, 201, 'workspace data of another module');
  await call('POST', `/workspaces/${ws.id}/members`, owner, { email: analyst.email, role: 'admin' });
  const byAdmin = await call('DELETE', `/workspaces/${ws.id}`, analyst);
  t.equal(byAdmin.statusCode, 403);
  const byOutsider = await call('DELETE', `/workspaces/${ws.id}`, outsider);
  t.equal(byOutsider.statusCode, 403);
  t.equal(byOutsider.json().message, 'Access denied to this workspace');
  const res = await call('DELETE', `/workspaces/${ws.id}`, owner);
  t.equal(res.statusCode, 200);
  t.equal(res.json().status, 'success');
  t.equal((await call('GET', `/workspaces/${ws.id}`, owner)).statusCode, 404);
  const rows = await queryRows<{ n: number }>(
    ctx.database.db,
    sql`select (select count(*) from workspaces where id = ${ws.id}) + (select count(*) from workspace_members where workspace_id = ${ws.id}) as n`,
  );
  t.equal(Number(rows[0].n), 0);
  for (const { tbl } of fks) {
    const left = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from ${sql.identifier(tbl.replace(/"/g, ''))} where workspace_id = ${ws.id}`,
    ).catch(() => [{ n: 0 }]);
    t.equal(left[0].n, 0, `no ${tbl} rows left`);
  }
  const convAfter = await app.inject({
    method: 'GET',
    url: `/api/v1/conversations/${conv.json().data.conversation.id}`,
    headers: { ...owner.headers, 'x-workspace-id': ws.id },
  });
  t.equal(convAfter.statusCode, 403, 'the workspace is gone');
  t.equal((await call('DELETE', `/workspaces/${ws.id}`, owner)).statusCode, 404);
});
