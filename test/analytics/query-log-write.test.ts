import t from 'tap';
import { queryRows, sql } from '../../src/db/client.js';
import { newId } from '../../src/lib/ids.js';
import { analyticsRepository } from '../../src/modules/analytics/repository.js';
import { analyticsService, QUERY_LOG_BATCH } from '../../src/modules/analytics/service.js';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { streamInject } from '../helpers/rag.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

const API = '/api/v1';

// The query log row of an answer is written after the response (docs/analytics.md, "When a
// question is logged"): an answer never waits for analytics, and a read sees every row.
t.test('the query log is written after the answer, and read in full', async (t) => {
  const ctx = await buildTestApp({ rag: { ...testConfig().rag, generator: 'extractive' } });
  t.teardown(ctx.close);
  const { app } = ctx;
  await app.services.dataSources.indexCorpus({ articles: [28, 30] });
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'GitHub');
  const ask = (question: string) => app.inject({ method: 'POST', url: `${API}/rag`, headers: ws.headers, payload: { question } });
  const logged = async () => {
    const res = await app.inject({ method: 'GET', url: `${API}/analytics/queries`, headers: ws.headers });
    t.equal(res.statusCode, 200, res.body);
    return res.json().data.queries as { question: string; status: string }[];
  };

  t.test('a read right after an answer sees its row', async (t) => {
    for (let i = 1; i <= 3; i++) {
      const question = `What must contractual arrangements include? (${i})`;
      t.equal((await ask(question)).statusCode, 200);
      const rows = await logged();
      t.equal(rows.length, i);
      t.equal(rows[0]?.question, question, 'newest first');
    }
    const streamed = await streamInject(app, ws.headers, { question: 'What is the register of information?' });
    t.equal(streamed.events.at(-1)?.event, 'done');
    const rows = await logged();
    t.equal(rows[0]?.question, 'What is the register of information?');
  });

  // "Up to now" holds every row written before the read, even one stamped a moment after the
  // request's clock (the same millisecond, or a database clock a little ahead).
  t.test('the default range has no upper bound', async (t) => {
    const before = (await logged()).length;
    await app.database.db.execute(
      sql`insert into query_log (id, workspace_id, user_id, endpoint, question, status, generator, latency_ms, created_at)
          values (${newId()}, ${ws.workspaceId}, ${owner.id}, 'rag', 'stamped 2 s ahead', 'answered', 'extractive', 5, now() + interval '2 seconds')`,
    );
    const rows = await logged();
    t.equal(rows.length, before + 1);
    t.equal(rows[0]?.question, 'stamped 2 s ahead');
    const to = new Date(Date.now() + 1000).toISOString();
    const bounded = await app.inject({ method: 'GET', url: `${API}/analytics/queries?to=${encodeURIComponent(to)}`, headers: ws.headers });
    t.equal(bounded.json().data.pagination.total, before, 'a `to` the client gives is a bound');
    const usage = await app.inject({ method: 'GET', url: `${API}/analytics/usage`, headers: ws.headers });
    t.equal(usage.json().data.totals.queries, before + 1, 'usage counts it too');
  });

  // A second connection holds the table: the answer goes out meanwhile, the row follows.
  t.test('an answer does not wait for a held query log', { skip: ctx.database.kind !== 'postgres' && 'needs a second connection' }, async (t) => {
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => {
      locked = r;
    });
    const holder = app.database.db.transaction(async (tx) => {
      await tx.execute(sql`LOCK TABLE query_log IN EXCLUSIVE MODE`);
      locked();
      await held;
    });
    await isLocked;
    try {
      const answered = ask('What must contractual arrangements include while the log is held?');
      const outcome = await Promise.race([
        answered.then(() => 'answered'),
        new Promise((r) => setTimeout(() => r('still waiting after 20 s'), 20_000).unref()),
      ]);
      if (outcome !== 'answered') release(); // an answer that waits for the log gets it, and the test ends
      t.equal(outcome, 'answered');
      t.equal((await answered).statusCode, 200);
      // The row's insert starts just after the response, and waits for the table.
      let waiting = 0;
      for (let i = 0; i < 100 && waiting === 0; i++) {
        if (i) await new Promise((r) => setTimeout(r, 20));
        const [row] = await queryRows<{ n: number }>(
          app.database.db,
          sql`select count(*)::int as n from pg_locks where relation = 'query_log'::regclass and not granted`,
        );
        waiting = Number(row?.n);
      }
      t.equal(waiting, 1, 'the row is waiting for the table');
    } finally {
      release();
      await holder;
    }
    await app.services.analytics.settled();
    const [row] = await queryRows<{ n: number }>(
      app.database.db,
      sql`select count(*)::int as n from query_log where question = 'What must contractual arrangements include while the log is held?' and status = 'answered'`,
    );
    t.equal(Number(row?.n), 1, 'written once the table is free');
  });
});

// Rows are written in batches (QUERY_LOG_BATCH): one statement for the rows of a moment
// instead of one beside every next request; a row the database refuses loses only itself.
t.test('query log rows are written together, and a refused row loses only itself', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'GitHub');
  const db = app.database.db;
  const rowsOf = (prefix: string) =>
    queryRows<{ question: string; created_at: Date | string }>(
      db,
      sql`select question, created_at from query_log where question like ${`${prefix}%`} order by created_at, question`,
    );
  const entry = (workspaceId: string, question: string) => ({
    workspaceId,
    userId: owner.id,
    endpoint: 'rag',
    question,
    status: 'answered',
    generator: 'extractive',
    latencyMs: 5,
  });
  const repo = analyticsRepository(db);
  const statements: number[] = [];
  const analytics = analyticsService(
    {
      ...repo,
      insert: async (rows) => {
        statements.push(rows.length);
        await repo.insert(rows);
      },
    },
    // A batch that is never due by its time alone: what goes in it is the test's to decide.
    { usersByIds: async () => new Map(), batch: { maxRows: QUERY_LOG_BATCH.maxRows, delayMs: 3_600_000 } },
  );

  t.test('the rows of a moment go in one statement, each stamped when it was logged', async (t) => {
    statements.length = 0;
    analytics.logQuery(entry(ws.workspaceId, 'batch 1'));
    await new Promise((r) => setTimeout(r, 20));
    analytics.logQuery(entry(ws.workspaceId, 'batch 2'));
    analytics.logQuery(entry(ws.workspaceId, 'batch 3'));
    t.same(await rowsOf('batch'), [], 'nothing is written before the batch is due');
    await analytics.settled();
    t.same(statements, [3], 'one statement');
    const rows = await rowsOf('batch');
    t.same(
      rows.map((r) => r.question),
      ['batch 1', 'batch 2', 'batch 3'],
    );
    t.ok(new Date(rows[1]!.created_at).getTime() - new Date(rows[0]!.created_at).getTime() >= 15, 'stamped when logged, not when written');
  });

  t.test('a batch is written when its time is up, without anyone waiting for it', async (t) => {
    const timed = analyticsService(repo, { usersByIds: async () => new Map() });
    timed.logQuery(entry(ws.workspaceId, 'timed 1'));
    const deadline = Date.now() + 10_000;
    while (!(await rowsOf('timed')).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, QUERY_LOG_BATCH.delayMs / 4));
    t.same(
      (await rowsOf('timed')).map((r) => r.question),
      ['timed 1'],
    );
  });

  t.test('a full batch is written at once', async (t) => {
    statements.length = 0;
    for (let i = 0; i < QUERY_LOG_BATCH.maxRows; i++) analytics.logQuery(entry(ws.workspaceId, `full ${i}`));
    // The write starts on the next turn of the event loop, not when the batch's time is up.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    t.same(statements, [QUERY_LOG_BATCH.maxRows], 'started without waiting for the delay');
    await analytics.settled();
    t.equal((await rowsOf('full')).length, QUERY_LOG_BATCH.maxRows);
  });

  t.test('a row whose workspace is gone does not take the others with it', async (t) => {
    statements.length = 0;
    analytics.logQuery(entry(ws.workspaceId, 'kept 1'));
    analytics.logQuery(entry(newId(), 'refused'));
    analytics.logQuery(entry(ws.workspaceId, 'kept 2'));
    await analytics.settled();
    t.same(
      (await rowsOf('kept')).map((r) => r.question),
      ['kept 1', 'kept 2'],
    );
    t.same(await rowsOf('refused'), []);
    t.same(statements, [3, 1, 1, 1], 'the batch, then row by row');
  });
  t.test('a connection cut loses no row: the batch is held and written after the reconnection; a full hold counts what it drops', async (t) => {
    let down = 2;
    const attempts: number[] = [];
    const cut = analyticsService(
      {
        ...repo,
        insert: async (rows) => {
          attempts.push(rows.length);
          if (down-- > 0) throw Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' });
          await repo.insert(rows);
        },
      },
      { usersByIds: async () => new Map(), batch: { maxRows: 10, delayMs: 1 }, maxHeld: 5 },
    );
    for (let i = 1; i <= 3; i++) cut.logQuery(entry(ws.workspaceId, `held ${i}`));
    const deadline = Date.now() + 10_000;
    while ((await rowsOf('held')).length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    t.same(
      (await rowsOf('held')).map((r) => r.question),
      ['held 1', 'held 2', 'held 3'],
      'every row written once the database answers again',
    );
    t.same(attempts, [3, 3, 3], 'the same batch tried again, not split or lost');
    t.match(cut.queryLogStats(), { pending: 0, written: 3, dropped: 0, retries: 2 });

    // The database stays away: at most maxHeld rows are kept, the rest counted as dropped.
    down = Number.POSITIVE_INFINITY;
    for (let i = 1; i <= 8; i++) cut.logQuery(entry(ws.workspaceId, `overflow ${i}`));
    await new Promise((r) => setTimeout(r, 50));
    const stats = cut.queryLogStats();
    t.equal(stats.pending, 5, 'five rows held');
    t.equal(stats.dropped, 3, 'three dropped and counted');
    down = 0;
    await cut.settled();
    t.equal((await rowsOf('overflow')).length, 5, 'the held rows are written when the database is back');
  });
});

// The writer tries the same rows again when the connection is lost around a commit whose acknowledgement
// never came (test/platform/idempotency-fault.test.ts): rows that did commit must not be written twice.
t.test('the same query log rows written again (a retry after a lost commit acknowledgement) are stored once', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const ws = await createOrgAndWorkspace(app, owner, 'GitHub');
  const db = app.database.db;
  const repo = analyticsRepository(db);
  const rows = ['retried 1', 'retried 2'].map((question) => ({
    workspaceId: ws.workspaceId,
    userId: owner.id,
    endpoint: 'rag',
    question,
    status: 'answered',
    generator: 'extractive',
    latencyMs: 5,
  }));
  await repo.insert(rows);
  await repo.insert(rows);
  const stored = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from query_log where question like 'retried %'`);
  t.equal(stored[0]!.n, 2, 'two rows, not four');
});
