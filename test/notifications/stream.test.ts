import type { AddressInfo } from 'node:net';
import t from 'tap';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createDatabase } from '../../src/db/client.js';
import { buildTestApp, freshDatabase, registerUser, testConfig } from '../helpers/app.js';
import { connectSse, type SseClient } from '../helpers/sse.js';
import { addOrgMember, createOrg, createWorkspace } from '../helpers/workspaces.js';

/**
 * The push channel GET /notifications/stream over a real listening port
 * (docs/notifications.md). Latencies are printed, never asserted as timings.
 */

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1/notifications/stream`;
}

const until = async (cond: () => boolean, timeoutMs = 5000) => {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

// One app for the single-instance tests (building an app is the slow part); the last test closes it.
const ctx = await buildTestApp({ notifications: { heartbeatMs: 150, maxStreamsPerUser: 2 } }, { seed: false });
const url = await listen(ctx.app);
let closed = false;
t.teardown(async () => {
  if (!closed) await ctx.close();
});

t.test('one instance: notification:new reaches an open stream; counts follow reads', async (t) => {
  const clients: SseClient[] = [];
  t.teardown(() => {
    for (const c of clients) c.close();
  });
  const user = await registerUser(ctx.app);
  const other = await registerUser(ctx.app);
  const svc = ctx.app.services.notifications;
  await svc.notify({ userIds: [user.id], type: 'system', title: 'Before the stream' });

  const sse = await connectSse(url, user.headers);
  clients.push(sse);
  t.equal(sse.status, 200);
  t.match(sse.headers.get('content-type'), /^text\/event-stream/);
  t.equal(sse.headers.get('cache-control'), 'no-cache, no-transform');
  t.ok(sse.headers.get('x-request-id'), 'the usual response headers are there');
  const opening = await sse.next('notification:count');
  t.match(opening.data, { unreadCount: 1, timestamp: Number }, 'the stream opens with the current badge count');

  const otherStream = await connectSse(url, other.headers);
  clients.push(otherStream);
  await otherStream.next('notification:count');

  const sentAt = Date.now();
  const [created] = await svc.notify({
    userIds: [user.id],
    type: 'questionnaire_answered',
    title: 'Questionnaire answered',
    body: 'GitHub answered 42 questions',
    data: { questionnaireId: 'q-1' },
  });
  const ev = await sse.next('notification:new', 5000);
  t.comment(`single instance (${ctx.database.kind}): notification:new delivered ${ev.receivedAt - sentAt} ms after notify() was called`);
  t.equal(ev.id, created.id, 'the SSE id is the notification id (Last-Event-ID resumes from it)');
  t.same(Object.keys(ev.data as object).sort(), ['body', 'createdAt', 'data', 'id', 'timestamp', 'title', 'type', 'unreadCount', 'workspaceId']);
  t.match(ev.data, {
    id: created.id,
    type: 'questionnaire_answered',
    title: 'Questionnaire answered',
    body: 'GitHub answered 42 questions',
    data: { questionnaireId: 'q-1' },
    workspaceId: null,
    createdAt: created.createdAt,
    unreadCount: 2,
    timestamp: Number,
  });

  // A notification too large to travel inline in the NOTIFY payload (8000-byte limit) is read back by id.
  const big = { body: 'é'.repeat(2000), data: { blob: 'ü'.repeat(1500) } };
  const [large] = await svc.notify({ userIds: [user.id], type: 'system', title: 'Large', ...big });
  const largeEv = await sse.next('notification:new', 5000);
  t.equal(largeEv.id, large.id);
  t.match(largeEv.data, { title: 'Large', body: big.body, data: big.data, unreadCount: 3 });
  await ctx.app.inject({ method: 'PATCH', url: `/api/v1/notifications/${large.id}`, headers: user.headers, payload: {} });
  t.match((await sse.next('notification:count')).data, { unreadCount: 2 });

  // Reading (on any tab or instance) lowers the badge on every open stream.
  const read = await ctx.app.inject({ method: 'PATCH', url: `/api/v1/notifications/${created.id}`, headers: user.headers, payload: {} });
  t.equal(read.statusCode, 200);
  t.match((await sse.next('notification:count')).data, { unreadCount: 1 });
  await ctx.app.inject({ method: 'POST', url: '/api/v1/notifications/read-all', headers: user.headers });
  t.match((await sse.next('notification:count')).data, { unreadCount: 0 });

  // Heartbeat comments keep proxies from closing an idle stream.
  await until(() => sse.comments.some((c) => c.startsWith('heartbeat')));
  t.pass('heartbeat comment received');
  t.notOk(
    otherStream.events.some((e) => e.event === 'notification:new'),
    "another user's stream hears nothing",
  );
  t.equal(otherStream.events.filter((e) => e.event === 'notification:count').length, 1, 'nor their reads');
});

t.test('cookie auth, 401 without a token, stream limit, disconnects and Last-Event-ID', async (t) => {
  const clients: SseClient[] = [];
  t.teardown(() => {
    for (const c of clients) c.close();
  });
  const user = await registerUser(ctx.app);
  const svc = ctx.app.services.notifications;
  await until(() => svc.openStreams() === 0); // the previous test's streams are gone

  const anon = await connectSse(url);
  t.equal(anon.status, 401);
  t.match(anon.events[0].data, { status: 'error', message: 'Authentication required' });
  const forged = await connectSse(url, { authorization: 'Bearer not-a-token' });
  t.equal(forged.status, 401);

  const byCookie = await connectSse(url, { cookie: `accessToken=${user.accessToken}` });
  clients.push(byCookie);
  t.equal(byCookie.status, 200, 'the accessToken cookie authenticates (browser EventSource)');
  await byCookie.next('notification:count');
  const second = await connectSse(url, user.headers);
  clients.push(second);
  await second.next('notification:count');
  t.equal(svc.openStreams(), 2);
  const third = await connectSse(url, user.headers);
  t.equal(third.status, 429, 'a third stream of the same user is refused');
  t.match(third.events[0].data, { error: { code: 'TOO_MANY_STREAMS' } });

  // A client that goes away is forgotten.
  second.close();
  await until(() => svc.openStreams() === 1);
  t.pass('the closed stream was unsubscribed');
  const head = await fetch(url, { method: 'HEAD', headers: user.headers });
  t.equal(head.status, 200);
  await until(() => svc.openStreams() === 1);
  t.pass('a HEAD request leaves no subscription behind');

  // Resume: a client that reconnects with Last-Event-ID gets what it missed, in order.
  const first = await svc.notify({ userIds: [user.id], type: 'system', title: 'Seen' });
  const seen = await byCookie.next('notification:new');
  t.equal(seen.id, first[0].id);
  byCookie.close();
  await until(() => svc.openStreams() === 0);
  await svc.notify({ userIds: [user.id], type: 'sync_failed', title: 'Missed 1' });
  await svc.notify({ userIds: [user.id], type: 'sync_completed', title: 'Missed 2' });
  const resumed = await connectSse(url, { ...user.headers, 'last-event-id': seen.id! });
  clients.push(resumed);
  t.match((await resumed.next('notification:count')).data, { unreadCount: 3 });
  t.same(
    [(await resumed.next('notification:new')).data, (await resumed.next('notification:new')).data].map((d) => (d as { title: string }).title),
    ['Missed 1', 'Missed 2'],
  );
  const unknown = await connectSse(url, { ...user.headers, 'last-event-id': 'no-such-id' });
  clients.push(unknown);
  await unknown.next('notification:count');
  await new Promise((r) => setTimeout(r, 100));
  t.equal(unknown.events.filter((e) => e.event === 'notification:new').length, 0, 'an unknown Last-Event-ID replays nothing');
});

t.test('the stream ends when the access token expires', async (t) => {
  const user = await registerUser(ctx.app);
  // A token that expires in one second (signed by the app, as at login).
  const token = ctx.app.jwt.sign({ sub: user.id, typ: 'access' }, { expiresIn: 1 });
  const sse = await connectSse(url, { authorization: `Bearer ${token}` });
  t.equal(sse.status, 200);
  await sse.next('notification:count');
  await Promise.race([sse.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('stream still open')), 5000))]);
  t.pass('the server ended the stream at token expiry');
  await until(() => ctx.app.services.notifications.openStreams() === 0);
});

t.test('closing the app ends open streams promptly', async (t) => {
  const user = await registerUser(ctx.app);
  const sse = await connectSse(url, user.headers);
  await sse.next('notification:count');
  const started = Date.now();
  closed = true;
  const ended = sse.ended.then(() => Date.now() - started);
  await ctx.close();
  t.comment(`the open stream ended ${await ended} ms after app.close() was called; closing the app and its database took ${Date.now() - started} ms`);
  t.pass('the stream ended and the app closed');
});

const postgresUrl = process.env.DATABASE_URL;
t.test(
  'two instances on one PostgreSQL database: a notification created through B reaches a stream on A',
  { skip: postgresUrl ? false : 'needs DATABASE_URL (PostgreSQL); PGlite is a single instance' },
  async (t) => {
    const { database, drop } = await freshDatabase();
    const databaseB = await createDatabase({ url: database.url!, max: 3 });
    const config = testConfig();
    const a = await buildApp({ config, database });
    const b = await buildApp({ config, database: databaseB });
    const urlA = await listen(a);
    const clients: SseClient[] = [];
    t.teardown(async () => {
      for (const c of clients) c.close();
      await a.close();
      await b.close();
      await databaseB.close();
      await drop();
    });

    const owner = await registerUser(b);
    const orgId = await createOrg(b, owner, 'Acme Bank');
    const member = await addOrgMember(b, owner, orgId, 'analyst');
    const ws = await createWorkspace(b, owner, 'GitHub');

    const sse = await connectSse(urlA, member.headers);
    clients.push(sse);
    t.equal(sse.status, 200);
    await sse.next('notification:count');

    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const sentAt = Date.now();
      const [created] = await b.services.notifications.notify({ workspaceId: ws.id, type: 'sync_completed', title: `Sync ${i} finished`, data: { round: i } });
      t.ok(created, 'stored through instance B');
      const ev = await sse.next('notification:new', 5000);
      latencies.push(ev.receivedAt - sentAt);
      t.match(ev.data, { title: `Sync ${i} finished`, workspaceId: ws.id, unreadCount: i + 1 });
    }
    t.comment(`cross-instance (PostgreSQL LISTEN/NOTIFY) notify() on B -> event on A: ${latencies.join(', ')} ms`);

    // Through B's HTTP API too: adding the member to the workspace explicitly notifies them.
    const sentAt = Date.now();
    const add = await b.inject({
      method: 'POST',
      url: `/api/v1/workspaces/${ws.id}/members`,
      headers: ws.headers,
      payload: { email: member.email, role: 'admin' },
    });
    t.equal(add.statusCode, 201, add.body);
    const ev = await sse.next('notification:new', 5000);
    t.comment(`cross-instance, HTTP request on B -> event on A: ${ev.receivedAt - sentAt} ms`);
    t.match(ev.data, { type: 'invitation', workspaceId: ws.id, data: { kind: 'workspace', role: 'admin' } });

    // Reads on B lower the badge on A.
    await b.inject({ method: 'POST', url: '/api/v1/notifications/read-all', headers: member.headers });
    t.match((await sse.next('notification:count')).data, { unreadCount: 0 });
  },
);
