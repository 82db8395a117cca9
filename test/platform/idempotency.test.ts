import { count, eq } from 'drizzle-orm';
import t from 'tap';
import { conversations, idempotencyKeys, messages, workspaces } from '../../src/db/schema/index.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { createTextSource } from '../helpers/dataSources.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

/** Idempotency-Key on creating and asking POSTs (docs/api-conventions.md, "Retries"), on both databases. */
t.test('Idempotency-Key', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app, database } = ctx;
  const db = database.db;
  const owner = await registerUser(app);
  const { headers, orgId } = await createOrgAndWorkspace(app, owner);
  const workspaceCount = async () => Number((await db.select({ n: count() }).from(workspaces).where(eq(workspaces.orgId, orgId)))[0].n);

  t.test('a retry with the same key and body is replayed, not carried out again', async (t) => {
    const before = await workspaceCount();
    const send = () =>
      app.inject({ method: 'POST', url: '/api/v1/workspaces', headers: { ...owner.headers, 'idempotency-key': 'ws-1' }, payload: { workspaceName: 'Okta' } });
    const first = await send();
    t.equal(first.statusCode, 201);
    t.notOk(first.headers['idempotent-replayed'], 'the first response is not marked');
    const again = await send();
    t.equal(again.statusCode, 201, 'the same status');
    t.equal(again.headers['idempotent-replayed'], 'true', 'marked as a replay');
    t.same(again.json(), first.json(), 'the same body');
    t.equal(await workspaceCount(), before + 1, 'one workspace');
    const reordered = await app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: { ...owner.headers, 'idempotency-key': 'ws-1', 'content-type': 'application/json' },
      payload: JSON.stringify({ workspaceName: 'Okta' }).replace('{', '{ '),
      // The same document written differently is the same request.
    });
    t.equal(reordered.headers['idempotent-replayed'], 'true');
    const noKey = await app.inject({ method: 'POST', url: '/api/v1/workspaces', headers: owner.headers, payload: { workspaceName: 'Okta' } });
    t.equal(noKey.statusCode, 409, 'without a key the request runs again (here: the name is taken)');
  });

  t.test('the same key with another body is 422; another user has keys of their own', async (t) => {
    const other = await app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: { ...owner.headers, 'idempotency-key': 'ws-1' },
      payload: { workspaceName: 'Slack' },
    });
    t.equal(other.statusCode, 422);
    t.equal(other.json().error.code, 'IDEMPOTENCY_KEY_REUSED');
    const stranger = await registerUser(app);
    await createOrgAndWorkspace(app, stranger, 'Zoom', 'Other Bank');
    const theirs = await app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: { ...stranger.headers, 'idempotency-key': 'ws-1' },
      payload: { workspaceName: 'Okta' },
    });
    t.equal(theirs.statusCode, 201, 'the key of one user does not touch another');
    t.notOk(theirs.headers['idempotent-replayed']);
    const bad = await app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: { ...owner.headers, 'idempotency-key': 'x'.repeat(256) },
      payload: { workspaceName: 'Long key' },
    });
    t.equal(bad.statusCode, 400);
    t.match(bad.json().error.details, [/^Idempotency-Key:/]);
  });

  t.test('a request with the key still in flight is 409 with Retry-After; an abandoned claim is taken over', async (t) => {
    // A claim held by a request running elsewhere (another instance).
    const [row] = await db
      .insert(idempotencyKeys)
      .values({
        owner: `user:${owner.id}`,
        key: 'busy',
        requestHash: 'whatever',
        method: 'POST',
        path: '/api/v1/workspaces',
        leaseUntil: new Date(Date.now() + 60_000),
        expiresAt: new Date(Date.now() + 86_400_000),
      })
      .returning();
    const send = () =>
      app.inject({ method: 'POST', url: '/api/v1/workspaces', headers: { ...owner.headers, 'idempotency-key': 'busy' }, payload: { workspaceName: 'Busy' } });
    // The hash differs, so make it the request's own: the first answer tells which.
    const reused = await send();
    t.equal(reused.statusCode, 422);
    await db
      .update(idempotencyKeys)
      .set({ requestHash: (await findHashOf('busy-probe')) ?? '' })
      .where(eq(idempotencyKeys.id, row.id));
    async function findHashOf(key: string) {
      await app.inject({
        method: 'POST',
        url: '/api/v1/workspaces',
        headers: { ...owner.headers, 'idempotency-key': key },
        payload: { workspaceName: 'Busy' },
      });
      const [probe] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
      await db.delete(workspaces).where(eq(workspaces.name, 'Busy'));
      await db.delete(idempotencyKeys).where(eq(idempotencyKeys.key, key));
      return probe?.requestHash;
    }
    const busy = await send();
    t.equal(busy.statusCode, 409);
    t.equal(busy.json().error.code, 'IDEMPOTENCY_KEY_IN_USE');
    t.equal(busy.headers['retry-after'], '1');
    await db
      .update(idempotencyKeys)
      .set({ leaseUntil: new Date(Date.now() - 1000) })
      .where(eq(idempotencyKeys.id, row.id));
    const takenOver = await send();
    t.equal(takenOver.statusCode, 201, 'a claim whose lease ran out without an effect is taken over');
    await db
      .update(idempotencyKeys)
      .set({ leaseUntil: new Date(Date.now() - 1000), state: 'in_flight', committedAt: new Date() })
      .where(eq(idempotencyKeys.id, row.id));
    const lost = await send();
    t.equal(lost.statusCode, 409, 'an effect that committed without its response is never carried out again');
    t.equal(lost.json().error.code, 'IDEMPOTENCY_RESPONSE_LOST');
  });

  t.test('a failed request gives its key up; an expired record is forgotten', async (t) => {
    const missing = await app.inject({
      method: 'POST',
      url: '/api/v1/conversations/00000000-0000-4000-8000-000000000000/ask',
      headers: { ...headers, 'idempotency-key': 'ask-missing' },
      payload: { question: 'Anything?' },
    });
    t.equal(missing.statusCode, 404);
    t.equal((await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'ask-missing'))).length, 0, 'no record kept for a failure');
    await db
      .update(idempotencyKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(idempotencyKeys.key, 'ws-1'));
    const later = await app.inject({
      method: 'POST',
      url: '/api/v1/workspaces',
      headers: { ...owner.headers, 'idempotency-key': 'ws-1' },
      payload: { workspaceName: 'Slack' },
    });
    t.equal(later.statusCode, 201, 'after 24 hours the key is free again');
  });

  t.test('POST /rag, /rag/stream and /conversations/:id/ask store one exchange per key', async (t) => {
    await createTextSource(app, headers, [{ title: 'Incident policy', content: 'Incidents are reported to the customer within 24 hours.' }]);
    const ask = (key: string, question = 'How fast are incidents reported?') =>
      app.inject({ method: 'POST', url: '/api/v1/rag', headers: { ...headers, 'idempotency-key': key }, payload: { question } });
    const first = await ask('rag-1');
    t.equal(first.statusCode, 200);
    const replay = await ask('rag-1');
    t.equal(replay.headers['idempotent-replayed'], 'true');
    t.same(replay.json(), first.json(), 'the same answer, the same conversation');
    const conversationId = first.json().data.conversationId;
    const stored = await db.select({ n: count() }).from(messages).where(eq(messages.conversationId, conversationId));
    t.equal(Number(stored[0].n), 2, 'one exchange');
    t.equal((await ask('rag-1', 'Another question?')).statusCode, 422);

    const inConversation = () =>
      app.inject({
        method: 'POST',
        url: `/api/v1/conversations/${conversationId}/ask`,
        headers: { ...headers, 'idempotency-key': 'ask-1' },
        payload: { question: 'And backups?' },
      });
    const a = await inConversation();
    const b = await inConversation();
    t.equal(a.statusCode, 200);
    t.equal(b.headers['idempotent-replayed'], 'true');
    const [conv] = await db.select().from(conversations).where(eq(conversations.id, conversationId));
    t.equal(conv.messageCount, 4, 'the follow-up stored once');

    const stream = () =>
      app.inject({ method: 'POST', url: '/api/v1/rag/stream', headers: { ...headers, 'idempotency-key': 'stream-1' }, payload: { question: 'Streamed?' } });
    const s1 = await stream();
    t.equal(s1.statusCode, 200);
    t.match(s1.body, /event: done/);
    await new Promise((r) => setImmediate(r));
    let s2 = await stream();
    for (let i = 0; i < 50 && s2.statusCode === 409; i++) {
      await new Promise((r) => setTimeout(r, 20));
      s2 = await stream();
    }
    t.equal(s2.headers['idempotent-replayed'], 'true', 'a stream is replayed as it went out');
    t.match(String(s2.headers['content-type']), /^text\/event-stream/);
    t.equal(s2.body, s1.body);
    const saved = /event: saved\ndata: (.*)/.exec(s1.body)?.[1];
    const streamConversation = JSON.parse(saved ?? '{}').conversationId;
    const n = await db.select({ n: count() }).from(messages).where(eq(messages.conversationId, streamConversation));
    t.equal(Number(n[0].n), 2, 'one streamed exchange');
  });
});

t.test('a failed request whose claim could not be given up (the database stayed away) gives it up once the database is back', async (t) => {
  const { idempotencyService } = await import('../../src/modules/idempotency/service.js');
  const unavailable = () => Object.assign(new Error('connection terminated'), { code: 'ECONNRESET' });
  let down = true;
  const released: string[] = [];
  const repo = {
    byId: async (id: string) => {
      if (down) throw unavailable();
      return { id, state: 'in_flight' };
    },
    release: async (id: string) => {
      if (down) throw unavailable();
      released.push(id);
    },
  };
  const service = idempotencyService(repo as never);
  const failing = service.fail('claim-1');
  // The request's own retries (10 s) run out while the database is away: the request fails, the claim is not released yet.
  const error = await failing.then(
    () => null,
    (err: unknown) => err,
  );
  t.ok(error, 'the request could not give its claim up');
  t.same(released, []);
  down = false;
  for (let i = 0; i < 100 && !released.length; i++) await new Promise((r) => setTimeout(r, 100));
  t.same(released, ['claim-1'], 'given up in the background once the database is back');
});
