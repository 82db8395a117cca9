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
  {
    workers: 0,
    embeddings: { provider: 'openai', apiUrl: fake.url, apiKey: 'sk-test', model: 'fake-embed' },
    mcp: { ...base.mcp, allowPrivateNetworks: true },
  },
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

/** The status as the list, the detail and GET /sync-status show it (they must agree). */
async function status(id: string): Promise<string> {
  const list = (await app.inject({ method: 'GET', url: `${API}/workspaces`, headers: owner.headers })).json().data.workspaces as {
    id: string;
    syncStatus: string;
  }[];
  const detail = (await app.inject({ method: 'GET', url: `${API}/workspaces/${id}`, headers: owner.headers })).json().data.workspace;
  const item = list.find((w) => w.id === id)!;
  if (item.syncStatus !== detail.syncStatus) throw new Error(`list says ${item.syncStatus}, detail ${detail.syncStatus}`);
  const sync = await app.inject({ method: 'GET', url: `${API}/sync-status`, headers: { ...owner.headers, 'x-workspace-id': id } });
  if (sync.statusCode !== 200 || sync.json().data.syncStatus !== detail.syncStatus)
    throw new Error(`GET /sync-status says ${sync.body}, detail ${detail.syncStatus}`);
  return detail.syncStatus;
}

t.test('a workspace without sources is active', async (t) => {
  t.equal(await status(ws.workspaceId), 'active');
});

let dsId = '';
t.test('data sources: syncing while an ingestion is queued, error when it failed, active when indexed', async (t) => {
  const res = await app.inject({
    method: 'POST',
    url: `${API}/data-sources`,
    headers: ws.headers,
    payload: { name: 'Policy', documents: [{ content: 'Keys are rotated every 90 days.', format: 'text' }] },
  });
  t.equal(res.statusCode, 201);
  dsId = res.json().data.dataSource.id;
  t.equal(await status(ws.workspaceId), 'syncing');
  t.equal(await status(other.workspaceId), 'active', 'another workspace is not affected');

  fake.mode.fail = 400;
  await app.services.dataSources.ingest({ dataSourceId: dsId, generation: 1, requestedBy: owner.id }, job);
  t.equal((await app.services.dataSources.get({ workspaceId: ws.workspaceId }, dsId)).status, 'failed');
  t.equal(await status(ws.workspaceId), 'error');

  fake.mode.fail = null;
  await app.services.dataSources.sync({ workspaceId: ws.workspaceId }, dsId, owner.id);
  t.equal(await status(ws.workspaceId), 'syncing', 'a retry under way takes precedence over the old failure');
  await app.services.dataSources.ingest({ dataSourceId: dsId, generation: 2, requestedBy: owner.id }, job);
  t.equal(await status(ws.workspaceId), 'active');
  const list = (await app.inject({ method: 'GET', url: `${API}/workspaces`, headers: owner.headers })).json().data.workspaces as {
    id: string;
    documentCount: number;
    lastSyncedAt: string | null;
  }[];
  const a = list.find((w) => w.id === ws.workspaceId)!;
  const ds = await app.services.dataSources.get({ workspaceId: ws.workspaceId }, dsId);
  t.equal(a.documentCount, 1, 'the list counts the indexed documents');
  t.equal(a.lastSyncedAt, ds.lastSyncedAt, 'and shows the newest successful sync');
  t.match(
    list.find((w) => w.id === other.workspaceId),
    { documentCount: 0, lastSyncedAt: null },
    'a workspace without sources: 0, never',
  );
});

t.test('MCP sources: the latest finished run decides; disabling or deleting a failing source clears the error', async (t) => {
  const create = await app.inject({
    method: 'POST',
    url: `${API}/mcp-sources`,
    headers: other.headers,
    payload: { name: 'Docs', transport: 'http', url: mcp.url, headers: { Authorization: 'Bearer wrong' }, sync: false },
  });
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
  const succeeded = await runOnce();
  t.equal(succeeded.syncStatus, 'succeeded');
  t.equal(await status(other.workspaceId), 'active', 'a later successful run clears the error');
  const item = (
    (await app.inject({ method: 'GET', url: `${API}/workspaces`, headers: owner.headers })).json().data.workspaces as {
      id: string;
      documentCount: number;
      lastSyncedAt: string | null;
    }[]
  ).find((w) => w.id === other.workspaceId)!;
  t.ok(item.documentCount > 0, 'MCP resources count as documents');
  t.ok(item.lastSyncedAt && Date.now() - Date.parse(item.lastSyncedAt) < 60_000, 'a successful MCP sync is the last sync');

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

/** GET /sync-status of a workspace (docs/sync-status.md). */
async function syncStatus(headers: Record<string, string>, qs = '') {
  const res = await app.inject({ method: 'GET', url: `${API}/sync-status${qs}`, headers });
  if (res.statusCode !== 200) throw new Error(`GET /sync-status${qs}: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

t.test('GET /sync-status: every source with state, job and progress, last error, schedule', async (t) => {
  const third = await createOrgAndWorkspace(app, owner, 'Vendor C');
  const h = third.headers;
  const empty = await syncStatus(h);
  t.match(empty, {
    workspaceId: third.workspaceId,
    syncStatus: 'active',
    lastSyncAt: null,
    sources: [],
    counts: { total: 0 },
    schedule: { enabled: false, nextRunAt: null, lastRunAt: null },
  });

  // A data source with two files, caught between them: syncing, running, 1 of 2 files done.
  const created = await app.inject({
    method: 'POST',
    url: `${API}/data-sources`,
    headers: h,
    payload: {
      name: 'Contracts',
      documents: [
        { content: 'Backups are kept for 30 days.', format: 'text' },
        { content: 'Incidents are reported within 4 hours.', format: 'text' },
      ],
    },
  });
  t.equal(created.statusCode, 201);
  const ds = created.json().data.dataSource;
  const queued = await syncStatus(h);
  t.match(queued.sources, [
    {
      id: ds.id,
      kind: 'data_source',
      name: 'Contracts',
      state: 'queued',
      status: 'pending',
      job: { state: 'queued', attempt: 1, progress: null, queuedAt: String },
      lastSyncAt: null,
      lastError: null,
    },
  ]);
  t.equal(queued.syncStatus, 'syncing');

  let releaseFirst!: () => void;
  let releaseSecond!: () => void;
  fake.mode.hold = new Promise<void>((r) => (releaseFirst = r));
  const before = fake.requests.length;
  const running = app.services.dataSources.ingest({ dataSourceId: ds.id, generation: 1, requestedBy: owner.id }, job);
  const arrived = async (n: number) => {
    while (fake.requests.length < before + n) await new Promise((r) => setImmediate(r));
  };
  await arrived(1);
  fake.mode.hold = new Promise<void>((r) => (releaseSecond = r));
  releaseFirst();
  await arrived(2);
  const mid = await syncStatus(h);
  t.match(mid.sources[0], {
    state: 'syncing',
    status: 'processing',
    job: { state: 'running', startedAt: String, attempt: 1, progress: { done: 1, total: 2, unit: 'files' } },
  });
  t.match(mid.counts, { total: 1, syncing: 1 });
  fake.mode.hold = null;
  releaseSecond();
  await running;
  const done = await syncStatus(h);
  t.match(done.sources[0], { state: 'ready', status: 'ready', job: null, lastSyncAt: String, lastSuccessAt: String, lastError: null });
  t.equal(done.lastSyncAt, done.sources[0].lastSyncAt);

  // An MCP source whose sync fails: error with the run's message; then queued with its run id; disabled.
  const mcpRes = await app.inject({
    method: 'POST',
    url: `${API}/mcp-sources`,
    headers: h,
    payload: { name: 'Wiki', transport: 'http', url: mcp.url, headers: { Authorization: 'Bearer wrong' }, sync: false },
  });
  const mcpId = mcpRes.json().data.mcpSource.id;
  t.match(
    (await syncStatus(h, '?sort=name')).sources.map((s: { name: string; state: string }) => [s.name, s.state]),
    [
      ['Contracts', 'ready'],
      ['Wiki', 'never'],
    ],
  );
  const trigger = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${mcpId}/sync`, headers: h });
  const runId = trigger.json().data.sync.id;
  t.match((await syncStatus(h, '?state=queued')).sources, [
    { id: mcpId, kind: 'mcp_source', state: 'queued', job: { runId, state: 'queued', trigger: 'manual' } },
  ]);
  await app.services.mcpSources.runSync(runId);
  const failed = await syncStatus(h);
  t.equal(failed.syncStatus, 'error');
  t.match(
    failed.sources[0],
    { id: mcpId, state: 'error', status: 'failed', job: null, lastSyncAt: String, lastSuccessAt: null, lastError: { message: String, at: String } },
    'default order: what needs attention first',
  );
  t.same(failed.counts, { total: 2, syncing: 0, queued: 0, error: 1, never: 0, ready: 1, disabled: 0 });
  await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${mcpId}`, headers: h, payload: { enabled: false } });
  const off = await syncStatus(h, '?limit=1&page=2');
  t.match(off, { syncStatus: 'active', counts: { disabled: 1, error: 0 }, pagination: { page: 2, limit: 1, total: 2, pages: 2, hasMore: false } });
  t.match(off.sources, [{ id: mcpId, state: 'disabled', nextSyncAt: null }], 'ready sorts before disabled');

  // The schedule: due now when it never ran, then interval after the last scheduled run.
  await app.inject({
    method: 'PATCH',
    url: `${API}/workspaces/${third.workspaceId}`,
    headers: owner.headers,
    payload: { syncSchedule: { enabled: true, intervalHours: 6 } },
  });
  const due = await syncStatus(h);
  t.match(due.schedule, { enabled: true, intervalHours: 6, lastRunAt: null, nextRunAt: String });
  t.ok(Math.abs(Date.parse(due.schedule.nextRunAt) - Date.parse(due.checkedAt)) < 1000, 'never ran: due at once');
  await app.services.syncSchedule.tick();
  const after = await syncStatus(h);
  t.equal(Date.parse(after.schedule.nextRunAt) - Date.parse(after.schedule.lastRunAt), 6 * 3_600_000);
  const dataSource = after.sources.find((s: { kind: string }) => s.kind === 'data_source');
  t.equal(dataSource.nextSyncAt, after.schedule.nextRunAt, 'sources follow the workspace schedule');

  const noHeader = await app.inject({ method: 'GET', url: `${API}/sync-status`, headers: owner.headers });
  t.equal(noHeader.statusCode, 400);
  const bad = await app.inject({ method: 'GET', url: `${API}/sync-status?state=sleeping`, headers: h });
  t.equal(bad.statusCode, 400);
});
