import t from 'tap';
import { DORA_TEMPLATE } from '../../src/compliance/questionnaire-template.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { addOrgMember, createOrgAndWorkspace, createWorkspace, wsHeaders } from '../helpers/workspaces.js';

const API = '/api/v1';

t.test('questionnaire access: workspace scoping and permissions', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'Vendor A');
  const other = await createWorkspace(app, owner, 'Vendor B');

  const created = await app.inject({
    method: 'POST',
    url: `${API}/questionnaires`,
    headers: ws.headers,
    payload: { template: 'dora-ict-tpp', templateSections: ['contract'] },
  });
  t.equal(created.statusCode, 201);
  const q = created.json().data.questionnaire;
  t.same(
    q.sections.map((s: { id: string }) => s.id),
    ['contract'],
    'template subset',
  );

  // Another workspace of the same owner: the questionnaire does not exist there.
  for (const [method, url] of [
    ['GET', `/questionnaires/${q.id}`],
    ['PATCH', `/questionnaires/${q.id}`],
    ['DELETE', `/questionnaires/${q.id}`],
    ['POST', `/questionnaires/${q.id}/send`],
  ] as const) {
    const res = await app.inject({ method, url: `${API}${url}`, headers: other.headers, ...(method === 'PATCH' ? { payload: { title: 'Hijack' } } : {}) });
    t.equal(res.statusCode, 404, `${method} ${url} from another workspace`);
    t.equal(res.json().error.code, 'QUESTIONNAIRE_NOT_FOUND');
  }
  t.equal((await app.inject({ method: 'GET', url: `${API}/questionnaires`, headers: other.headers })).json().data.pagination.total, 0);

  // A user of another organization: 403 on the workspace.
  const stranger = await registerUser(app);
  await createOrgAndWorkspace(app, stranger, 'Theirs', 'Other Bank');
  const denied = await app.inject({ method: 'GET', url: `${API}/questionnaires/${q.id}`, headers: wsHeaders(stranger, ws.workspaceId) });
  t.equal(denied.statusCode, 403);
  t.equal(denied.json().message, 'Access denied to this workspace');

  // Unauthenticated: 401; no workspace header: 400.
  t.equal((await app.inject({ method: 'GET', url: `${API}/questionnaires` })).statusCode, 401);
  t.equal((await app.inject({ method: 'GET', url: `${API}/questionnaires`, headers: owner.headers })).statusCode, 400);

  // A viewer reads but cannot create, send, change or delete; nor can an analyst whose
  // canManageSync was withdrawn in this workspace.
  const viewer = await addOrgMember(app, owner, ws.orgId, 'viewer');
  const restricted = await addOrgMember(app, owner, ws.orgId, 'analyst');
  const withdraw = await app.inject({
    method: 'PATCH',
    url: `${API}/workspaces/${ws.workspaceId}/members/${restricted.id}`,
    headers: owner.headers,
    payload: { permissions: { canManageSync: false } },
  });
  t.equal(withdraw.statusCode, 200, withdraw.body);
  for (const reader of [viewer, restricted]) {
    const H = wsHeaders(reader, ws.workspaceId);
    t.equal((await app.inject({ method: 'GET', url: `${API}/questionnaires`, headers: H })).statusCode, 200);
    t.equal((await app.inject({ method: 'GET', url: `${API}/questionnaires/${q.id}`, headers: H })).statusCode, 200);
    for (const [method, url, payload] of [
      ['POST', '/questionnaires', { template: 'dora-ict-tpp' }],
      ['PATCH', `/questionnaires/${q.id}`, { title: 'x' }],
      ['DELETE', `/questionnaires/${q.id}`, undefined],
      ['POST', `/questionnaires/${q.id}/send`, undefined],
      ['POST', `/questionnaires/${q.id}/prefill`, undefined],
    ] as const) {
      const res = await app.inject({ method, url: `${API}${url}`, headers: H, ...(payload ? { payload } : {}) });
      t.equal(res.statusCode, 403, `${method} ${url} needs canManageSync`);
      t.equal(res.json().error.code, 'INSUFFICIENT_PERMISSION');
      t.equal(res.json().message, 'Insufficient permission: this action requires canManageSync');
    }
  }
  t.equal(
    (await app.inject({ method: 'GET', url: `${API}/questionnaires/${q.id}`, headers: ws.headers })).json().data.questionnaire.title,
    DORA_TEMPLATE.title,
    'unchanged',
  );

  // Analysts and organization admins (not the workspace owner) run the vendor's questionnaires.
  const analyst = await addOrgMember(app, owner, ws.orgId, 'analyst');
  const orgAdmin = await addOrgMember(app, owner, ws.orgId, 'org_admin');
  for (const [who, session] of [
    ['analyst', analyst],
    ['org_admin', orgAdmin],
  ] as const) {
    const H = wsHeaders(session, ws.workspaceId);
    const mine = await app.inject({
      method: 'POST',
      url: `${API}/questionnaires`,
      headers: H,
      payload: { title: `By the ${who}`, template: 'dora-ict-tpp', templateSections: ['contract'] },
    });
    t.equal(mine.statusCode, 201, `${who} creates`);
    const id = mine.json().data.questionnaire.id;
    const renamed = await app.inject({ method: 'PATCH', url: `${API}/questionnaires/${id}`, headers: H, payload: { title: `Renamed by the ${who}` } });
    t.equal(renamed.statusCode, 200, `${who} updates`);
    t.equal(renamed.json().data.questionnaire.title, `Renamed by the ${who}`);
    t.equal((await app.inject({ method: 'DELETE', url: `${API}/questionnaires/${id}`, headers: H })).statusCode, 200, `${who} deletes`);
  }
});
