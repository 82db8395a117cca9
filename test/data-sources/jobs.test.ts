import t from 'tap';
import { buildTestApp, registerUser } from '../helpers/app.js';
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
  t.same(job?.data, { dataSourceId: ds.id, generation: 1, requestedBy: owner.id }, 'the job names who uploaded (they hear of the outcome)');
});
