import type { AddressInfo } from 'node:net';
import t from 'tap';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { DEFAULT_RESOURCES, startHttpMcpServer } from '../helpers/mcpServer.js';
import { connectSse } from '../helpers/sse.js';
import { addOrgMember, createOrg, createOrgAndWorkspace, createWorkspace } from '../helpers/workspaces.js';

// Each sync of an MCP source (queued, running, ended), each change and its deletion reach the
// open streams of the members who can read the vendor's sources (`mcp-source:status`,
// docs/notifications.md): the dashboard shows the outcome of a sync without polling. Not
// stored, no id; a member without canViewSources and users of another organization hear nothing.
t.test('MCP source status changes are pushed live to the members who can see them', async (t) => {
  const base = testConfig();
  const ctx = await buildTestApp({ mcp: { ...base.mcp, allowPrivateNetworks: true } });
  t.teardown(ctx.close);
  const fixture = await startHttpMcpServer();
  t.teardown(fixture.close);
  const { app } = ctx;
  const owner = await registerUser(app, { name: 'Olivia Owner' });
  const orgId = await createOrg(app, owner, 'Acme Bank');
  const analyst = await addOrgMember(app, owner, orgId, 'analyst', { name: 'Ann Analyst' });
  const viewer = await addOrgMember(app, owner, orgId, 'viewer', { name: 'Vic Viewer' });
  const ws = await createWorkspace(app, owner, 'Acme Cloud');
  const withdrawn = await app.inject({
    method: 'PATCH',
    url: `/api/v1/workspaces/${ws.id}/members/${viewer.id}`,
    headers: owner.headers,
    payload: { permissions: { canViewSources: false } },
  });
  t.equal(withdrawn.statusCode, 200, withdrawn.body);
  const outsider = await registerUser(app, { name: 'Otto Outsider' });
  await createOrgAndWorkspace(app, outsider, 'Elsewhere', 'Other Bank');

  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1/notifications/stream`;
  const [a, v, o] = await Promise.all([analyst, viewer, outsider].map((s) => connectSse(url, s.headers)));
  t.teardown(() => [a, v, o].forEach((c) => c.close()));
  await Promise.all([a, v, o].map((c) => c.next('notification:count')));

  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/mcp-sources',
    headers: ws.headers,
    payload: { name: 'Acme docs', transport: 'http', url: fixture.url },
  });
  t.equal(created.statusCode, 201, created.body);
  const id: string = created.json().data.mcpSource.id;
  const until = async (done: (p: Record<string, unknown>) => boolean) => {
    const seen: string[] = [];
    for (;;) {
      const p = (await a.next('mcp-source:status', 60_000)).data as Record<string, unknown>;
      if (p.id !== id) continue;
      seen.push(String(p.syncStatus));
      if (done(p)) return { p, seen };
    }
  };
  const first = await until((p) => ['succeeded', 'partial', 'failed'].includes(String(p.syncStatus)));
  t.equal(first.seen.at(-1), 'succeeded', `the first sync is announced until it ends (${first.seen.join(' -> ')})`);
  t.ok(first.seen.includes('running'), 'including its start');
  t.match(first.p, {
    id,
    workspaceId: ws.id,
    name: 'Acme docs',
    enabled: true,
    documentCount: DEFAULT_RESOURCES.length,
    chunkCount: Number,
    syncId: String,
    timestamp: Number,
  });
  const stored = (await app.inject({ method: 'GET', url: `/api/v1/mcp-sources/${id}`, headers: ws.headers })).json().data.mcpSource;
  t.match(
    stored,
    { syncStatus: 'succeeded', documentCount: first.p.documentCount, chunkCount: first.p.chunkCount, lastSync: { id: first.p.syncId } },
    'the event says what the API then answers',
  );

  const off = await app.inject({ method: 'PATCH', url: `/api/v1/mcp-sources/${id}`, headers: ws.headers, payload: { enabled: false } });
  t.equal(off.statusCode, 200, off.body);
  t.match((await until(() => true)).p, { id, enabled: false }, 'a change is announced');
  const del = await app.inject({ method: 'DELETE', url: `/api/v1/mcp-sources/${id}`, headers: ws.headers });
  t.equal(del.statusCode, 200, del.body);
  t.match((await until(() => true)).p, { id, workspaceId: ws.id, syncStatus: 'deleted' }, 'a deletion is announced');
  t.same(
    v.events.filter((e) => e.event === 'mcp-source:status'),
    [],
    'a member without canViewSources is not told',
  );
  t.same(
    o.events.filter((e) => e.event === 'mcp-source:status'),
    [],
    'nor is anyone outside the workspace',
  );
  t.notOk(
    a.events.some((e) => e.event === 'mcp-source:status' && e.id),
    'status events carry no id (not stored)',
  );
});
