import t from 'tap';
import { buildApp } from '../../src/app.js';
import { queryRows, sql } from '../../src/db/client.js';
import { freshDatabase, registerUser, testConfig } from '../helpers/app.js';
import { waitForDataSource } from '../helpers/dataSources.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * Interrupted ingestion (docs/data-sources.md): a worker killed in the middle of an
 * ingestion leaves its source `processing` without heartbeat and its pg-boss job active
 * (pg-boss would only expire it after 30 minutes). An instance with workers takes such a
 * source over after three missed beats; it ends `ready` with no duplicate chunk.
 */
t.test('an ingestion whose worker died is taken over, without duplicate documents or chunks', async (t) => {
  const base = testConfig();
  const config = testConfig({ workers: 0, jobsPollIntervalSec: 0.5, ingest: { ...base.ingest, heartbeatSec: 0.5 } });
  const { database, drop } = await freshDatabase();
  t.teardown(drop);

  // The first instance accepts the upload; its worker "dies" before finishing.
  const first = await buildApp({ config, database });
  await first.services.compliance.loadReferenceData();
  await first.ready();
  const owner = await registerUser(first);
  const { headers } = await createOrgAndWorkspace(first, owner);
  const documents = [1, 2, 3].map((i) => ({ title: `Policy ${i}`, content: `Section ${i}. Incidents are reported within ${i * 4} hours. `.repeat(40) }));
  const created = await first.inject({ method: 'POST', url: '/api/v1/data-sources', headers, payload: { name: 'Policies', documents } });
  t.equal(created.statusCode, 201);
  const id = created.json().data.dataSource.id as string;
  await first.close();
  // What kill -9 leaves behind: the source processing with an old heartbeat, the job active.
  await database.db.execute(sql`update data_sources set status = 'processing', attempts = 1, updated_at = now() - interval '1 minute' where id = ${id}`);
  await database.db.execute(sql`update pgboss.job set state = 'active', started_on = now() where name = 'data-source-ingest'`);

  // A worker comes back.
  const second = await buildApp({ config: { ...config, workers: 1 }, database });
  await second.ready();
  t.teardown(() => second.close());
  const ds = await waitForDataSource(second, headers, id, { timeoutMs: 60_000 });
  t.equal(ds.status, 'ready', 'the source is ready');
  t.equal(ds.documentCount, 3, 'three documents');
  const dup = await queryRows(
    database.db,
    sql`select document_id, chunk_index, count(*)::int as n from chunks where data_source_id = ${id} and deleted_at is null group by document_id, chunk_index having count(*) > 1`,
  );
  t.same(dup, [], 'no chunk index twice in a document');
  const docs = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from documents where data_source_id = ${id} and deleted_at is null`);
  t.equal(docs[0]!.n, 3, 'no duplicate document');
  t.equal(
    ds.chunkCount,
    (await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from chunks where data_source_id = ${id} and deleted_at is null`))[0]!.n,
    'the counted chunks are the stored ones',
  );
});
