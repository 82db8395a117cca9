import { EventEmitter } from 'node:events';
import { connect, type Socket } from 'node:net';
import postgres from 'postgres';
import t from 'tap';
import { buildApp } from '../../src/app.js';
import { queryRows, sql } from '../../src/db/client.js';
import { freshDatabase, registerUser, testConfig } from '../helpers/app.js';
import { createTextSource } from '../helpers/dataSources.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * Connection loss under mixed read/write load (docs/reliability.md). PGlite has no
 * connection to lose, so this test always runs on PostgreSQL: DATABASE_URL when it is
 * set, else the local server at 127.0.0.1:5432 (both CI runs have it). The service's
 * backends are terminated three times while 20 clients read data sources and ask
 * questions (each answer is written in a transaction).
 */
const url = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function reachable(): Promise<boolean> {
  const probe = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await probe`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await probe.end({ timeout: 1 });
  }
}

/**
 * The driver defect behind the crash (postgres-js 3.4.9, patched by patches/postgres+3.4.9.patch):
 * a socket that closes while a small write waits for its setImmediate flush left the write
 * timer set forever, so the connection never flushed again (every later handshake timed
 * out), and a flush that did run after the close threw on the null socket outside any
 * promise. Here the first socket closes before its start-up message is flushed; the
 * reconnection must write its own.
 */
t.test('the driver flushes again after a socket closed with a write pending', async (t) => {
  const sockets: (EventEmitter & { written: number })[] = [];
  const fake = () => {
    const s = Object.assign(new EventEmitter(), {
      written: 0,
      readyState: 'open',
      write(b: Buffer) {
        s.written += b.length;
        return true;
      },
      setKeepAlive() {},
      destroy: () => close(),
      end: () => close(),
    });
    const closeNow = () => {
      if (s.readyState === 'closed') return;
      s.readyState = 'closed';
      s.emit('close', false);
    };
    const close = () => setImmediate(closeNow);
    // Queued before the driver's own flush of the start-up message: the socket is gone first.
    if (sockets.length === 0) setImmediate(closeNow);
    sockets.push(s);
    return s;
  };
  const client = postgres({ host: '127.0.0.1', max: 1, connect_timeout: 1, socket: fake, onnotice: () => {} } as unknown as postgres.Options<
    Record<string, never>
  >);
  const pending = client`select 1`.catch(() => null);
  while (sockets.length < 2) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 50));
  t.ok(sockets[1]!.written > 0, `the reconnection wrote its start-up message (${sockets[1]!.written} bytes)`);
  await client.end({ timeout: 0 });
  await pending;
});

// Outside CI a machine without PostgreSQL skips it; in CI a missing server is a failure. CI runs the suite twice side
// by side, on PGlite and on PostgreSQL (.ci/run): these tests run once, in the PostgreSQL run, so that two of them
// never terminate connections on the one server at the same time as the other suite's tests use it.
const skip =
  process.env.CI && !process.env.DATABASE_URL
    ? 'CI runs these in its PostgreSQL run (DATABASE_URL)'
    : !process.env.DATABASE_URL && !process.env.CI && !(await reachable())
      ? `no PostgreSQL at ${url}`
      : false;

/**
 * The other half of the patch: a query that fails while its rows stream in left the
 * driver's row counter where it stopped, and the next query on that connection came back
 * as a sparse array (leading holes), so `const [user] = await ...` read `undefined`: a
 * user "not found" during an outage, answered 401.
 */
t.test('a query after one that failed mid-stream gets its own rows', { skip }, async (t) => {
  const one = postgres(url, { max: 1, onnotice: () => {} });
  t.teardown(() => one.end({ timeout: 1 }));
  const failed = await one`select i, 1 / (4 - i) as boom from generate_series(1, 10) i`.catch((e: Error) => e);
  t.type(failed, Error, 'the first query fails after three rows');
  const rows = await one`select x from generate_series(1, 3) x`;
  t.equal(rows.length, 3, 'the next query has exactly its three rows');
  t.same(
    [...rows].map((r) => r?.x),
    [1, 2, 3],
    'with no hole before them',
  );
});

/**
 * The third part of the patch, found by the outage test below under load (a request in ten
 * never answered): a transaction whose connection was lost went on writing its statements
 * (and its rollback) to that connection after the pool had reconnected it for a queued
 * query. Written during the new connection's start-up, they were never answered, and the
 * connection waited for them forever with later requests pipelined behind them. Here the
 * pool has one connection, a query waits for it, and the transaction's backend is
 * terminated before its next statement.
 */
t.test('a transaction that lost its connection fails its later statements; the pool goes on', { skip }, async (t) => {
  let closedOnce!: () => void;
  const closed = new Promise<void>((r) => (closedOnce = r));
  const pool = postgres(url, { max: 1, onnotice: () => {}, onclose: () => closedOnce() } as postgres.Options<Record<string, never>>);
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  t.teardown(async () => {
    await pool.end({ timeout: 1 });
    await admin.end({ timeout: 1 });
  });
  // A hang is recorded as an outcome instead of hanging the test.
  const settle = <T>(p: Promise<T>) =>
    Promise.race([
      p.then(
        (v) => ({ value: v }),
        (e: Error) => ({ error: e }),
      ),
      new Promise<{ hung: true }>((r) => setTimeout(() => r({ hung: true }), 10_000).unref()),
    ]);

  let queued: Promise<unknown> | undefined;
  const tx = pool.begin(async (sql) => {
    const [{ pid }] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
    queued = pool`select 42 as answer`; // waits for the only connection
    await admin`select pg_terminate_backend(${pid})`;
    await closed;
    return sql`select 1 as late`;
  });
  const txOutcome = await settle(tx);
  t.notOk('hung' in txOutcome, 'the transaction settles');
  t.ok('error' in txOutcome, `the transaction fails (${'error' in txOutcome ? ((txOutcome.error as { code?: string }).code ?? txOutcome.error.message) : ''})`);
  const queuedOutcome = await settle(queued!.then((rows) => [...(rows as Iterable<unknown>)]));
  t.same('value' in queuedOutcome ? queuedOutcome.value : queuedOutcome, [{ answer: 42 }], 'the waiting query gets its own row on the reconnected connection');
  const after = await settle(pool`select 7 as x`.then((rows) => [...rows]));
  t.same('value' in after ? after.value : after, [{ x: 7 }], 'and the next query too');
});

/**
 * The fourth part of the patch, found by a stress run (20 clients, backends terminated every
 * 0.2-0.6 s: 3 wrong results in 100,000 queries, one of them a workspace access check that
 * came back empty and answered 403 in this file's outage test). A socket's `close` follows
 * its `error` asynchronously (the handle closes later); a query the pool gave the connection
 * in between stayed pending after the close, and when the pool reconnected, the new
 * connection's start-up reply resolved it with no rows and the replies after it went to the
 * wrong queries. Here the socket reports an error, a query is given to the connection, then
 * the socket closes.
 */
t.test('a query given to a connection between its socket error and its close fails; the next connection answers its own queries', { skip }, async (t) => {
  const target = new URL(url);
  const sockets: Socket[] = [];
  const pool = postgres(url, {
    max: 1,
    onnotice: () => {},
    socket: () => {
      const s = connect(Number(target.port || 5432), target.hostname);
      sockets.push(s);
      return s;
    },
  } as unknown as postgres.Options<Record<string, never>>);
  t.teardown(() => pool.end({ timeout: 1 }));
  const settle = <T>(p: Promise<T>) =>
    Promise.race([
      p.then(
        (v) => ({ value: v }),
        (e: Error & { code?: string }) => ({ error: e.code ?? e.message }),
      ),
      new Promise<{ hung: true }>((r) => setTimeout(() => r({ hung: true }), 10_000).unref()),
    ]);
  t.same([...(await pool`select 1 as one`)], [{ one: 1 }], 'the first connection answers');

  const first = sockets[0]!;
  first.pause(); // nothing more is read from it
  first.emit('error', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
  const stranded = settle(pool`select 2 as two`.then((r) => [...r]));
  await new Promise((r) => setImmediate(r));
  first.emit('close', true);
  first.destroy();

  const next = await settle(pool`select 3 as three`.then((r) => [...r]));
  const lost = await stranded;
  t.same(lost, { error: 'CONNECTION_CLOSED' }, 'the query given to the dead connection fails (never an empty result)');
  t.same(next, { value: [{ three: 3 }] }, 'the query on the new connection gets its own row');
  t.same(await settle(pool`select 4 as four`.then((r) => [...r])), { value: [{ four: 4 }] }, 'and so does the next one');
  t.equal(sockets.length, 2, 'one reconnection');
});

t.test('no process exit, 503 DATABASE_UNAVAILABLE during the outage, recovery within seconds, no half-done write', { skip }, async (t) => {
  // A crash of the driver outside any promise would end this process: count those instead.
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => uncaught.push(err);
  process.on('uncaughtException', onUncaught);
  t.teardown(() => void process.off('uncaughtException', onUncaught));

  const { database, drop } = await freshDatabase(url, { max: 10 });
  const app = await buildApp({ config: testConfig({ jobsPollIntervalSec: 0.5 }), database });
  await app.services.compliance.loadReferenceData();
  await app.ready();
  t.teardown(async () => {
    await app.close();
    await drop();
  });
  const owner = await registerUser(app);
  const { headers } = await createOrgAndWorkspace(app, owner);
  await createTextSource(app, headers, [
    { title: 'Incident policy', content: 'Incidents are reported to the customer within 24 hours. Backups are encrypted and tested every quarter.' },
  ]);
  const dbName = new URL(database.url!).pathname.slice(1);
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  t.teardown(() => admin.end({ timeout: 1 }));

  const results: { status: number; code?: string; ms: number; route: string; conversationId?: string }[] = [];
  let running = true;
  const client = async (n: number) => {
    for (let i = 0; running; i++) {
      const write = (i + n) % 2 === 0;
      const t0 = performance.now();
      const request = write
        ? app.inject({ method: 'POST', url: '/api/v1/rag', headers, payload: { question: `How fast are incidents reported? (${n}.${i})` } })
        : app.inject({ method: 'GET', url: '/api/v1/data-sources', headers });
      // A request that never settles is recorded as such (and fails the test) instead of hanging it.
      let timer: NodeJS.Timeout | undefined;
      const res = await Promise.race([request, new Promise<null>((r) => (timer = setTimeout(() => r(null), 20_000)))]);
      clearTimeout(timer);
      const route = write ? 'POST /rag' : 'GET /data-sources';
      if (!res) {
        results.push({ status: 0, code: 'NO_ANSWER_IN_20_S', ms: performance.now() - t0, route });
        continue;
      }
      const body = res.json();
      results.push({ status: res.statusCode, code: body.error?.code, ms: performance.now() - t0, route, conversationId: body.data?.conversationId });
    }
  };
  const clients = Array.from({ length: 20 }, (_, n) => client(n));
  const terminated: number[] = [];
  for (let round = 0; round < 3; round++) {
    await new Promise((r) => setTimeout(r, 700));
    const rows = await admin`select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = ${dbName} and pid <> pg_backend_pid()`;
    terminated.push(rows.length);
  }
  await new Promise((r) => setTimeout(r, 700));
  running = false;
  await Promise.all(clients);
  t.ok(
    terminated.every((n) => n > 0),
    `backends terminated in each round (${terminated.join(', ')})`,
  );

  // The stack says which code let it escape (a driver's event without a listener, a promise nobody awaited).
  t.same(uncaught.map(String), [], `no error escaped to the process${uncaught.length ? `\n${(uncaught[0] as Error).stack ?? ''}` : ''}`);
  const byOutcome = new Map<string, number>();
  for (const r of results)
    byOutcome.set(`${r.route} ${r.status}${r.code ? ` ${r.code}` : ''}`, (byOutcome.get(`${r.route} ${r.status}${r.code ? ` ${r.code}` : ''}`) ?? 0) + 1);
  t.comment(`outcomes: ${JSON.stringify(Object.fromEntries(byOutcome))}`);
  const unexpected = results.filter((r) => !(r.status === 200 || (r.status === 503 && r.code === 'DATABASE_UNAVAILABLE')));
  t.same(
    unexpected.map((r) => `${r.route} ${r.status} ${r.code}`),
    [],
    'every answer is 200 or 503 DATABASE_UNAVAILABLE (never 401 or 500)',
  );
  t.ok(
    results.some((r) => r.status === 503),
    'some requests met the outage',
  );
  t.ok(results.filter((r) => r.status === 200).length > 40, 'and most were served');
  // A hang is a request that never settles (recorded as NO_ANSWER_IN_20_S above); how long a
  // settled one took depends on the machine's load and is only reported.
  const slowest = results.reduce((a, r) => (r.ms > a.ms ? r : a), results[0]!);
  t.comment(`slowest ${Math.round(slowest.ms)} ms: ${slowest.route} ${slowest.status}${slowest.code ? ` ${slowest.code}` : ''}`);
  t.same(
    results.filter((r) => r.code === 'NO_ANSWER_IN_20_S').map((r) => r.route),
    [],
    'no request hung',
  );

  // Everything works again: reads, writes, and the job queue (a new ingestion).
  const ds = await createTextSource(
    app,
    headers,
    [{ title: 'Exit plan', content: 'The exit plan is tested every year with a full data export.' }],
    'After the outage',
  );
  t.equal(ds.status, 'ready', 'an ingestion after the outage completes');
  const ask = await app.inject({ method: 'POST', url: '/api/v1/rag', headers, payload: { question: 'How is the exit plan tested?' } });
  t.equal(ask.statusCode, 200, 'a question after the outage is answered');

  // No write lost or half-done: every stored conversation holds whole exchanges, its
  // counter matches, and every answered question is stored.
  const convs = await queryRows<{ id: string; message_count: number; n: number; users: number; assistants: number }>(
    database.db,
    sql`select c.id, c.message_count, count(m.id)::int as n,
               count(*) filter (where m.role = 'user')::int as users, count(*) filter (where m.role = 'assistant')::int as assistants
          from conversations c left join messages m on m.conversation_id = c.id group by c.id, c.message_count`,
  );
  const broken = convs.filter((c) => Number(c.message_count) !== c.n || c.users !== c.assistants || c.n === 0);
  t.same(broken, [], `${convs.length} conversations, each with whole exchanges and a matching counter`);
  const stored = new Set(convs.map((c) => c.id));
  const answered = results.filter((r) => r.route === 'POST /rag' && r.status === 200);
  t.same(answered.filter((r) => !stored.has(r.conversationId!)).length, 0, `all ${answered.length} answered questions are stored`);
});
