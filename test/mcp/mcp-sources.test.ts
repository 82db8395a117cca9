import t from 'tap';
import { queryRows, sql } from '../../src/db/client.js';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { DEFAULT_RESOURCES, startHttpMcpServer, waitForMcpSync } from '../helpers/mcpServer.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * MCP sources over Streamable HTTP against a real MCP server (SDK McpServer on
 * 127.0.0.1): registration with encrypted headers, test-connection, sync into the
 * index, answers with citations, incremental re-sync, update, stats, delete.
 */
const API = '/api/v1';
const TOKEN = 'sekret-token-4242-abcdef';
const base = testConfig();
// Tests reach the fixture on 127.0.0.1: private networks are allowed explicitly here
// (the refusal is tested below on an app with the default rules).
const ctx = await buildTestApp({ mcp: { ...base.mcp, allowPrivateNetworks: true } });
t.teardown(ctx.close);
const { app, database } = ctx;
const db = database.db;

const fixture = await startHttpMcpServer({ requireBearer: TOKEN });
t.teardown(fixture.close);

const owner = await registerUser(app);
const ws = await createOrgAndWorkspace(app, owner, 'Acme Cloud');
const H = ws.headers;

async function ask(question: string) {
  const res = await app.inject({ method: 'POST', url: `${API}/rag`, headers: H, payload: { question } });
  if (res.statusCode !== 200) throw new Error(`rag: ${res.statusCode} ${res.body}`);
  return res.json().data as {
    answer: string;
    sources: { title: string; url: string; content: string; documentId: string }[];
    citedSources: { sourceNumber: number; title: string; url: string }[];
  };
}

async function liveCounts(sourceId: string) {
  const [r] = await queryRows<{ docs: number; chunks: number; all_chunks: number }>(
    db,
    sql`SELECT (SELECT count(*)::int FROM documents WHERE mcp_source_id = ${sourceId} AND deleted_at IS NULL) AS docs,
               (SELECT count(*)::int FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.mcp_source_id = ${sourceId} AND c.deleted_at IS NULL) AS chunks,
               (SELECT count(*)::int FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.mcp_source_id = ${sourceId}) AS all_chunks`,
  );
  return { docs: Number(r!.docs), chunks: Number(r!.chunks), allChunks: Number(r!.all_chunks) };
}

let sourceId = '';

t.test('test-connection connects, lists resources and tools, stores nothing', async (t) => {
  const before = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM mcp_sources`);
  const res = await app.inject({
    method: 'POST',
    url: `${API}/mcp-sources/test-connection`,
    headers: H,
    payload: { transport: 'http', url: fixture.url, headers: { Authorization: `Bearer ${TOKEN}` } },
  });
  t.equal(res.statusCode, 200, res.body);
  const c = res.json().data.connection;
  t.equal(res.json().message, 'Connection succeeded');
  t.equal(c.ok, true);
  t.match(c.server, { name: 'acme-docs-fixture', version: '1.2.3', capabilities: { resources: true, tools: true } });
  t.equal(c.resources.count, 2);
  t.same(c.resources.items.map((r: { uri: string }) => r.uri).sort(), DEFAULT_RESOURCES.map((r) => r.uri).sort());
  t.same(
    c.tools.items.map((x: { name: string }) => x.name),
    ['search_docs'],
  );
  t.type(c.latencyMs, 'number');
  t.notOk(res.body.includes(TOKEN), 'the header value is not echoed');
  const after = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM mcp_sources`);
  t.equal(after[0]!.n, before[0]!.n, 'no source stored');

  const bad = await app.inject({
    method: 'POST',
    url: `${API}/mcp-sources/test-connection`,
    headers: H,
    payload: { transport: 'http', url: fixture.url, headers: { Authorization: 'Bearer wrong-token-value' } },
  });
  t.equal(bad.statusCode, 200, bad.body);
  t.equal(bad.json().message, 'Connection failed');
  t.equal(bad.json().data.connection.ok, false);
  t.type(bad.json().data.connection.error.code, 'string');
  t.match(bad.json().data.connection.error.message, /401|unauthorized/i);
  t.notOk(bad.body.includes('wrong-token-value'), 'a failing header value is not echoed either');

  const down = await app.inject({
    method: 'POST',
    url: `${API}/mcp-sources/test-connection`,
    headers: H,
    payload: { transport: 'http', url: 'http://127.0.0.1:1/mcp' },
  });
  t.equal(down.statusCode, 200);
  t.match(down.json().data.connection, { ok: false, error: { code: 'MCP_CONNECTION_FAILED' } });
});

t.test('register: validation', async (t) => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ name: 'x', transport: 'http' }, /url: is required for transport http/],
    [{ name: 'x', transport: 'http', url: 'ftp://127.0.0.1/mcp' }, /url must use http or https/],
    [{ name: 'x', transport: 'http', url: 'http://user:pw@127.0.0.1/mcp' }, /credentials/],
    [{ name: 'x', transport: 'http', url: fixture.url, command: 'node' }, /command: is only allowed for transport stdio/],
    [{ name: 'x', transport: 'http', url: fixture.url, headers: { Host: 'evil' } }, /headers.Host: is set by the MCP transport/],
    [{ name: 'x', transport: 'http', url: fixture.url, headers: { 'Bad Name': 'v' } }, /not a valid header name/],
    [{ name: 'x', transport: 'stdio', command: 'node' }, /stdio MCP sources are disabled/],
    [{ name: 'x', transport: 'smtp', url: fixture.url }, /transport: must be one of: http, stdio/],
    [{ name: '', transport: 'http', url: fixture.url }, /name/],
    [{ name: 'x', transport: 'http', url: fixture.url, extra: 1 }, /extra: is not allowed/],
  ];
  for (const [payload, message] of cases) {
    const res = await app.inject({ method: 'POST', url: `${API}/mcp-sources`, headers: H, payload });
    t.equal(res.statusCode, 400, `${JSON.stringify(payload)} -> ${res.body}`);
    t.match(res.json(), { status: 'error', message });
    t.ok(res.json().error.details.length > 0);
  }
  const stdio = await app.inject({ method: 'POST', url: `${API}/mcp-sources`, headers: H, payload: { name: 'x', transport: 'stdio', command: 'node' } });
  t.equal(stdio.json().error.code, 'STDIO_NOT_ALLOWED');
  const [n] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM mcp_sources`);
  t.equal(n!.n, 0, 'nothing stored by rejected requests');
});

t.test('register an HTTP MCP server: headers stored encrypted, never returned; first sync indexes its resources', async (t) => {
  const res = await app.inject({
    method: 'POST',
    url: `${API}/mcp-sources`,
    headers: H,
    payload: { name: 'Acme docs', description: 'Policies over MCP', transport: 'http', url: fixture.url, headers: { Authorization: `Bearer ${TOKEN}` } },
  });
  t.equal(res.statusCode, 201, res.body);
  t.equal(res.json().message, 'MCP source created; sync queued');
  const { mcpSource, sync } = res.json().data;
  sourceId = mcpSource.id;
  t.match(mcpSource, {
    name: 'Acme docs',
    description: 'Policies over MCP',
    transport: 'http',
    url: fixture.url,
    command: null,
    args: [],
    headerNames: ['Authorization'],
    envNames: [],
    enabled: true,
  });
  t.match(sync, { status: 'queued', trigger: 'create' });
  t.type(sync.jobId, 'string');
  t.notOk(res.body.includes(TOKEN), 'the secret is not in the response');

  const [row] = await queryRows<{ secrets: string }>(db, sql`SELECT secrets FROM mcp_sources WHERE id = ${sourceId}`);
  t.match(row!.secrets, /^v1\./, 'sealed value');
  t.notOk(row!.secrets.includes(TOKEN), 'the secret is not stored in clear');
  t.notOk(Buffer.from(row!.secrets.split('.')[4]!, 'base64url').toString('latin1').includes(TOKEN), 'nor merely encoded');

  const run = await waitForMcpSync(app, H, sourceId);
  t.match(run, {
    status: 'succeeded',
    trigger: 'create',
    resources: { listed: 2, added: 2, updated: 0, unchanged: 0, removed: 0, failed: 0 },
    error: null,
    errors: [],
  });
  t.ok(run.chunksIndexed >= 2);
  t.ok(
    fixture.requests.some((h) => h.authorization === `Bearer ${TOKEN}`),
    'the MCP server received the header',
  );

  const got = await app.inject({ method: 'GET', url: `${API}/mcp-sources/${sourceId}`, headers: H });
  t.equal(got.statusCode, 200);
  t.notOk(got.body.includes(TOKEN));
  t.match(got.json().data.mcpSource, { syncStatus: 'succeeded', documentCount: 2, server: { name: 'acme-docs-fixture', version: '1.2.3' } });
  const list = await app.inject({ method: 'GET', url: `${API}/mcp-sources`, headers: H });
  t.equal(list.statusCode, 200);
  t.equal(list.json().data.mcpSources.length, 1);
  t.same(list.json().data.pagination, { page: 1, limit: 20, total: 1, pages: 1, hasMore: false });
  t.notOk(list.body.includes(TOKEN));
  const counts = await liveCounts(sourceId);
  t.equal(counts.docs, 2);
  t.equal(counts.chunks, run.chunksIndexed);
});

t.test('resources are answerable in /rag with citations pointing at the MCP source', async (t) => {
  const a = await ask('Through which status channel does Acme Cloud notify customers of a major security incident?');
  t.match(a.answer, /Zephyrine/, a.answer);
  const cited = a.citedSources.find((c) => c.title === 'Acme Cloud Incident Response Policy');
  t.ok(cited, JSON.stringify(a.citedSources));
  t.equal(cited!.url, `/api/v1/mcp-sources/${sourceId}#resource=${encodeURIComponent('docs://acme-cloud/incident-response.md')}`);
  const src = a.sources[cited!.sourceNumber - 1]!;
  t.match(src.content, /Zephyrine/);
});

t.test('re-sync is incremental: unchanged resources are skipped, no duplicate chunks', async (t) => {
  const before = await liveCounts(sourceId);
  const res = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${sourceId}/sync`, headers: H });
  t.equal(res.statusCode, 200, res.body);
  t.equal(res.json().message, 'Sync started');
  const { sync } = res.json().data;
  t.match(sync, { status: 'queued', trigger: 'manual' });
  const run = await waitForMcpSync(app, H, sourceId, { runId: sync.id });
  t.match(run, { status: 'succeeded', resources: { listed: 2, added: 0, updated: 0, unchanged: 2, removed: 0, failed: 0 }, chunksIndexed: 0 });
  t.same(await liveCounts(sourceId), before, 'same documents and chunks');
  const poll = await app.inject({ method: 'GET', url: `${API}/mcp-sources/${sourceId}/syncs/${sync.id}`, headers: H });
  t.equal(poll.statusCode, 200);
  t.equal(poll.json().data.sync.id, sync.id);
});

t.test('changed resources are re-indexed, removed ones soft-deleted, new ones added', async (t) => {
  const beforeChunks = (await liveCounts(sourceId)).chunks;
  fixture.resources = [
    { ...DEFAULT_RESOURCES[0]!, text: DEFAULT_RESOURCES[0]!.text.replace('within 6 hours', 'within 2 hours').replace('Zephyrine', 'Borealis') },
    {
      uri: 'docs://acme-cloud/subprocessors.md',
      name: 'subprocessors',
      title: 'Acme Cloud Subprocessor List',
      mimeType: 'text/markdown',
      text: '# Subprocessors\n\nAcme Cloud engages Marmoset Hosting GmbH for colocation in Frankfurt.',
    },
  ];
  const res = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${sourceId}/sync`, headers: H });
  t.equal(res.statusCode, 200, res.body);
  const run = await waitForMcpSync(app, H, sourceId, { runId: res.json().data.sync.id });
  t.match(run, { status: 'succeeded', resources: { listed: 2, added: 1, updated: 1, unchanged: 0, removed: 1, failed: 0 } });

  const [removed] = await queryRows<{ deleted: boolean; chunks_live: number }>(
    db,
    sql`SELECT d.deleted_at IS NOT NULL AS deleted,
               (SELECT count(*)::int FROM chunks c WHERE c.document_id = d.id AND c.deleted_at IS NULL) AS chunks_live
        FROM documents d WHERE d.mcp_source_id = ${sourceId} AND d.source_key = 'docs://acme-cloud/data-residency.txt'`,
  );
  t.same(removed, { deleted: true, chunks_live: 0 }, 'the removed resource is soft-deleted with its chunks');
  const [dup] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM documents WHERE mcp_source_id = ${sourceId} AND source_key = 'docs://acme-cloud/incident-response.md'`,
  );
  t.equal(dup!.n, 1, 'the changed resource keeps one document');
  const counts = await liveCounts(sourceId);
  t.equal(counts.docs, 2);
  t.ok(counts.allChunks <= beforeChunks + run.chunksIndexed, 'old chunks of the changed document were replaced, not added to');

  const a = await ask('Through which status channel does Acme Cloud notify customers of a major security incident?');
  t.match(a.answer, /Borealis/, 'the new text is answered');
  t.notOk(
    a.sources.some((s) => /Zephyrine/.test(s.content)),
    'the old text is gone',
  );
  const b = await ask('Whom does Acme Cloud engage for colocation?');
  t.ok(
    b.citedSources.some((c) => c.title === 'Acme Cloud Subprocessor List'),
    JSON.stringify({ answer: b.answer, sources: b.sources.map((s) => [s.title, s.content.slice(0, 80)]) }),
  );
  const c = await ask('Where is customer data of European customers stored and how long are backups retained?');
  t.notOk(
    c.sources.some((s) => s.title === 'Acme Cloud Data Residency Statement'),
    'the removed resource is no longer retrieved',
  );

  // The resource comes back: the soft-deleted document is revived, not duplicated.
  fixture.resources = [...fixture.resources, DEFAULT_RESOURCES[1]!];
  const again = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${sourceId}/sync`, headers: H });
  const run2 = await waitForMcpSync(app, H, sourceId, { runId: again.json().data.sync.id });
  t.match(run2, { resources: { added: 1, unchanged: 2 } });
  const [back] = await queryRows<{ n: number; live: number }>(
    db,
    sql`SELECT count(*)::int AS n, count(*) FILTER (WHERE deleted_at IS NULL)::int AS live FROM documents WHERE mcp_source_id = ${sourceId} AND source_key = 'docs://acme-cloud/data-residency.txt'`,
  );
  t.same(back, { n: 1, live: 1 });
});

t.test('a resource that cannot be indexed makes the sync partial; the others are indexed', async (t) => {
  fixture.resources = [...fixture.resources, { uri: 'docs://acme-cloud/empty.txt', name: 'empty', mimeType: 'text/plain', text: '   ' }];
  const res = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${sourceId}/sync`, headers: H });
  const run = await waitForMcpSync(app, H, sourceId, { runId: res.json().data.sync.id });
  t.equal(run.status, 'partial');
  t.equal(run.resources.failed, 1);
  t.match(run.errors, [{ uri: 'docs://acme-cloud/empty.txt', message: /no extractable text|empty/i }]);
  fixture.resources = fixture.resources.filter((r) => r.uri !== 'docs://acme-cloud/empty.txt');
});

t.test('stats: documents, chunks, last sync time/status/duration, totals and errors', async (t) => {
  const res = await app.inject({ method: 'GET', url: `${API}/mcp-sources/${sourceId}/stats`, headers: H });
  t.equal(res.statusCode, 200, res.body);
  const s = res.json().data.stats;
  const counts = await liveCounts(sourceId);
  t.equal(s.documents, counts.docs);
  t.equal(s.chunks, counts.chunks);
  t.ok(s.characters > 0);
  t.match(s.resources, { indexed: 3, failed: 1 });
  t.equal(s.lastSyncStatus, 'partial');
  t.type(s.lastSyncAt, 'string');
  t.type(s.lastSyncDurationMs, 'number');
  t.type(s.lastSuccessfulSyncAt, 'string');
  t.match(s.syncs, { total: 5, succeeded: 4, partial: 1, failed: 0 });
  t.type(s.syncs.averageDurationMs, 'number');
  t.match(s.errors, [{ uri: 'docs://acme-cloud/empty.txt' }]);
});

t.test('update: rename, merge headers, disable; secrets still never returned', async (t) => {
  const ren = await app.inject({
    method: 'PATCH',
    url: `${API}/mcp-sources/${sourceId}`,
    headers: H,
    payload: { name: 'Acme policies', headers: { 'X-Tenant': 'acme-tenant-secret' } },
  });
  t.equal(ren.statusCode, 200, ren.body);
  t.match(ren.json().data.mcpSource, { name: 'Acme policies', headerNames: ['Authorization', 'X-Tenant'] });
  t.notOk(ren.body.includes('acme-tenant-secret'));
  // The Authorization header was kept (merge): a sync still authenticates.
  const s1 = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${sourceId}/sync`, headers: H });
  t.equal((await waitForMcpSync(app, H, sourceId, { runId: s1.json().data.sync.id })).status, 'succeeded');
  t.ok(fixture.requests.some((h) => h['x-tenant'] === 'acme-tenant-secret'));

  const drop = await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${sourceId}`, headers: H, payload: { headers: { Authorization: null } } });
  t.equal(drop.statusCode, 200);
  t.same(drop.json().data.mcpSource.headerNames, ['X-Tenant']);
  const s2 = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${sourceId}/sync`, headers: H });
  const failed = await waitForMcpSync(app, H, sourceId, { runId: s2.json().data.sync.id });
  t.equal(failed.status, 'failed', 'without the token the server refuses');
  t.match(failed.error, /401|unauthorized/i);
  t.equal((await liveCounts(sourceId)).docs, 3, 'a failed sync removes nothing');
  await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${sourceId}`, headers: H, payload: { headers: { Authorization: `Bearer ${TOKEN}` } } });

  const bad = await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${sourceId}`, headers: H, payload: { transport: 'stdio' } });
  t.equal(bad.statusCode, 400);
  t.match(bad.json().message, /transport: cannot be changed/);
  const empty = await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${sourceId}`, headers: H, payload: {} });
  t.equal(empty.statusCode, 400);

  const off = await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${sourceId}`, headers: H, payload: { enabled: false } });
  t.equal(off.json().data.mcpSource.enabled, false);
  const refused = await app.inject({ method: 'POST', url: `${API}/mcp-sources/${sourceId}/sync`, headers: H });
  t.equal(refused.statusCode, 409);
  t.equal(refused.json().error.code, 'MCP_SOURCE_DISABLED');
  await app.inject({ method: 'PATCH', url: `${API}/mcp-sources/${sourceId}`, headers: H, payload: { enabled: true } });
});

t.test('another workspace cannot see or touch the source', async (t) => {
  const other = await registerUser(app);
  const ows = await createOrgAndWorkspace(app, other, 'Other Vendor', 'Other Bank');
  for (const [method, url] of [
    ['GET', `${API}/mcp-sources/${sourceId}`],
    ['GET', `${API}/mcp-sources/${sourceId}/stats`],
    ['POST', `${API}/mcp-sources/${sourceId}/sync`],
    ['DELETE', `${API}/mcp-sources/${sourceId}`],
  ] as const) {
    const res = await app.inject({ method, url, headers: ows.headers });
    t.equal(res.statusCode, 404, `${method} ${url}`);
    t.equal(res.json().error.code, 'MCP_SOURCE_NOT_FOUND');
  }
  const list = await app.inject({ method: 'GET', url: `${API}/mcp-sources`, headers: ows.headers });
  t.equal(list.json().data.mcpSources.length, 0);
});

t.test('delete removes the source, its documents and chunks', async (t) => {
  const before = await liveCounts(sourceId);
  const res = await app.inject({ method: 'DELETE', url: `${API}/mcp-sources/${sourceId}`, headers: H });
  t.equal(res.statusCode, 200, res.body);
  t.same(res.json(), { status: 'success', message: 'MCP source deleted', data: { id: sourceId, deletedDocuments: before.docs, deletedChunks: before.chunks } });
  t.same(await liveCounts(sourceId), { docs: 0, chunks: 0, allChunks: 0 });
  const [runs] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM mcp_sync_runs WHERE source_id = ${sourceId}`);
  t.equal(runs!.n, 0);
  t.equal((await app.inject({ method: 'GET', url: `${API}/mcp-sources/${sourceId}`, headers: H })).statusCode, 404);
  t.equal((await app.inject({ method: 'DELETE', url: `${API}/mcp-sources/${sourceId}`, headers: H })).statusCode, 404);
  const a = await ask('Through which status channel does Acme Cloud notify customers of a major security incident?');
  t.notOk(
    a.sources.some((s) => s.url.includes(sourceId)),
    'nothing of the source is retrieved',
  );
});

t.test('default network rules refuse private and loopback URLs (create and test-connection)', async (t) => {
  const strict = await buildTestApp({}, { seed: false });
  t.teardown(strict.close);
  const u = await registerUser(strict.app);
  const w = await createOrgAndWorkspace(strict.app, u, 'Strict');
  for (const url of [
    fixture.url,
    'http://localhost:8080/mcp',
    'http://10.0.0.8/mcp',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]:8080/mcp',
    'http://[fd00::5]/mcp',
  ]) {
    const created = await strict.app.inject({ method: 'POST', url: `${API}/mcp-sources`, headers: w.headers, payload: { name: 'x', transport: 'http', url } });
    t.equal(created.statusCode, 400, `${url}: ${created.body}`);
    t.equal(created.json().error.code, 'URL_NOT_ALLOWED', url);
    t.match(created.json().message, /^Validation failed: url host .* (non-public|cloud metadata) address/);
    const tested = await strict.app.inject({
      method: 'POST',
      url: `${API}/mcp-sources/test-connection`,
      headers: w.headers,
      payload: { transport: 'http', url },
    });
    t.equal(tested.statusCode, 400, url);
  }
  t.equal(fixture.requests.filter((h) => h['x-probe']).length, 0);
});
