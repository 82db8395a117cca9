import t from 'tap';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { fakeEmbeddings } from '../helpers/fakeEmbeddings.js';
import { startHttpMcpServer } from '../helpers/mcpServer.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * Workspace `syncStatus` (docs/organizations-and-workspaces.md) follows its sources:
 * `syncing` while any sync is queued or running, `error` while the last sync of a source
 * failed, `active` otherwise. An API-only app (WORKERS=0) keeps jobs queued, and the
 * test runs them itself, so every state can be observed.
 */
const API = '/api/v1';
const fake = await fakeEmbeddings();
t.teardown(fake.close);
const base = testConfig();
const ctx = await buildTestApp(
  { workers: 0, embeddings: { provider: 'openai', apiUrl: fake.url, apiKey: 'sk-test', model: 'fake-embed' }, mcp: { ...base.mcp, allowPrivateNetworks: true } },
  { seed: false },
);
t.teardown(ctx.close);
const { app } = ctx;
const mcp = await startHttpMcpServer({ requireBearer: 'tok' });
t.teardown(mcp.close);

const owner = await registerUser(app);
const ws = await createOrgAndWorkspace(app, owner, 'Vendor A');
const other = await createOrgAndWorkspace(app, owner, 'Vendor B');
const job = { id: 'direct', retryCount: 0, retryLimit: 0, signal: new AbortController().signal };

/** The status as the list and the detail show it (they must agree). */
async function status(id: string): Promise<string> {
  const list = (await app.inject({ method: 'GET', url: `${API}/workspaces`, headers: owner.headers })).json().data.workspaces as { id: string; syncStatus: string }[];
  const detail = (await app.inject({ method: 'GET', url: `${API}/workspaces/${id}`, headers: owner.headers })).json().data.workspace;
  const item = list.find((w) => w.id === id)!;
  if (item.syncStatus !== detail.syncStatus) throw new Error(`list says ${item.syncStatus}, detail ${detail.syncStatus}`);
  return detail.syncStatus;
}

t.test('a workspace without sources is active', async (t) => {
  t.equal(await status(ws.workspaceId), 'active');
});

let dsId = '';
t.test('data sources: syncing while an ingestion is queued, error when it failed, active when indexed', async (t) => {
  const res = await app.inject({ method: 'POST', url: `${API}/data-sources`, headers: ws.headers, payload: { name: 'Policy', documents: [{ content: 'Keys are rotated every 90 days.', format: 'text' }] } });
  t.equal(res.statusCode, 201);
  dsId = res.json().data.dataSource.id;
  t.equal(await status(ws.workspaceId), 'syncing');
  t.equal(await status(other.workspaceId), 'active', 'another workspace is not affected');

  fake.mode.fail = 400;
  await app.services.dataSources.ingest({ dataSourceId: dsId, generation: 1, requestedBy: owner.id }, job);
  t.equal((await app.services.dataSources.get(ws.workspaceId, dsId)).status, 'failed');
  t.equal(await status(ws.workspaceId), 'error');

  fake.mode.fail = null;
  await app.services.dataSources.sync(ws.workspaceId, dsId, owner.id);
  t.equal(await status(ws.workspaceId), 'syncing', 'a retry under way takes precedence over the old failure');
  await app.services.dataSources.ingest({ dataSourceId: dsId, generation: 2, requestedBy: owner.id }, job);
  t.equal(await status(ws.workspaceId), 'active');
});

t.test('MCP sources: the latest finished run decides; disabling or deleting a failing source clears the error', async (t) => {
  const create = await app.inject({ method: 'POST', url: `${API}/mcp-sources`, headers: other.headers, payload: { name: 'Docs', transport: 'http', url: mcp.url, headers: { Authorization: 'Bearer wrong' }, sync: false } });
  t.equal(create.statusCode, 201, create.body);
  const sourceId = create.json().data.mcpSource.id;
  t.equal(await status(other.workspaceId), 'active', 'a source that never synced');

  const runOnce = async () => {
    const res = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${sourceId}/sync`, headers: other.headers });
    t.equal(res.statusCode, 200, res.body);
    t.equal(await status(other.workspaceId), 'syncing', 'a queued run');
    await app.services.mcpSources.runSync(res.json().data.sync.id);
    return (await app.inject({ method: 'GET', url: `${API}/mcp-sources/${sourceId}`, headers: other.headers })).json().data.mcpSource;
  };
  t.equal((await runOnce()).syncStatus, 'failed', 'the server refuses the wrong token');
  t.equal(await status(other.workspaceId), 'error');

  await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${sourceId}`, headers: other.headers, payload: { headers: { Authorization: 'Bearer tok' } } });
  t.equal((await runOnce()).syncStatus, 'succeeded');
  t.equal(await status(other.workspaceId), 'active', 'a later successful run clears the error');

  await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${sourceId}`, headers: other.headers, payload: { headers: { Authorization: 'Bearer wrong' } } });
  t.equal((await runOnce()).syncStatus, 'failed');
  t.equal(await status(other.workspaceId), 'error');
  const off = await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${sourceId}`, headers: other.headers, payload: { enabled: false } });
  t.equal(off.statusCode, 200, off.body);
  t.equal(await status(other.workspaceId), 'active', 'a disabled source is not synced, so its old failure does not count');

  const del = await app.inject({ method: 'DELETE', url: `${API}/data-sources/${dsId}`, headers: ws.headers });
  t.equal(del.statusCode, 200);
  t.equal(await status(ws.workspaceId), 'active');
});
