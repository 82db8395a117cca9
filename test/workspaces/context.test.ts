import t from 'tap';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { addOrgMember, createOrgAndWorkspace } from '../helpers/workspaces.js';

t.test('workspace context: X-Workspace-Id, membership and permission', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'GitHub');
  t.ok(ws.workspaceId && ws.workspaceSlug === 'github', 'slug from the name');

  const list = await app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: owner.headers });
  t.equal(list.statusCode, 200);
  const [item] = list.json().data.workspaces;
  t.match(item, { id: ws.workspaceId, workspaceName: 'GitHub', workspaceId: 'github', syncStatus: 'active', myRole: 'owner', memberCount: 1 });
  t.same(item.permissions, { canQuery: true, canViewSources: true, canInvite: true, canManageSync: true, canEditSettings: true, canDeleteWorkspace: true });

  const detail = await app.inject({ method: 'GET', url: `/api/v1/workspaces/${ws.workspaceSlug}`, headers: owner.headers });
  t.equal(detail.statusCode, 200, 'detail by the second identifier');
  t.equal(detail.json().data.workspace.owner.id, owner.id);
  t.same(detail.json().data.workspace.stats, { totalPages: 0, totalDatabases: 0, totalDocuments: 0 });

  const analyst = await addOrgMember(app, owner, ws.orgId, 'analyst');
  const seen = await app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: analyst.headers });
  t.equal(seen.json().data.workspaces[0].myRole, 'member', 'analyst maps onto member');

  const stranger = await registerUser(app);
  const noOrg = await app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: stranger.headers });
  t.equal(noOrg.statusCode, 403);
  t.equal(noOrg.json().error.code, 'ONBOARDING_REQUIRED');
  const denied = await app.inject({ method: 'GET', url: `/api/v1/workspaces/${ws.workspaceId}`, headers: stranger.headers });
  t.equal(denied.statusCode, 403);
  t.equal(denied.json().message, 'Access denied to this workspace');
  t.notOk(denied.body.includes('GitHub'));
});
