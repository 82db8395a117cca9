import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { queryRows, sql } from '../../src/db/client.js';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { DEFAULT_RESOURCES, stdioServerCommand, waitForMcpSync } from '../helpers/mcpServer.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * MCP sources over stdio: a real MCP server (test/fixtures/mcp-stdio-server.ts) spawned
 * by the service with `node --import=tsx`, allowed by configuration (stdio enabled and
 * the command in the allow-list); its environment is stored encrypted.
 */
const API = '/api/v1';
const { command, args } = stdioServerCommand();
const base = testConfig();
const ctx = await buildTestApp({ mcp: { ...base.mcp, stdioEnabled: true, stdioCommands: [command] } }, { seed: false });
t.teardown(ctx.close);
const { app, database } = ctx;

const dir = mkdtempSync(path.join(tmpdir(), 'mcp-stdio-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const resourcesFile = path.join(dir, 'resources.json');
writeFileSync(resourcesFile, JSON.stringify(DEFAULT_RESOURCES));

const owner = await registerUser(app);
const ws = await createOrgAndWorkspace(app, owner, 'Acme Stdio');
const H = ws.headers;
const SECRET = 'stdio-env-secret-value-77';

t.test('stdio policy: command allow-list and refused environment variables', async (t) => {
  const other = await app.inject({
    method: 'POST',
    url: `${API}/mcp-sources`,
    headers: H,
    payload: { name: 'x', transport: 'stdio', command: '/bin/sh', args: ['-c', 'id'] },
  });
  t.equal(other.statusCode, 400);
  t.equal(other.json().error.code, 'STDIO_NOT_ALLOWED');
  t.match(other.json().message, /not in the allowed stdio commands/);
  for (const name of ['NODE_OPTIONS', 'LD_PRELOAD', 'PATH']) {
    const res = await app.inject({
      method: 'POST',
      url: `${API}/mcp-sources`,
      headers: H,
      payload: { name: 'x', transport: 'stdio', command, args, env: { [name]: '--require /tmp/x.js' } },
    });
    t.equal(res.statusCode, 400, name);
    t.match(res.json().message, new RegExp(`env.${name}: cannot be set`));
  }
  const url = await app.inject({
    method: 'POST',
    url: `${API}/mcp-sources`,
    headers: H,
    payload: { name: 'x', transport: 'stdio', command, url: 'http://127.0.0.1/mcp' },
  });
  t.equal(url.statusCode, 400);
  t.match(url.json().message, /url: is only allowed for transport http/);
});

t.test('test-connection spawns the server and reports it', async (t) => {
  const res = await app.inject({
    method: 'POST',
    url: `${API}/mcp-sources/test-connection`,
    headers: H,
    payload: { transport: 'stdio', command, args, env: { MCP_FIXTURE_RESOURCES: resourcesFile, MCP_FIXTURE_NAME: 'stdio-docs' } },
  });
  t.equal(res.statusCode, 200, res.body);
  t.match(res.json().data.connection, { ok: true, server: { name: 'stdio-docs', version: '1.2.3' }, resources: { count: 2 }, tools: { count: 1 } });
  const bad = await app.inject({
    method: 'POST',
    url: `${API}/mcp-sources/test-connection`,
    headers: H,
    payload: { transport: 'stdio', command, args: ['--import=tsx', path.join(dir, 'missing.ts')] },
  });
  t.equal(bad.statusCode, 200);
  t.equal(bad.json().data.connection.ok, false, 'a server that exits is a failed test, not an error');
});

t.test('register, sync, incremental re-sync, env never returned', async (t) => {
  const res = await app.inject({
    method: 'POST',
    url: `${API}/mcp-sources`,
    headers: H,
    payload: { name: 'Stdio docs', transport: 'stdio', command, args, env: { MCP_FIXTURE_RESOURCES: resourcesFile, FIXTURE_TOKEN: SECRET } },
  });
  t.equal(res.statusCode, 201, res.body);
  const src = res.json().data.mcpSource;
  t.match(src, { transport: 'stdio', command, args, url: null, envNames: ['MCP_FIXTURE_RESOURCES', 'FIXTURE_TOKEN'], headerNames: [] });
  t.notOk(res.body.includes(SECRET));
  const [row] = await queryRows<{ secrets: string }>(database.db, sql`SELECT secrets FROM mcp_sources WHERE id = ${src.id}`);
  t.notOk(row!.secrets.includes(SECRET), 'env stored encrypted');

  const run = await waitForMcpSync(app, H, src.id);
  t.match(run, { status: 'succeeded', resources: { listed: 2, added: 2 } }, JSON.stringify(run));

  // Edit the server's data: one resource changed.
  writeFileSync(
    resourcesFile,
    JSON.stringify([DEFAULT_RESOURCES[0], { ...DEFAULT_RESOURCES[1]!, text: `${DEFAULT_RESOURCES[1]!.text} Restores are tested quarterly.` }]),
  );
  const again = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${src.id}/sync`, headers: H });
  t.equal(again.statusCode, 200);
  const run2 = await waitForMcpSync(app, H, src.id, { runId: again.json().data.sync.id });
  t.match(run2, { status: 'succeeded', resources: { unchanged: 1, updated: 1, added: 0, removed: 0 } });
  const [docs] = await queryRows<{ n: number }>(
    database.db,
    sql`SELECT count(*)::int AS n FROM documents WHERE mcp_source_id = ${src.id} AND deleted_at IS NULL`,
  );
  t.equal(docs!.n, 2);

  const got = await app.inject({ method: 'GET', url: `${API}/mcp-sources/${src.id}`, headers: H });
  t.notOk(got.body.includes(SECRET));
  t.notOk(got.body.includes(resourcesFile), 'env values are not returned');
});

t.test('stdio sources are refused when stdio is not enabled', async (t) => {
  const strict = await buildTestApp({}, { seed: false });
  t.teardown(strict.close);
  const u = await registerUser(strict.app);
  const w = await createOrgAndWorkspace(strict.app, u, 'Strict');
  const res = await strict.app.inject({
    method: 'POST',
    url: `${API}/mcp-sources/test-connection`,
    headers: w.headers,
    payload: { transport: 'stdio', command, args },
  });
  t.equal(res.statusCode, 400);
  t.equal(res.json().error.code, 'STDIO_NOT_ALLOWED');
  t.match(res.json().message, /MCP_STDIO_ENABLED/);
});
