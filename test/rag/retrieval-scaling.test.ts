import t from 'tap';
import { createDatabase, queryRows, sql } from '../../src/db/client.js';
import {
  CANDIDATES,
  EF_SEARCH,
  POOL,
  TEXT_CANDIDATES,
  searchRows,
  withRetrievalSettings,
  type RetrievalFilters,
  type SearchRow,
  type SearchSqlParams,
} from '../../src/rag/retrieval.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { createTextSource } from '../helpers/dataSources.js';
import { exactSearch, searchParams, vendorDocument } from '../helpers/rag.js';
import { createOrgAndWorkspace, createWorkspace } from '../helpers/workspaces.js';

// The retrieval statement reads each scope through its own indexes (exact kNN over a small
// workspace's rows, full text through (workspace_id, tsv) and the corpus's partial index;
// docs/performance.md, "Retrieval"). Whatever the plan, it must return what an exact search
// returns: the same candidate rows, ranks and order as the same statement run with every
// index scan turned off (sequential scans, exact distances).

const key = (rows: SearchRow[]) => rows.map((r) => `${r.scope} ${r.id} vr=${r.vr ?? '-'} tr=${r.tr ?? '-'} rrf=${Number(r.rrf).toFixed(12)}`);

t.test('the retrieval statement returns what an exact search returns', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const db = ctx.database.db;
  await app.services.dataSources.indexCorpus({ articles: [5, 17, 19, 28, 30] });
  const owner = await registerUser(app);
  const gh = await createOrgAndWorkspace(app, owner, 'GitHub');
  const bc = await createWorkspace(app, owner, 'Basecamp');
  const empty = await createWorkspace(app, owner, 'Nothing yet');
  await createTextSource(
    app,
    gh.headers,
    ['github-data-protection-agreement.md', 'github-enterprise-service-level-agreement.md', 'github-subprocessors.md'].map((f) => vendorDocument('github', f)),
  );
  await createTextSource(
    app,
    bc.headers,
    ['data-processing-addendum.txt', 'basecamp-big-sla.md', 'basecamp-subprocessors.md'].map((f) => vendorDocument('basecamp', f)),
  );
  const embedder = app.services.retrieval.embedder;

  const params = (workspaceId: string, question: string, filters?: RetrievalFilters) => searchParams(embedder, workspaceId, question, { filters });
  const exact = (p: SearchSqlParams) => exactSearch(db, p);

  const questions = [
    'What is the notice period for new subprocessors?',
    'How quickly are security incidents notified?',
    'What uptime does the service level agreement guarantee?',
    'exit strategy and termination rights',
  ];
  const filters: (RetrievalFilters | undefined)[] = [undefined, { section: 'subprocessors' }, { dateRange: { start: '2000-01-01' } }];
  let compared = 0;
  for (const ws of [gh.workspaceId, bc.id, empty.id]) {
    for (const q of questions) {
      for (const f of filters) {
        const p = await params(ws, q, f);
        const got = await searchRows(db, p);
        const want = await exact(p);
        t.same(key(got), key(want), `${q} ${JSON.stringify(f ?? {})}: same rows, ranks and order as exact search`);
        compared += got.length;
      }
    }
  }
  t.ok(compared > 100, `${compared} candidate rows compared`);

  // A workspace above the exact-kNN threshold walks the HNSW graph with its id as a filter:
  // on a corpus this small the graph search finds the exact neighbours too.
  let found = 0;
  let wanted = 0;
  for (const q of questions) {
    const p = await params(gh.workspaceId, q);
    const want = (await exact(p)).filter((r) => r.scope === 'workspace' && r.vr !== null).map((r) => r.id);
    const viaGraph = new Set((await searchRows(db, { ...p, exactKnnMax: 0 })).filter((r) => r.scope === 'workspace' && r.vr !== null).map((r) => r.id));
    wanted += want.length;
    found += want.filter((id) => viaGraph.has(id)).length;
  }
  t.ok(wanted > 0 && found / wanted >= 0.9, `HNSW arm (ef_search ${EF_SEARCH}, iterative scan) finds ${found} of the ${wanted} exact kNN candidates`);

  // Scoped: no candidate of another workspace, whatever arm.
  const rows = await searchRows(db, await params(bc.id, 'GitHub subprocessors'));
  t.ok(
    rows.every((r) => r.workspace_id === bc.id || r.workspace_id === null),
    'only the workspace and the corpus',
  );
});

t.test('the statement runs under its HNSW settings, which stay in its transaction', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const db = ctx.database.db;
  // The settings and the statement go out together: the statement must still see them.
  for (let i = 0; i < 5; i++) {
    const [row] = await withRetrievalSettings<{ scan: string; ef: string; plans: string }>(
      db,
      sql`SELECT current_setting('hnsw.iterative_scan') AS scan, current_setting('hnsw.ef_search') AS ef, current_setting('plan_cache_mode') AS plans`,
    );
    t.same(
      row,
      { scan: 'relaxed_order', ef: String(EF_SEARCH), plans: 'force_custom_plan' },
      `run ${i + 1}: iterative scan, ef_search and custom plans are set when the statement runs`,
    );
  }
  const [after] = await queryRows<{ ef: string | null }>(db, sql`SELECT current_setting('hnsw.ef_search', true) AS ef`);
  t.not(after?.ef, String(EF_SEARCH), 'the settings do not outlive the transaction');
});

t.test('PostgreSQL: the statement is prepared, and planned for its own values every time', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  if (ctx.database.kind !== 'postgres') {
    t.pass('PGlite runs each statement unnamed');
    return;
  }
  // One connection, so that every call runs on the session whose prepared statements are read.
  const one = await createDatabase({ url: ctx.database.url!, max: 1 });
  t.teardown(() => one.close());
  const embedder = ctx.app.services.retrieval.embedder;
  const [vector] = await embedder.embed(['exit strategy'], { kind: 'query' });
  const RUNS = 8;
  for (let i = 0; i < RUNS; i++) {
    await searchRows(one.db, {
      vector: vector!,
      embeddingModel: embedder.id,
      textQueries: ['exit strategy'],
      workspaceId: '00000000-0000-4000-8000-000000000000',
      candidates: CANDIDATES,
      textCandidates: TEXT_CANDIDATES,
      pool: POOL,
    });
  }
  const plans = await queryRows<{ generic_plans: string | number; custom_plans: string | number }>(
    one.db,
    sql`SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE '%WITH q AS MATERIALIZED%'`,
  );
  t.equal(plans.length, 1, 'one prepared retrieval statement on the connection');
  t.equal(Number(plans[0]?.custom_plans), RUNS, `planned for its values on each of the ${RUNS} runs`);
  t.equal(Number(plans[0]?.generic_plans), 0, 'never a generic plan (it would not see the workspace or the terms)');
});
