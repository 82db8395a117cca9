import postgres from 'postgres';
import t from 'tap';
import { buildApp } from '../../src/app.js';
import { createDatabase, queryRows, sql } from '../../src/db/client.js';
import { commitCutter } from '../helpers/commitCutter.js';
import { freshDatabase, registerUser, testConfig } from '../helpers/app.js';
import { createTextSource } from '../helpers/dataSources.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/**
 * Retries with an Idempotency-Key across lost connections (docs/api-conventions.md,
 * "Retries"; docs/reliability.md). PostgreSQL only (PGlite has no connection to lose):
 * DATABASE_URL, else the local server; skipped outside CI when there is none. The service
 * reaches PostgreSQL through a proxy that drops a connection right after a `commit` went
 * through (the acknowledgement is lost), or every connection at once.
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
const skip = !process.env.DATABASE_URL && !process.env.CI && !(await reachable()) ? `no PostgreSQL at ${url}` : false;

t.test('a retried request stores its effect exactly once, and the query log says what the client saw', { skip }, async (t) => {
  const { database, drop } = await freshDatabase(url, { max: 5 });
  t.teardown(drop);
  // Set up directly (an ingested document), then serve through the proxy without job workers.
  const setup = await buildApp({ config: testConfig({ jobsPollIntervalSec: 0.5 }), database });
  await setup.ready();
  const owner = await registerUser(setup);
  const { headers } = await createOrgAndWorkspace(setup, owner);
  await createTextSource(setup, headers, [{ title: 'Incident policy', content: 'Incidents are reported to the customer within 24 hours.' }]);
  await setup.close();

  const target = new URL(database.url!);
  const proxy = await commitCutter({ host: target.hostname, port: Number(target.port || 5432) });
  t.teardown(proxy.close);
  const viaProxy = new URL(database.url!);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  const served = await createDatabase({ url: viaProxy.toString(), max: 5 });
  const app = await buildApp({ config: testConfig({ workers: 0 }), database: served });
  await app.ready();
  t.teardown(async () => {
    await app.close();
    await served.close();
  });
  const db = database.db;
  const count = async (q: ReturnType<typeof sql>) => Number((await queryRows<{ n: number }>(db, q))[0]!.n);

  t.test('POST /rag whose commit acknowledgement is lost: the committed answer is sent, and replayed', async (t) => {
    const cut = proxy.cutNextCommit(/INSERT INTO messages/i);
    const ask = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/rag',
        headers: { ...headers, 'idempotency-key': 'lost-ack-rag' },
        payload: { question: 'How fast are incidents reported?' },
      });
    const first = await ask();
    await cut;
    t.equal(proxy.lostAcks(), 1, 'the acknowledgement of the exchange was dropped');
    t.equal(first.statusCode, 200, 'the client gets the answer that committed, not a 503');
    const conversationId = first.json().data.conversationId;
    t.equal(await count(sql`select count(*)::int as n from messages where conversation_id = ${conversationId}`), 2, 'one exchange stored');
    const again = await ask();
    t.equal(again.headers['idempotent-replayed'], 'true');
    t.equal(again.json().data.conversationId, conversationId);
    t.equal(await count(sql`select count(*)::int as n from messages where conversation_id = ${conversationId}`), 2, 'still one exchange');
    await app.services.analytics.settled();
    const logged = await queryRows<{ status: string; error_code: string | null }>(
      db,
      sql`select status, error_code from query_log where question = 'How fast are incidents reported?'`,
    );
    t.same(logged, [{ status: 'answered', error_code: null }], 'logged once, as answered (what the client saw)');
  });

  t.test('POST /workspaces whose commit acknowledgement is lost: 503, and the retry is never a second workspace', async (t) => {
    const cut = proxy.cutNextCommit(/insert into "workspaces"/i);
    const create = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: { ...owner.headers, 'idempotency-key': 'lost-ack-ws' },
        payload: { workspaceName: 'Okta' },
      });
    const first = await create();
    await cut;
    t.equal(first.statusCode, 503);
    const retry = await create();
    t.equal(retry.statusCode, 409, 'the retry is told the request was carried out');
    t.equal(retry.json().error.code, 'IDEMPOTENCY_RESPONSE_LOST');
    t.equal(await count(sql`select count(*)::int as n from workspaces where name = 'Okta'`), 1, 'one workspace');
  });

  t.test('questions retried through repeated connection cuts: each stored once, each 503 logged as DATABASE_UNAVAILABLE', async (t) => {
    const outcomes: { key: string; status: number; code?: string; replayed: boolean; conversationId?: string }[] = [];
    let cutting = true;
    const cuts = (async () => {
      let n = 0;
      while (cutting && n < 20) {
        await new Promise((r) => setTimeout(r, 150 + Math.random() * 150));
        proxy.cutAll();
        n++;
      }
      return n;
    })();
    // A client retries for a time, not a number of attempts: a 503 while the connections are being cut
    // comes back in milliseconds, so forty attempts can all fall inside the cutting (seen once in CI, on
    // a loaded machine); the cutting ends after at most 20 rounds, and every question must be answered after it.
    const client = async (c: number) => {
      for (let q = 0; q < 4; q++) {
        const key = `cut-${c}-${q}`;
        const deadline = Date.now() + 120_000;
        while (Date.now() < deadline) {
          const res = await app.inject({
            method: 'POST',
            url: '/api/v1/rag',
            headers: { ...headers, 'idempotency-key': key },
            payload: { question: `Incident reporting, question ${c}.${q}` },
          });
          const body = res.json();
          outcomes.push({
            key,
            status: res.statusCode,
            code: body.error?.code,
            replayed: res.headers['idempotent-replayed'] === 'true',
            conversationId: body.data?.conversationId,
          });
          if (res.statusCode === 200) break;
          await new Promise((r) => setTimeout(r, res.statusCode === 409 ? 100 : 50));
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, c) => client(c)));
    cutting = false;
    const rounds = await cuts;
    t.ok(rounds > 0, `${rounds} connection cuts`);
    const keys = new Set(outcomes.map((o) => o.key));
    const done = new Map(outcomes.filter((o) => o.status === 200).map((o) => [o.key, o.conversationId!]));
    t.equal(done.size, keys.size, `every one of ${keys.size} questions was answered in the end`);
    const unexpected = outcomes.filter((o) => ![200, 503].includes(o.status) && !(o.status === 409 && o.code === 'IDEMPOTENCY_KEY_IN_USE'));
    t.same(unexpected, [], 'only 200, 503 and 409 in use');
    t.comment(`answers: ${outcomes.length} (${outcomes.filter((o) => o.status === 503).length} x 503, ${outcomes.filter((o) => o.replayed).length} replays)`);
    const stored = await queryRows<{ question: string; n: number }>(
      db,
      sql`select m.content as question, count(*)::int as n from messages m where m.role = 'user' and m.content like 'Incident reporting, question %' group by m.content`,
    );
    t.equal(stored.length, keys.size, 'every question stored');
    t.same(
      stored.filter((s) => s.n !== 1),
      [],
      'none stored twice',
    );
    await app.services.analytics.settled();
    const log = await queryRows<{ status: string; error_code: string | null; n: number }>(
      db,
      sql`select status, error_code, count(*)::int as n from query_log where question like 'Incident reporting, question %' group by status, error_code`,
    );
    const logged = Object.fromEntries(log.map((r) => [`${r.status} ${r.error_code ?? ''}`.trim(), r.n]));
    const fresh200 = outcomes.filter((o) => o.status === 200 && !o.replayed).length;
    const answered503 = outcomes.filter((o) => o.status === 503).length;
    // One answered row per answer that was not a replay. Rarely, an attempt logged as answered ends
    // as a 503 for its client, whose retry logs again (each question still stored once): up to one
    // answered row more per 503 is that window (docs/reliability.md, "Retries and the query log");
    // the figure is reported and the window bounded, the exact match is not promised.
    const extra = (logged.answered ?? 0) - fresh200;
    t.comment(`answered rows ${logged.answered ?? 0}, fresh answers ${fresh200}, 503s ${answered503}`);
    t.ok(extra >= 0 && extra <= answered503, `an answered row for every fresh answer, at most one more per 503 (${extra} more)`);
    // The same window the other way: an attempt logged as failed whose commit went through is answered
    // after the reconnection (200), so a failed row may stand for no 503; at most one per cut (seen once
    // in six full runs). Every failure is logged as DATABASE_UNAVAILABLE, never as INTERNAL_ERROR.
    const failed = logged['failed DATABASE_UNAVAILABLE'] ?? 0;
    t.comment(`failed rows ${failed}, 503s ${answered503}, cuts ${rounds}`);
    t.ok(failed <= answered503 + rounds, `failures logged as DATABASE_UNAVAILABLE: ${failed} rows for ${answered503} 503s and ${rounds} cuts`);
    t.notOk(logged['failed INTERNAL_ERROR'], 'no INTERNAL_ERROR');
    t.equal(app.services.analytics.queryLogStats().dropped, 0, 'no query-log row dropped');
  });
});
