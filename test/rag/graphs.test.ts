import t from 'tap';
import { buildApp } from '../../src/app.js';
import { queryRows, sql, type Db } from '../../src/db/client.js';
import { graphIndexName } from '../../src/rag/graphs.js';
import { searchRows, searchSql, type SearchRow } from '../../src/rag/retrieval.js';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { createTextSource } from '../helpers/dataSources.js';
import { exactSearch, searchParams, vendorDocument } from '../helpers/rag.js';
import { createOrgAndWorkspace, createWorkspace } from '../helpers/workspaces.js';

// A workspace past the exact-kNN threshold (RAG_EXACT_KNN_MAX, here 10 live chunks) gets an
// HNSW graph of its own chunks after its ingestion (src/rag/graphs.ts); the retrieval
// statement walks that graph instead of its partition's, and the graph goes with the workspace.

const THRESHOLD = 10;

t.test('a large workspace gets a graph of its own, read by retrieval, dropped with the workspace', async (t) => {
  const base = testConfig();
  const ctx = await buildTestApp({ rag: { ...base.rag, exactKnnMax: THRESHOLD } });
  t.teardown(ctx.close);
  const { app } = ctx;
  const db = ctx.database.db;
  const graphs = app.services.graphs;
  const owner = await registerUser(app);
  const gh = await createOrgAndWorkspace(app, owner, 'GitHub');
  const small = await createWorkspace(app, owner, 'Small vendor');
  await createTextSource(
    app,
    gh.headers,
    ['github-data-protection-agreement.md', 'github-enterprise-service-level-agreement.md', 'github-subprocessors.md'].map((f) => vendorDocument('github', f)),
  );
  await createTextSource(app, { ...gh.headers, 'x-workspace-id': small.id }, [
    { title: 'Short policy', content: 'Backups are encrypted at rest and tested every quarter. Access is reviewed monthly.' },
  ]);
  const live = async (ws: string) =>
    Number((await queryRows<{ n: string }>(db, sql`select count(*) as n from chunks where workspace_id = ${ws} and deleted_at is null`))[0]!.n);
  t.ok((await live(gh.workspaceId)) > THRESHOLD, 'GitHub holds more live chunks than the threshold');
  t.ok((await live(small.id)) <= THRESHOLD, 'the small vendor does not');

  // The graph is built after the source turns ready (the ingestion job's last step).
  const deadline = Date.now() + 30_000;
  while (!(await graphs.has(gh.workspaceId)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  t.ok(await graphs.has(gh.workspaceId), 'the large workspace has its own graph after its ingestion');
  t.notOk(await graphs.has(small.id), 'a workspace under the threshold has none');
  t.equal(await graphs.ensure(gh.workspaceId), false, 'ensure again: nothing to build');
  t.equal(await graphs.ensure(small.id), false, 'ensure on a small workspace: nothing to build');

  const name = graphIndexName(gh.workspaceId);
  const [index] = await queryRows<{ table: string; def: string }>(
    db,
    sql`select tablename as table, indexdef as def from pg_indexes where indexname = ${name}`,
  );
  t.match(index?.table, /^chunks_p\d\d$/, "the graph is an index of the workspace's partition");
  t.match(index?.def, new RegExp(`USING hnsw .*workspace_id = '${gh.workspaceId}'.*deleted_at IS NULL`), 'of its live chunks only');

  const p = await searchParams(app.services.retrieval.embedder, gh.workspaceId, 'How much notice is given before a new subprocessor is added?', {
    exactKnnMax: THRESHOLD,
  });
  const plan = (
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw('SET LOCAL hnsw.iterative_scan = relaxed_order'));
      return queryRows<Record<string, string>>(tx as unknown as Db, sql`EXPLAIN (COSTS OFF) ${searchSql(p)}`);
    })
  )
    .map((r) => Object.values(r)[0])
    .join('\n');
  t.ok(plan.includes(name), "the statement's kNN arm reads the workspace's own graph");

  // What it finds: the exact kNN candidates, as the partition's graph does on a workspace this
  // small (test/rag/retrieval-scaling.test.ts), the graph walk being approximate at the edges.
  const knn = (rows: SearchRow[]) => rows.filter((r) => r.scope === 'workspace' && r.vr !== null).map((r) => r.id);
  const want = knn(await exactSearch(db, p));
  const got = new Set(knn(await searchRows(db, p)));
  const found = want.filter((id) => got.has(id)).length;
  t.ok(want.length > 5 && found / want.length >= 0.9, `the own graph finds ${found} of the ${want.length} exact kNN candidates`);

  // An answer uses it: POST /rag answers from the workspace's documents.
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/rag',
    headers: gh.headers,
    payload: { question: 'How much notice does GitHub give before adding a new subprocessor?' },
  });
  t.equal(res.statusCode, 200);
  t.ok(
    res.json().data.sources.some((s: { workspaceId: string | null }) => s.workspaceId === gh.workspaceId),
    "the answer cites the workspace's documents",
  );

  // A workspace that grew past the threshold before it could have a graph (an older release, a
  // failed build) gets one at the next start of an instance with workers, without an ingestion.
  await graphs.drop(gh.workspaceId);
  t.notOk(await graphs.has(gh.workspaceId), 'graph dropped (as before this release)');
  const second = await buildApp({ config: ctx.config, database: ctx.database, mailer: ctx.mailer });
  await second.ready();
  try {
    const until = Date.now() + 30_000;
    while (!(await graphs.has(gh.workspaceId)) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    t.ok(await graphs.has(gh.workspaceId), 'an instance starting with workers builds it');
  } finally {
    await second.close();
  }
  await graphs.drop(gh.workspaceId);
  t.equal(await graphs.sweep(), 1, 'a sweep builds the one missing graph');
  t.equal(await graphs.sweep(), 0, 'and nothing the second time');

  // The workspace goes, its graph with it.
  const del = await app.inject({ method: 'DELETE', url: `/api/v1/workspaces/${gh.workspaceId}`, headers: owner.headers });
  t.equal(del.statusCode, 200);
  t.notOk(await graphs.has(gh.workspaceId), 'deleting the workspace drops its graph');
  t.same(await queryRows(db, sql`select 1 from pg_class where relname = ${name}`), [], 'no index of that name is left');

  t.throws(() => graphIndexName("x'; drop table chunks; --"), /not a workspace id/, 'an index name is made only from a workspace id');
});
