import t from 'tap';
import { buildApp } from '../../src/app.js';
import { createDatabase, queryRows, sql } from '../../src/db/client.js';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { startHttpMcpServer, waitForMcpSync } from '../helpers/mcpServer.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * Workspace sync schedules (docs/sync-schedule.md): a tick queues syncs of every data
 * source and MCP source of each due workspace, once across instances; manual triggers
 * are rate limited, scheduled ones are not.
 */
const API = '/api/v1';
const base = testConfig();
const mcp = { ...base.mcp, allowPrivateNetworks: true };
// Limits on for the manual-trigger test: sync 2 per window, the rest generous.
const rateLimits = {
  ...base.rateLimits,
  enabled: true,
  sync: { max: 2, windowMs: 3_600_000 },
  general: { max: 1_000_000, windowMs: 60_000 },
  globalHourly: { max: 1_000_000, windowMs: 3_600_000 },
};
const ctx = await buildTestApp({ mcp, rateLimits, syncSchedulerIntervalSec: 0 }, { seed: false });
t.teardown(ctx.close);
const { app, database } = ctx;
const db = database.db;
const fixture = await startHttpMcpServer();
t.teardown(fixture.close);

const owner = await registerUser(app);
const ws = await createOrgAndWorkspace(app, owner, 'Scheduled Vendor');
const quiet = await createOrgAndWorkspace(app, owner, 'Unscheduled Vendor');

async function mcpSource(headers: Record<string, string>, name: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: `${API}/mcp-sources`, headers, payload: { name, transport: 'http', url: fixture.url, sync: false } });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().data.mcpSource.id;
}
const source = await mcpSource(ws.headers, 'Scheduled docs');
const quietSource = await mcpSource(quiet.headers, 'Quiet docs');
const ds = await app.inject({
  method: 'POST',
  url: `${API}/data-sources`,
  headers: ws.headers,
  payload: { name: 'Policy', documents: [{ title: 'Policy', content: 'The vendor rotates keys every 90 days.', format: 'text' }] },
});
if (ds.statusCode !== 201) throw new Error(ds.body);
const dataSourceId: string = ds.json().data.dataSource.id;

async function dataSource() {
  const res = await app.inject({ method: 'GET', url: `${API}/data-sources/${dataSourceId}`, headers: ws.headers });
  return res.json().data.dataSource as { status: string; syncRequestedAt: string; lastSyncedAt: string | null };
}
async function waitReady() {
  for (let i = 0; i < 1200; i++) {
    const d = await dataSource();
    if (d.status === 'ready' || d.status === 'failed') return d;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('data source not ready');
}
const scheduledRuns = async (id: string) =>
  Number((await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM mcp_sync_runs WHERE source_id = ${id} AND trigger = 'schedule'`))[0]!.n);
const backdate = (hours: number) =>
  queryRows(db, sql`UPDATE workspace_sync_schedule_state SET last_run_at = now() - make_interval(hours => ${hours}) WHERE workspace_id = ${ws.workspaceId}`);

await waitReady();
const enable = await app.inject({
  method: 'PATCH',
  url: `${API}/workspaces/${ws.workspaceId}`,
  headers: owner.headers,
  payload: { syncSchedule: { enabled: true, intervalHours: 2 } },
});
if (enable.statusCode !== 200) throw new Error(enable.body);

t.test('a tick syncs every data source and MCP source of a due workspace, and only of it', async (t) => {
  const before = await dataSource();
  const r = await app.services.syncSchedule.tick();
  t.same(r.claimed, [ws.workspaceId], 'only the workspace with an enabled schedule');
  t.equal(r.queued, 2, 'one data source and one MCP source');
  t.same(r.errors, []);
  const run = await waitForMcpSync(app, ws.headers, source);
  t.match(run, { trigger: 'schedule', status: 'succeeded', resources: { added: 2 } });
  const after = await waitReady();
  t.equal(after.status, 'ready');
  t.ok(after.syncRequestedAt > before.syncRequestedAt, 'the data source was re-synced');
  const quietGot = await app.inject({ method: 'GET', url: `${API}/mcp-sources/${quietSource}`, headers: quiet.headers });
  t.equal(quietGot.json().data.mcpSource.lastSync, null, 'the unscheduled workspace was not synced');
  const state = await app.services.syncSchedule.state(ws.workspaceId);
  t.match(state, { lastRunSources: 2, lastRunErrors: [] });
  t.ok(state!.lastRunAt instanceof Date);
});

t.test('not due again before intervalHours; due once it has passed', async (t) => {
  t.same((await app.services.syncSchedule.tick()).claimed, [], 'just ran');
  await backdate(1);
  t.same((await app.services.syncSchedule.tick()).claimed, [], '1 h of 2 h');
  await backdate(2);
  const r = await app.services.syncSchedule.tick();
  t.same(r.claimed, [ws.workspaceId], '2 h passed');
  const run = await waitForMcpSync(app, ws.headers, source);
  t.match(run, { trigger: 'schedule', resources: { unchanged: 2, added: 0 } }, 'scheduled syncs are incremental too');
  await waitReady();

  // A longer interval applies at once; a disabled schedule never runs.
  await app.inject({
    method: 'PATCH',
    url: `${API}/workspaces/${ws.workspaceId}`,
    headers: owner.headers,
    payload: { syncSchedule: { enabled: true, intervalHours: 6 } },
  });
  await backdate(3);
  t.same((await app.services.syncSchedule.tick()).claimed, [], '3 h of 6 h');
  await app.inject({
    method: 'PATCH',
    url: `${API}/workspaces/${ws.workspaceId}`,
    headers: owner.headers,
    payload: { syncSchedule: { enabled: false, intervalHours: 6 } },
  });
  await backdate(48);
  t.same((await app.services.syncSchedule.tick()).claimed, [], 'disabled');
  await app.inject({
    method: 'PATCH',
    url: `${API}/workspaces/${ws.workspaceId}`,
    headers: owner.headers,
    payload: { syncSchedule: { enabled: true, intervalHours: 2 } },
  });
});

t.test('two instances on the same database: a due workspace is synced exactly once', async (t) => {
  // A second app instance on the same database (its own connection pool on PostgreSQL).
  const second = database.kind === 'postgres' ? await createDatabase({ url: database.url!, max: 5 }) : database;
  const app2 = await buildApp({ config: { ...testConfig({ mcp, syncSchedulerIntervalSec: 0 }), workers: 0 }, database: second });
  await app2.ready();
  t.teardown(async () => {
    await app2.close();
    if (second !== database) await second.close();
  });
  for (let round = 0; round < 5; round++) {
    await waitForMcpSync(app, ws.headers, source);
    await waitReady();
    await backdate(5);
    const runsBefore = await scheduledRuns(source);
    const [a, b] = await Promise.all([app.services.syncSchedule.tick(), app2.services.syncSchedule.tick()]);
    t.equal(a.claimed.length + b.claimed.length, 1, `round ${round}: claimed by ${a.claimed.length ? 'instance 1' : 'instance 2'} only`);
    t.equal(a.queued + b.queued, 2);
    t.equal(await scheduledRuns(source), runsBefore + 1, 'one scheduled sync run queued');
  }
  await waitForMcpSync(app, ws.headers, source);
  await waitReady();
});

t.test('manual sync triggers are rate limited by the sync limit; scheduled syncs are not', async (t) => {
  const first = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${source}/sync`, headers: ws.headers });
  t.equal(first.statusCode, 200, first.body);
  t.equal(first.headers['x-ratelimit-limit'], '2');
  const second = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${source}/sync`, headers: ws.headers });
  t.equal(second.statusCode, 200);
  if (second.json().data.sync.id === first.json().data.sync.id) t.equal(second.json().message, 'A sync of this source is already queued');
  const third = await app.inject({ method: 'POST', url: `${API}/data-sources/${dataSourceId}/sync`, headers: ws.headers });
  t.equal(third.statusCode, 429, 'the limit is shared by data-source and MCP sync triggers');
  t.same(third.json(), { status: 'error', message: 'Too many requests, please try again later', error: { code: 'RATE_LIMIT_EXCEEDED', details: [] } });
  t.ok(Number(third.headers['retry-after']) > 0);

  await waitForMcpSync(app, ws.headers, source);
  await waitReady();
  await backdate(5);
  const r = await app.services.syncSchedule.tick();
  t.same(r.claimed, [ws.workspaceId], 'the scheduler is not limited');
  t.equal(r.queued, 2);
  await waitForMcpSync(app, ws.headers, source);
  await waitReady();
});
