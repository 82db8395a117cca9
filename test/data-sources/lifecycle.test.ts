import t from 'tap';
import { queryRows, sql } from '../../src/db/client.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { createTextSource, waitForDataSource } from '../helpers/dataSources.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

const DOCS = [
  {
    title: 'Exit plan',
    format: 'markdown',
    content:
      '# Exit plan\n\n## Data return\n\nAll pomegranate records are returned within 30 days of termination.\n\n## Transition\n\nThe vendor supports the transition to a successor for six months.',
  },
  { title: 'Security', format: 'text', content: 'Penetration tests of the pomegranate platform run every quarter.' },
];

const countChunks = async (db: Parameters<typeof queryRows>[0], dataSourceId: string, live = true) =>
  (
    await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from chunks where data_source_id = ${dataSourceId} ${live ? sql`and deleted_at is null` : sql``}`,
    )
  )[0]!.n;

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
  t.notOk(
    rows.some((r) => before.some((b) => b.id === r.id)),
    'old chunks were replaced',
  );
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
  const keep = await createTextSource(
    app,
    a.headers,
    [{ title: 'Other', format: 'text', content: 'Pomegranate escrow of source code is held by a third party.' }],
    'Kept',
  );
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
  t.equal(
    (await app.inject({ method: 'POST', url: `/api/v1/data-sources/${ds.id}/sync`, headers: a.headers })).statusCode,
    404,
    'a deleted source cannot be re-synced',
  );
  const list = (await app.inject({ method: 'GET', url: '/api/v1/data-sources', headers: a.headers })).json().data;
  t.same(
    list.dataSources.map((d: { id: string }) => d.id),
    [keep.id],
  );
  t.equal(list.pagination.total, 1);

  const after = await app.services.retrieval.search({ workspaceId: a.workspaceId, query: 'pomegranate records termination', limit: 50 });
  t.notOk(
    after.some((s) => s.dataSourceId === ds.id),
    'no chunk of the deleted source is retrieved',
  );
  t.ok(
    after.some((s) => s.dataSourceId === keep.id),
    'other sources still are',
  );
  t.same(await stats(), { totalDocuments: 1, totalPages: 1, totalDatabases: 1 });

  // Soft delete: the rows stay, marked.
  const rows = await queryRows<{ n: number; deleted: number }>(
    database.db,
    sql`select count(*)::int as n, count(deleted_at)::int as deleted from chunks where data_source_id = ${ds.id}`,
  );
  t.same(rows[0], { n: ds.chunkCount, deleted: ds.chunkCount });
  const docs = await queryRows<{ deleted: number }>(database.db, sql`select count(deleted_at)::int as deleted from documents where data_source_id = ${ds.id}`);
  t.equal(docs[0]!.deleted, 2);

  // A job still queued for the deleted source writes nothing.
  const [{ generation }] = await queryRows<{ generation: number }>(database.db, sql`select generation from data_sources where id = ${ds.id}`);
  await app.services.dataSources.ingest(
    { dataSourceId: ds.id, generation },
    { id: 'late', retryCount: 0, retryLimit: 0, signal: new AbortController().signal },
  );
  t.equal(await countChunks(database.db, ds.id), 0, 'no live chunk reappears');
});
