import t from 'tap';
import { buildApp } from '../../src/app.js';
import { queryRows, sql } from '../../src/db/client.js';
import { freshDatabase, registerUser, testConfig } from '../helpers/app.js';
import { startHttpMcpServer, waitForMcpSync } from '../helpers/mcpServer.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * SECRETS_KEY rotation (docs/mcp-sources.md, "Secrets at rest"): values sealed with a
 * previous key still open when it is listed in SECRETS_KEY_PREVIOUS; with an unknown key
 * the sync fails without leaking anything and the credentials must be restated.
 */
const API = '/api/v1';
const TOKEN = 'rotation-token-9876543210';
const K1 = 'first-secrets-key-0123456789abcdef0123';
const K2 = 'second-secrets-key-0123456789abcdef012';
const K3 = 'third-secrets-key-0123456789abcdef0123';
const base = testConfig();
const mcp = { ...base.mcp, allowPrivateNetworks: true };
const { database, drop } = await freshDatabase();
t.teardown(drop);
const fixture = await startHttpMcpServer({ requireBearer: TOKEN });
t.teardown(fixture.close);

/** One app at a time on the shared database, so the worker that runs a sync has the key under test. */
async function withApp<T>(keys: { current: string; previous?: string[] }, fn: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<T>): Promise<T> {
  const app = await buildApp({
    config: { ...testConfig({ mcp, syncSchedulerIntervalSec: 0 }), secretsKey: keys.current, secretsKeyPrevious: keys.previous ?? [] },
    database,
  });
  await app.ready();
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

const { headers, sourceId } = await withApp({ current: K1 }, async (app) => {
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'Rotation Vendor');
  const res = await app.inject({
    method: 'POST',
    url: `${API}/mcp-sources`,
    headers: ws.headers,
    payload: { name: 'Docs', transport: 'http', url: fixture.url, headers: { Authorization: `Bearer ${TOKEN}` }, sync: false },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return { headers: ws.headers, sourceId: res.json().data.mcpSource.id as string };
});

t.test('a previous key still decrypts', async (t) => {
  await withApp({ current: K2, previous: [K1] }, async (app) => {
    const res = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${sourceId}/sync`, headers });
    t.equal(res.statusCode, 200, res.body);
    const run = await waitForMcpSync(app, headers, sourceId, { runId: res.json().data.sync.id });
    t.equal(run.status, 'succeeded', JSON.stringify(run));
  });
});

t.test('an unknown key: the sync fails cleanly, credentials must be restated', async (t) => {
  await withApp({ current: K3 }, async (app) => {
    const res = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${sourceId}/sync`, headers });
    const run = await waitForMcpSync(app, headers, sourceId, { runId: res.json().data.sync.id });
    t.equal(run.status, 'failed');
    t.match(run.error, /SECRETS_KEY/);
    const [docs] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM documents WHERE mcp_source_id = ${sourceId} AND deleted_at IS NULL`,
    );
    t.equal(docs!.n, 2, 'a failed sync removes nothing');

    t.equal(
      (await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${sourceId}`, headers, payload: { name: 'Renamed' } })).statusCode,
      200,
      'other fields can change',
    );
    const url = await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${sourceId}`, headers, payload: { url: fixture.url } });
    t.equal(url.statusCode, 409);
    t.equal(url.json().error.code, 'SECRETS_UNREADABLE');
    const restate = await app.inject({
      method: 'PATCH',
      url: `${API}/mcp-sources/${sourceId}`,
      headers,
      payload: { headers: { Authorization: `Bearer ${TOKEN}` } },
    });
    t.equal(restate.statusCode, 200, restate.body);
    t.notOk(restate.body.includes(TOKEN));
    const again = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${sourceId}/sync`, headers });
    t.equal((await waitForMcpSync(app, headers, sourceId, { runId: again.json().data.sync.id })).status, 'succeeded');
  });
});
