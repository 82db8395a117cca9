import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { queryRows, sql } from '../../src/db/client.js';
import { LocalHashEmbedder } from '../../src/rag/embedders/local.js';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { createTextSource, fixture, upload, waitForDataSource } from '../helpers/dataSources.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

const DOCS = [
  { title: 'Exit plan', format: 'markdown', content: '# Exit plan\n\n## Data return\n\nAll pomegranate records are returned within 30 days of termination.\n\n## Transition\n\nThe vendor supports the transition to a successor for six months.' },
  { title: 'Security', format: 'text', content: 'Penetration tests of the pomegranate platform run every quarter.' },
];

const countChunks = async (db: Parameters<typeof queryRows>[0], dataSourceId: string, live = true) =>
  (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from chunks where data_source_id = ${dataSourceId} ${live ? sql`and deleted_at is null` : sql``}`))[0]!.n;

t.test('re-sync replaces chunks, never duplicates them', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app, database } = ctx;
  const owner = await registerUser(app);
  const a = await createOrgAndWorkspace(app, owner, 'Vendor A');
  const ds = await createTextSource(app, a.headers, DOCS);
  t.equal(ds.status, 'ready');
  t.equal(ds.attempts, 1);
  const before = await queryRows<{ id: string }>(database.db, sql`select id from chunks where data_source_id = ${ds.id}`);
  t.equal(before.length, ds.chunkCount);

  const res = await app.inject({ method: 'POST', url: `/api/v1/data-sources/${ds.id}/sync`, headers: a.headers });
  t.equal(res.statusCode, 200);
  t.equal(res.json().message, 'Sync started');
  t.ok(['pending', 'processing', 'ready'].includes(res.json().data.dataSource.status));
  // A second request right away supersedes the first.
  const again = await app.inject({ method: 'POST', url: `/api/v1/data-sources/${ds.id}/sync`, headers: a.headers });
  t.equal(again.statusCode, 200);
  const after = await waitForDataSource(app, a.headers, ds.id);
  t.equal(after.status, 'ready');
  t.equal(after.chunkCount, ds.chunkCount);
  t.equal(after.documentCount, 2);
  t.ok(after.lastSyncedAt >= ds.lastSyncedAt);
  const rows = await queryRows<{ id: string }>(database.db, sql`select id from chunks where data_source_id = ${ds.id}`);
  t.equal(rows.length, ds.chunkCount, 'same number of chunk rows after two syncs');
  t.notOk(rows.some((r) => before.some((b) => b.id === r.id)), 'old chunks were replaced');
  const docs = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from documents where data_source_id = ${ds.id}`);
  t.equal(docs[0]!.n, 2, 'documents kept their identity (upserted per file)');

  // Running the same job again (a retry, a duplicate delivery) changes nothing.
  const [{ generation }] = await queryRows<{ generation: number }>(database.db, sql`select generation from data_sources where id = ${ds.id}`);
  const jobCtx = { id: 'manual', retryCount: 0, retryLimit: 0, signal: new AbortController().signal };
  await app.services.dataSources.ingest({ dataSourceId: ds.id, generation }, jobCtx);
  await app.services.dataSources.ingest({ dataSourceId: ds.id, generation }, jobCtx);
  t.equal(await countChunks(database.db, ds.id, false), ds.chunkCount);
  // A superseded generation is ignored.
  await app.services.dataSources.ingest({ dataSourceId: ds.id, generation: generation - 1 }, jobCtx);
  t.equal(await countChunks(database.db, ds.id, false), ds.chunkCount);
  const hits = await app.services.retrieval.search({ workspaceId: a.workspaceId, query: 'pomegranate records returned', limit: 50 });
  t.equal(new Set(hits.map((h) => h.content)).size, hits.length, 'retrieval returns no duplicate passages');
});

t.test('delete soft-deletes documents and chunks; they are never retrieved again', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app, database } = ctx;
  const owner = await registerUser(app);
  const a = await createOrgAndWorkspace(app, owner, 'Vendor A');
  const keep = await createTextSource(app, a.headers, [{ title: 'Other', format: 'text', content: 'Pomegranate escrow of source code is held by a third party.' }], 'Kept');
  const ds = await createTextSource(app, a.headers, DOCS, 'Doomed');

  const stats = async () => (await app.inject({ method: 'GET', url: `/api/v1/workspaces/${a.workspaceId}`, headers: a.headers })).json().data.workspace.stats;
  t.same(await stats(), { totalDocuments: 3, totalPages: 3, totalDatabases: 2 }, 'stats are real counts');

  const before = await app.services.retrieval.search({ workspaceId: a.workspaceId, query: 'pomegranate records termination', limit: 20 });
  t.ok(before.some((s) => s.dataSourceId === ds.id));

  const del = await app.inject({ method: 'DELETE', url: `/api/v1/data-sources/${ds.id}`, headers: a.headers });
  t.equal(del.statusCode, 200);
  t.equal(del.json().message, 'Data source deleted');
  t.same(del.json().data, { id: ds.id, deletedDocuments: 2, deletedChunks: ds.chunkCount });

  t.equal((await app.inject({ method: 'GET', url: `/api/v1/data-sources/${ds.id}`, headers: a.headers })).statusCode, 404);
  t.equal((await app.inject({ method: 'DELETE', url: `/api/v1/data-sources/${ds.id}`, headers: a.headers })).statusCode, 404);
  t.equal((await app.inject({ method: 'POST', url: `/api/v1/data-sources/${ds.id}/sync`, headers: a.headers })).statusCode, 404, 'a deleted source cannot be re-synced');
  const list = (await app.inject({ method: 'GET', url: '/api/v1/data-sources', headers: a.headers })).json().data;
  t.same(list.dataSources.map((d: { id: string }) => d.id), [keep.id]);
  t.equal(list.pagination.total, 1);

  const after = await app.services.retrieval.search({ workspaceId: a.workspaceId, query: 'pomegranate records termination', limit: 50 });
  t.notOk(after.some((s) => s.dataSourceId === ds.id), 'no chunk of the deleted source is retrieved');
  t.ok(after.some((s) => s.dataSourceId === keep.id), 'other sources still are');
  t.same(await stats(), { totalDocuments: 1, totalPages: 1, totalDatabases: 1 });

  // Soft delete: the rows stay, marked.
  const rows = await queryRows<{ n: number; deleted: number }>(database.db, sql`select count(*)::int as n, count(deleted_at)::int as deleted from chunks where data_source_id = ${ds.id}`);
  t.same(rows[0], { n: ds.chunkCount, deleted: ds.chunkCount });
  const docs = await queryRows<{ deleted: number }>(database.db, sql`select count(deleted_at)::int as deleted from documents where data_source_id = ${ds.id}`);
  t.equal(docs[0]!.deleted, 2);

  // A job still queued for the deleted source writes nothing.
  const [{ generation }] = await queryRows<{ generation: number }>(database.db, sql`select generation from data_sources where id = ${ds.id}`);
  await app.services.dataSources.ingest({ dataSourceId: ds.id, generation }, { id: 'late', retryCount: 0, retryLimit: 0, signal: new AbortController().signal });
  t.equal(await countChunks(database.db, ds.id), 0, 'no live chunk reappears');
});

/** An OpenAI-compatible embeddings server on 127.0.0.1: answers with the local embedder's vectors, or fails on demand. */
async function fakeEmbeddings(): Promise<{ server: Server; url: string; mode: { fail: number | null }; requests: { auth?: string; body: { model: string; input: string[]; dimensions: number } }[] }> {
  const local = new LocalHashEmbedder(384);
  const mode = { fail: null as number | null };
  const requests: { auth?: string; body: { model: string; input: string[]; dimensions: number } }[] = [];
  const read = (req: IncomingMessage) => new Promise<string>((r) => { let s = ''; req.on('data', (c) => (s += c)); req.on('end', () => r(s)); });
  const server = createServer(async (req, res) => {
    const body = JSON.parse(await read(req));
    requests.push({ auth: req.headers.authorization, body });
    if (req.url !== '/v1/embeddings') return void res.writeHead(404).end();
    if (mode.fail) return void res.writeHead(mode.fail, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'model not available' } }));
    const vectors = await local.embed(body.input);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })) }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, mode, requests };
}

t.test('a failed ingestion shows its reason and can be retried with a sync', async (t) => {
  const fake = await fakeEmbeddings();
  t.teardown(() => new Promise<void>((r) => fake.server.close(() => r())));
  const ctx = await buildTestApp({ embeddings: { provider: 'openai', apiUrl: fake.url, apiKey: 'sk-test', model: 'fake-embed' } });
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const a = await createOrgAndWorkspace(app, owner, 'Vendor A');

  fake.mode.fail = 400;
  const res = await upload(app, a.headers, [{ filename: 'sample.md', content: fixture('sample.md') }]);
  t.equal(res.statusCode, 201);
  const failed = await waitForDataSource(app, a.headers, res.json().data.dataSource.id);
  t.equal(failed.status, 'failed');
  t.equal(failed.error.code, 'EMBEDDING_FAILED');
  t.match(failed.error.message, /Embedding service answered 400.*model not available/);
  t.equal(failed.chunkCount, 0);
  const listed = (await app.inject({ method: 'GET', url: '/api/v1/data-sources?status=failed', headers: a.headers })).json().data;
  t.same(listed.dataSources.map((d: { id: string }) => d.id), [failed.id], 'failed sources can be listed by status');

  fake.mode.fail = null;
  const retry = await app.inject({ method: 'POST', url: `/api/v1/data-sources/${failed.id}/sync`, headers: a.headers });
  t.equal(retry.statusCode, 200);
  t.equal(retry.json().data.dataSource.error, null, 'the old error is cleared');
  const ready = await waitForDataSource(app, a.headers, failed.id);
  t.equal(ready.status, 'ready');
  t.equal(ready.error, null);
  t.ok(ready.chunkCount > 0);
  const last = fake.requests[fake.requests.length - 1]!;
  t.equal(last.auth, 'Bearer sk-test');
  t.equal(last.body.model, 'fake-embed');
  t.equal(last.body.dimensions, 384);
  const [hit] = await app.services.retrieval.search({ workspaceId: a.workspaceId, query: 'nebula data stored in Frankfurt' });
  t.equal(hit!.title, 'Nebula Data Location Statement', 'retrieval embeds the query with the same provider');
});

t.test('WORKERS=0 queues ingestion without running it', async (t) => {
  const ctx = await buildTestApp({ workers: 0 });
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const a = await createOrgAndWorkspace(app, owner, 'Vendor A');
  const res = await app.inject({ method: 'POST', url: '/api/v1/data-sources', headers: a.headers, payload: { documents: [{ content: 'queued text', format: 'text' }] } });
  t.equal(res.statusCode, 201);
  const ds = res.json().data.dataSource;
  t.equal(ds.status, 'pending');
  t.ok(ds.jobId);
  const job = await app.services.jobs.getJob('data-source-ingest', ds.jobId);
  t.equal(job?.state, 'created', 'the job waits in the queue for a worker instance');
  t.same(job?.data, { dataSourceId: ds.id, generation: 1 });
});

t.test('re-sync is limited by the sync rate limit', async (t) => {
  const base = testConfig();
  const ctx = await buildTestApp({ rateLimits: { ...base.rateLimits, enabled: true, sync: { max: 2, windowMs: 3_600_000 } } });
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const a = await createOrgAndWorkspace(app, owner, 'Vendor A');
  const ds = await createTextSource(app, a.headers, [{ content: 'rate limited text', format: 'text' }]);
  const sync = () => app.inject({ method: 'POST', url: `/api/v1/data-sources/${ds.id}/sync`, headers: a.headers });
  t.equal((await sync()).statusCode, 200);
  t.equal((await sync()).statusCode, 200);
  const limited = await sync();
  t.equal(limited.statusCode, 429);
  t.equal(limited.json().error.code, 'RATE_LIMIT_EXCEEDED');
  t.equal(limited.headers['x-ratelimit-remaining'], '0');
  t.ok(Number(limited.headers['retry-after']) > 0);
  await waitForDataSource(app, a.headers, ds.id);
});
