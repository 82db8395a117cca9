import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import { buildApp } from '../../src/app.js';
import { createDatabase, type Database } from '../../src/db/client.js';
import { runMigrations } from '../../src/db/migrate.js';
import { buildTestApp, freshDatabase, registerUser, testConfig } from '../helpers/app.js';
import { fakeEmbeddings } from '../helpers/fakeEmbeddings.js';
import { fixture, upload, waitForDataSource } from '../helpers/dataSources.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

t.test('a failed ingestion shows its reason and can be retried with a sync', async (t) => {
  const fake = await fakeEmbeddings();
  t.teardown(fake.close);
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
  t.same(
    listed.dataSources.map((d: { id: string }) => d.id),
    [failed.id],
    'failed sources can be listed by status',
  );

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
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/data-sources',
    headers: a.headers,
    payload: { documents: [{ content: 'queued text', format: 'text' }] },
  });
  t.equal(res.statusCode, 201);
  const ds = res.json().data.dataSource;
  t.equal(ds.status, 'pending');
  t.ok(ds.jobId);
  const job = await app.services.jobs.getJob('data-source-ingest', ds.jobId);
  t.equal(job?.state, 'created', 'the job waits in the queue for a worker instance');
  t.same(job?.data, { dataSourceId: ds.id, generation: 1, requestedBy: owner.id }, 'the job names who uploaded (they hear of the outcome)');
});

t.test('a source queued by a process without workers is ingested by a later process with workers', async (t) => {
  // PGlite: a data directory on disk, closed by the first process and opened by the second
  // (one process at a time, as PGlite allows); PostgreSQL: the same database.
  let open: () => Promise<Database>;
  if (process.env.DATABASE_URL) {
    const { database, drop } = await freshDatabase();
    t.teardown(drop);
    open = async () => database;
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), 'dora-queued-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    open = async () => {
      const database = await createDatabase({ pgliteDataDir: dir });
      await runMigrations(database);
      return database;
    };
  }
  const first = await open();
  const queuing = await buildApp({ config: testConfig({ workers: 0 }), database: first });
  await queuing.services.compliance.loadReferenceData();
  await queuing.ready();
  const owner = await registerUser(queuing);
  const a = await createOrgAndWorkspace(queuing, owner, 'Vendor A');
  const res = await queuing.inject({
    method: 'POST',
    url: '/api/v1/data-sources',
    headers: a.headers,
    payload: { documents: [{ content: 'The kumquat register is kept for seven years.', format: 'text' }] },
  });
  t.equal(res.statusCode, 201);
  const id = res.json().data.dataSource.id;
  await queuing.close();
  if (!process.env.DATABASE_URL) await first.close();

  const second = await open();
  const working = await buildApp({ config: testConfig({ workers: 1, jobsPollIntervalSec: 0.5 }), database: second });
  await working.ready();
  t.teardown(async () => {
    await working.close();
    if (!process.env.DATABASE_URL) await second.close();
  });
  const done = await waitForDataSource(working, a.headers, id);
  t.equal(done.status, 'ready', 'the later process ran the queued job');
  const hits = await working.services.retrieval.search({ workspaceId: a.workspaceId, query: 'kumquat register' });
  t.match(hits[0]?.content ?? '', /kumquat register/, 'and its passage is retrievable');
});
