import t from 'tap';
import { buildApp } from '../../src/app.js';
import { freshDatabase, registerUser, testConfig } from '../helpers/app.js';
import { addOrgMember, createOrgAndWorkspace } from '../helpers/workspaces.js';

/** An app with probe routes declared the way modules declare workspace-scoped routes. */
async function probeApp() {
  const { database, drop } = await freshDatabase();
  const app = await buildApp({ config: testConfig(), database });
  await app.register(
    async (api) => {
      api.get('/probe', { config: { workspace: true } }, async (request) => ({ workspace: request.workspace }));
      api.post('/probe/invite', { config: { permission: 'canInvite' } }, async (request) => ({ role: request.workspace!.role }));
    },
    { prefix: '/api/v1' },
  );
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

t.test('X-Workspace-Id: required, validated, resolved by id or workspaceId', async (t) => {
  const { app, close } = await probeApp();
  t.teardown(close);
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'GitHub');
  const viewer = await addOrgMember(app, owner, ws.orgId, 'viewer');
  const outsider = await registerUser(app);
  await createOrgAndWorkspace(app, outsider, 'Other', 'Other Bank');

  const get = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/api/v1/probe', headers });

  const ok = await get(ws.headers);
  t.equal(ok.statusCode, 200);
  t.match(ok.json().workspace, {
    id: ws.workspaceId,
    workspaceId: 'github',
    orgId: ws.orgId,
    role: 'owner',
    membership: 'explicit',
    permissions: { canDeleteWorkspace: true },
  });
  const bySlug = await get({ ...owner.headers, 'x-workspace-id': 'github' });
  t.equal(bySlug.json().workspace.id, ws.workspaceId, 'the second identifier works too');

  const missing = await get(owner.headers);
  t.equal(missing.statusCode, 400);
  t.same(missing.json().error, { code: 'VALIDATION_ERROR', details: ['X-Workspace-Id: is required'] });
  const malformed = await get({ ...owner.headers, 'x-workspace-id': "x' or 1=1 --" });
  t.equal(malformed.statusCode, 400);
  t.equal(malformed.json().error.code, 'VALIDATION_ERROR');
  const tooLong = await get({ ...owner.headers, 'x-workspace-id': 'a'.repeat(101) });
  t.equal(tooLong.statusCode, 400);

  const unknown = await get({ ...owner.headers, 'x-workspace-id': '00000000-0000-0000-0000-000000000000' });
  t.equal(unknown.statusCode, 403, 'an unknown workspace is indistinguishable from a foreign one');
  t.equal(unknown.json().message, 'Access denied to this workspace');
  const foreign = await get({ ...outsider.headers, 'x-workspace-id': ws.workspaceId });
  t.equal(foreign.statusCode, 403);
  t.same(foreign.json(), { status: 'error', message: 'Access denied to this workspace', error: { code: 'WORKSPACE_ACCESS_DENIED', details: [] } });
  const noAuth = await app.inject({ method: 'GET', url: '/api/v1/probe', headers: { 'x-workspace-id': ws.workspaceId } });
  t.equal(noAuth.statusCode, 401, 'authentication comes first');

  const v = await app.inject({ method: 'POST', url: '/api/v1/probe/invite', headers: { ...viewer.headers, 'x-workspace-id': ws.workspaceId } });
  t.equal(v.statusCode, 403);
  t.same(v.json().error, { code: 'INSUFFICIENT_PERMISSION', details: [] });
  t.match(v.json().message, /canInvite/);
  const o = await app.inject({ method: 'POST', url: '/api/v1/probe/invite', headers: ws.headers });
  t.same(o.json(), { role: 'owner' });

  t.ok(
    app.workspaceRoutes.some((r) => r.url === '/api/v1/probe/invite' && r.permission === 'canInvite' && r.workspaceParam === null),
    'routes are collected',
  );
});

t.test('an unknown permission in a route config fails at start-up', async (t) => {
  const { database, drop } = await freshDatabase();
  t.teardown(drop);
  const app = await buildApp({ config: testConfig(), database });
  t.teardown(() => app.close());
  await t.rejects(async () => {
    await app.register(async (api) => {
      api.get('/typo', { config: { permission: 'canQuerry' } }, async () => ({}));
    });
    await app.ready();
  }, /unknown permission canQuerry/);
});
