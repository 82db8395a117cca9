import t from 'tap';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { addOrgMember, createOrgAndWorkspace } from '../helpers/workspaces.js';

t.test('access: workspace header, membership and permissions', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const a = await createOrgAndWorkspace(app, owner, 'Vendor A');
  const body = { documents: [{ content: 'hello world', format: 'text' }] };

  const anon = await app.inject({ method: 'POST', url: '/api/v1/data-sources', payload: body });
  t.equal(anon.statusCode, 401);
  const noHeader = await app.inject({ method: 'POST', url: '/api/v1/data-sources', headers: owner.headers, payload: body });
  t.equal(noHeader.statusCode, 400);
  const stranger = await registerUser(app);
  const denied = await app.inject({ method: 'GET', url: '/api/v1/data-sources', headers: { ...stranger.headers, 'x-workspace-id': a.workspaceId } });
  t.equal(denied.statusCode, 403);
  t.equal(denied.json().message, 'Access denied to this workspace');

  // An organization viewer may read sources but not manage them.
  const viewer = await addOrgMember(app, owner, a.orgId, 'viewer');
  const vh = { ...viewer.headers, 'x-workspace-id': a.workspaceId };
  const created = await app.inject({ method: 'POST', url: '/api/v1/data-sources', headers: a.headers, payload: body });
  t.equal(created.statusCode, 201);
  const id = created.json().data.dataSource.id;
  const vList = await app.inject({ method: 'GET', url: '/api/v1/data-sources', headers: vh });
  t.equal(vList.statusCode, 200);
  for (const [method, url] of [
    ['POST', '/api/v1/data-sources'],
    ['POST', `/api/v1/data-sources/${id}/sync`],
    ['DELETE', `/api/v1/data-sources/${id}`],
  ] as const) {
    const res = await app.inject({ method, url, headers: vh, ...(url.endsWith('data-sources') ? { payload: body } : {}) });
    t.equal(res.statusCode, 403, `${method} ${url} needs canManageSync`);
    t.equal(res.json().error.code, 'INSUFFICIENT_PERMISSION');
  }
  const unknown = await app.inject({ method: 'GET', url: '/api/v1/data-sources/nope', headers: a.headers });
  t.equal(unknown.statusCode, 404);
  t.equal(unknown.json().error.code, 'DATA_SOURCE_NOT_FOUND');
  const badQuery = await app.inject({ method: 'GET', url: '/api/v1/data-sources?limit=1000&sort=bogus', headers: a.headers });
  t.equal(badQuery.statusCode, 400);
});
