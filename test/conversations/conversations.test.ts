import t from 'tap';
import { queryRows, sql } from '../../src/db/client.js';
import type { AssistantMetadata } from '../../src/domain/answers.js';
import { buildTestApp, registerUser } from '../helpers/app.js';
import { addOrgMember, createOrgAndWorkspace, createWorkspace, wsHeaders } from '../helpers/workspaces.js';

const API = '/api/v1';

function metadata(n: number): AssistantMetadata {
  return {
    confidence: 0.8,
    sources: [
      {
        id: `chunk-${n}`,
        sourceNumber: 1,
        title: `Doc [${n}]`,
        url: 'https://example.com/doc',
        section: 'Intro',
        score: 0.7,
        documentId: `doc-${n}`,
        dataSourceId: 'ds-1',
        page: null,
      },
    ],
    citedSources: [{ sourceNumber: 1, title: `Doc [${n}]`, url: 'https://example.com/doc' }],
    validation: { confidence: 0.8, isGrounded: true, hasHallucinations: false, isRelevant: true, issues: [] },
    generator: 'extractive',
    model: null,
    totalTime: 12,
  };
}

t.test('conversations', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app, { name: 'Olivia Owner' });
  const { orgId, workspaceId, headers } = await createOrgAndWorkspace(app, owner, 'GitHub');
  const colleague = await addOrgMember(app, owner, orgId, 'analyst');
  const colleagueHeaders = wsHeaders(colleague, workspaceId);
  const other = await createWorkspace(app, owner, 'Basecamp');

  const req = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, h: Record<string, string> = headers) =>
    app.inject({ method, url: `${API}${url}`, headers: h, ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = async (title?: string, h = headers) => {
    const res = await req('POST', '/conversations', title === undefined ? {} : { title }, h);
    t.equal(res.statusCode, 201, res.body);
    return res.json().data.conversation as { id: string; title: string; messageCount: number; status: string; createdAt: string; lastMessageAt: string };
  };
  /** Stores exchanges through the conversations service (what an answer does). */
  const addExchanges = async (conversationId: string, n: number, userId = owner.id, ws = workspaceId) => {
    for (let i = 0; i < n; i++) {
      await app.services.conversations.saveExchange(
        { workspaceId: ws, userId },
        {
          conversationId,
          question: `Question ${i + 1}?`,
          askedAt: new Date(Date.now() + i * 1000),
          answer: `Answer ${i + 1} [Source 1].`,
          answeredAt: new Date(Date.now() + i * 1000 + 500),
          metadata: metadata(i + 1),
        },
      );
    }
  };

  t.test('access: authentication, workspace header and membership', async (t) => {
    const noAuth = await app.inject({ method: 'GET', url: `${API}/conversations`, headers: { 'x-workspace-id': workspaceId } });
    t.equal(noAuth.statusCode, 401);
    t.equal(noAuth.json().message, 'Authentication required');
    const noHeader = await app.inject({ method: 'GET', url: `${API}/conversations`, headers: owner.headers });
    t.equal(noHeader.statusCode, 400);
    t.match(noHeader.json().message, /^Validation failed: X-Workspace-Id/);
    const stranger = await registerUser(app);
    const denied = await req('GET', '/conversations', undefined, wsHeaders(stranger, workspaceId));
    t.equal(denied.statusCode, 403);
    t.equal(denied.json().message, 'Access denied to this workspace');
    const deniedCreate = await req('POST', '/conversations', {}, wsHeaders(stranger, workspaceId));
    t.equal(deniedCreate.statusCode, 403);
  });

  t.test('create: default title, given title, bad input', async (t) => {
    const c = await create();
    t.equal(c.title, 'New Conversation');
    t.equal(c.messageCount, 0);
    t.equal(c.status, 'active');
    t.ok(!Number.isNaN(Date.parse(c.createdAt)));
    t.equal(c.lastMessageAt, c.createdAt, 'lastMessageAt is the creation time while there is no message');
    const named = await create('  GitHub DPA review  ');
    t.equal(named.title, 'GitHub DPA review', 'title is trimmed');
    for (const [payload, detail] of [
      [{ title: '' }, /title/],
      [{ title: '   ' }, /title: must not be blank/],
      [{ title: 'x'.repeat(201) }, /title/],
      [{ title: 'ok', extra: 1 }, /extra: is not allowed/],
    ] as const) {
      const res = await req('POST', '/conversations', payload);
      t.equal(res.statusCode, 400, JSON.stringify(payload));
      t.equal(res.json().status, 'error');
      t.equal(res.json().error.code, 'VALIDATION_ERROR');
      t.match(res.json().message, /^Validation failed: /);
      t.match(res.json().error.details.join(';'), detail);
    }
  });

  t.test("list: pagination, status filter, sorting, only the caller's own", async (t) => {
    const ctx2 = await buildTestApp();
    t.teardown(ctx2.close);
    const a = ctx2.app;
    const u = await registerUser(a);
    const ws = await createOrgAndWorkspace(a, u);
    const titles = ['Charlie', 'alpha', 'Bravo', 'delta', 'Echo'];
    const ids: string[] = [];
    for (const title of titles) {
      const res = await a.inject({ method: 'POST', url: `${API}/conversations`, headers: ws.headers, payload: { title } });
      ids.push(res.json().data.conversation.id);
    }
    // A message makes "alpha" the most recently active one.
    await a.services.conversations.saveExchange(
      { workspaceId: ws.workspaceId, userId: u.id },
      {
        conversationId: ids[1],
        question: 'Q?',
        askedAt: new Date(Date.now() + 60_000),
        answer: 'A.',
        answeredAt: new Date(Date.now() + 61_000),
        metadata: metadata(1),
      },
    );
    await a.inject({ method: 'PATCH', url: `${API}/conversations/${ids[3]}`, headers: ws.headers, payload: { status: 'archived' } });
    const list = async (qs: string) => {
      const res = await a.inject({ method: 'GET', url: `${API}/conversations${qs}`, headers: ws.headers });
      return res;
    };
    const def = (await list('')).json().data;
    t.same(def.pagination, { page: 1, limit: 20, total: 4, pages: 1, hasMore: false });
    t.equal(def.conversations[0].title, 'alpha', 'default sort is -lastMessageAt');
    t.equal(def.conversations[0].messageCount, 2);
    t.notOk(
      def.conversations.some((c: { status: string }) => c.status !== 'active'),
      'default status is active',
    );
    t.same(Object.keys(def.conversations[0]).sort(), ['createdAt', 'id', 'lastMessageAt', 'messageCount', 'status', 'title']);

    const archived = (await list('?status=archived')).json().data;
    t.same(
      archived.conversations.map((c: { title: string }) => c.title),
      ['delta'],
    );
    const deleted = (await list('?status=deleted')).json().data;
    t.same(deleted.conversations, [], 'deleted is an accepted filter; nothing is ever moved into it');

    const byTitle = (await list('?sort=title')).json().data.conversations.map((c: { title: string }) => c.title);
    t.same(byTitle, ['Bravo', 'Charlie', 'Echo', 'alpha'], 'ascending by title (byte order)');
    const byCreatedDesc = (await list('?sort=-createdAt')).json().data.conversations.map((c: { title: string }) => c.title);
    t.same(byCreatedDesc, ['Echo', 'Bravo', 'alpha', 'Charlie']);

    const p1 = (await list('?limit=3&page=1&sort=createdAt')).json().data;
    const p2 = (await list('?limit=3&page=2&sort=createdAt')).json().data;
    t.same(p1.pagination, { page: 1, limit: 3, total: 4, pages: 2, hasMore: true });
    t.same(
      p2.conversations.map((c: { title: string }) => c.title),
      ['Echo'],
    );
    const p9 = (await list('?page=9')).json().data;
    t.same(p9.conversations, []);
    t.equal(p9.pagination.total, 4);

    for (const qs of ['?limit=101', '?limit=0', '?page=0', '?sort=password', '?sort=-userId', '?status=gone', '?foo=1']) {
      const res = await list(qs);
      t.equal(res.statusCode, 400, qs);
      t.match(res.json().message, /^Validation failed: /, qs);
    }

    // A colleague in the same workspace sees none of these.
    const colleague2 = await addOrgMember(a, u, ws.orgId, 'analyst');
    const theirs = await a.inject({ method: 'GET', url: `${API}/conversations`, headers: wsHeaders(colleague2, ws.workspaceId) });
    t.equal(theirs.statusCode, 200);
    t.same(theirs.json().data.conversations, []);
    t.equal(theirs.json().data.pagination.total, 0);
  });

  t.test("another user's or another workspace's conversation is 404", async (t) => {
    const mine = await create('Mine');
    await addExchanges(mine.id, 1);
    for (const h of [colleagueHeaders, other.headers]) {
      for (const [method, url, payload] of [
        ['GET', `/conversations/${mine.id}`],
        ['PATCH', `/conversations/${mine.id}`, { title: 'Stolen' }],
        ['DELETE', `/conversations/${mine.id}`],
        ['GET', `/conversations/${mine.id}/messages`],
        ['DELETE', `/conversations/${mine.id}/messages`],
        ['GET', `/conversations/${mine.id}/export`],
        ['GET', `/conversations/${mine.id}/export?format=markdown`],
      ] as const) {
        const res = await req(method, url, payload, h);
        t.equal(res.statusCode, 404, `${method} ${url}`);
        t.equal(res.json().message, 'Conversation not found');
        t.equal(res.json().error.code, 'CONVERSATION_NOT_FOUND');
      }
    }
    const still = (await req('GET', `/conversations/${mine.id}`)).json().data;
    t.equal(still.conversation.title, 'Mine', 'nothing changed');
    t.equal(still.messages.length, 2);
    const unknown = await req('GET', '/conversations/does-not-exist');
    t.equal(unknown.statusCode, 404);
  });

  t.test('get with messageLimit returns the newest messages, oldest first', async (t) => {
    const c = await create('Limits');
    await addExchanges(c.id, 3);
    const all = (await req('GET', `/conversations/${c.id}`)).json().data;
    t.equal(all.conversation.messageCount, 6);
    t.same(
      all.messages.map((m: { role: string }) => m.role),
      ['user', 'assistant', 'user', 'assistant', 'user', 'assistant'],
    );
    t.equal(all.messages[0].content, 'Question 1?');
    t.notOk('metadata' in all.messages[0], 'user messages carry no metadata');
    t.same(all.messages[1].metadata, metadata(1), 'assistant metadata is returned as stored');
    t.ok(!Number.isNaN(Date.parse(all.messages[0].timestamp)));
    const two = (await req('GET', `/conversations/${c.id}?messageLimit=2`)).json().data;
    t.same(
      two.messages.map((m: { content: string }) => m.content),
      ['Question 3?', 'Answer 3 [Source 1].'],
    );
    const none = (await req('GET', `/conversations/${c.id}?messageLimit=0`)).json().data;
    t.same(none.messages, []);
    for (const qs of ['?messageLimit=-1', '?messageLimit=abc', '?messageLimit=501']) {
      t.equal((await req('GET', `/conversations/${c.id}${qs}`)).statusCode, 400, qs);
    }
    t.equal(all.conversation.lastMessageAt, all.messages[5].timestamp, 'lastMessageAt is the newest message time');
  });

  t.test('rename, archive, reactivate', async (t) => {
    const c = await create('Before');
    const renamed = await req('PATCH', `/conversations/${c.id}`, { title: 'After' });
    t.equal(renamed.statusCode, 200);
    t.match(renamed.json().data.conversation, { id: c.id, title: 'After', status: 'active' });
    const archived = await req('PATCH', `/conversations/${c.id}`, { status: 'archived' });
    t.equal(archived.json().data.conversation.status, 'archived');
    const again = await req('PATCH', `/conversations/${c.id}`, { status: 'archived' });
    t.equal(again.statusCode, 200, 'archiving an archived conversation is a no-op');
    const listed = (await req('GET', '/conversations?status=archived')).json().data.conversations;
    t.ok(listed.some((x: { id: string }) => x.id === c.id));
    const back = await req('PATCH', `/conversations/${c.id}`, { status: 'active', title: 'Back' });
    t.match(back.json().data.conversation, { status: 'active', title: 'Back' });
    for (const payload of [{}, { status: 'deleted' }, { title: '  ' }, { title: 'x', messageCount: 3 }]) {
      const res = await req('PATCH', `/conversations/${c.id}`, payload);
      t.equal(res.statusCode, 400, JSON.stringify(payload));
      t.match(res.json().message, /^Validation failed: /);
    }
    t.equal((await req('GET', `/conversations/${c.id}`)).json().data.conversation.title, 'Back', 'bad input changed nothing');
  });

  t.test('messages: pages, before/after, hasMore', async (t) => {
    const c = await create('Paging');
    await addExchanges(c.id, 5); // 10 messages
    const page = async (qs: string) => {
      const res = await req('GET', `/conversations/${c.id}/messages${qs}`);
      t.equal(res.statusCode, 200, `${qs} ${res.body}`);
      return res.json().data as { messages: { id: string; content: string }[]; pagination: { page: number; limit: number; total: number; hasMore: boolean } };
    };
    const all = await page('');
    t.same(all.pagination, { page: 1, limit: 50, total: 10, pages: 1, hasMore: false });
    const ids = all.messages.map((m) => m.id);
    const p1 = await page('?limit=4');
    t.same(
      p1.messages.map((m) => m.id),
      ids.slice(0, 4),
    );
    t.same(p1.pagination, { page: 1, limit: 4, total: 10, pages: 3, hasMore: true });
    const p3 = await page('?limit=4&page=3');
    t.same(
      p3.messages.map((m) => m.id),
      ids.slice(8),
    );
    t.equal(p3.pagination.hasMore, false);

    const before = await page(`?before=${ids[7]}&limit=3`);
    t.same(
      before.messages.map((m) => m.id),
      ids.slice(4, 7),
      'the 3 messages right before, oldest first',
    );
    t.same(before.pagination, { page: 1, limit: 3, total: 7, pages: 3, hasMore: true });
    const before2 = await page(`?before=${ids[7]}&limit=3&page=3`);
    t.same(
      before2.messages.map((m) => m.id),
      ids.slice(0, 1),
    );
    t.equal(before2.pagination.hasMore, false);

    const after = await page(`?after=${ids[5]}&limit=3`);
    t.same(
      after.messages.map((m) => m.id),
      ids.slice(6, 9),
    );
    t.same(after.pagination, { page: 1, limit: 3, total: 4, pages: 2, hasMore: true });
    const between = await page(`?after=${ids[2]}&before=${ids[6]}`);
    t.same(
      between.messages.map((m) => m.id),
      ids.slice(3, 6),
    );
    t.equal(between.pagination.hasMore, false);

    const foreign = await create('Other');
    await addExchanges(foreign.id, 1);
    const foreignId = (await req('GET', `/conversations/${foreign.id}`)).json().data.messages[0].id;
    for (const qs of [`?before=${foreignId}`, '?after=nope', '?limit=101', '?page=0', '?limit=x']) {
      const res = await req('GET', `/conversations/${c.id}/messages${qs}`);
      t.equal(res.statusCode, 400, qs);
      t.match(res.json().message, /^Validation failed: /, qs);
    }
  });

  t.test('clear messages keeps the conversation', async (t) => {
    const c = await create('Clear me');
    await addExchanges(c.id, 2);
    const res = await req('DELETE', `/conversations/${c.id}/messages`);
    t.equal(res.statusCode, 200);
    t.equal(res.json().data.deletedCount, 4);
    t.type(res.json().message, 'string');
    const after = (await req('GET', `/conversations/${c.id}`)).json().data;
    t.equal(after.conversation.messageCount, 0);
    t.same(after.messages, []);
    t.equal(after.conversation.lastMessageAt, after.conversation.createdAt);
    const again = await req('DELETE', `/conversations/${c.id}/messages`);
    t.equal(again.json().data.deletedCount, 0);
  });

  t.test('delete removes the conversation and all its messages', async (t) => {
    const c = await create('Delete me');
    await addExchanges(c.id, 2);
    const res = await req('DELETE', `/conversations/${c.id}`);
    t.equal(res.statusCode, 200);
    t.equal(res.json().status, 'success');
    t.type(res.json().message, 'string');
    t.equal((await req('GET', `/conversations/${c.id}`)).statusCode, 404);
    t.equal((await req('DELETE', `/conversations/${c.id}`)).statusCode, 404);
    const [row] = await queryRows<{ n: number }>(app.database.db, sql`select count(*)::int as n from messages where conversation_id = ${c.id}`);
    t.equal(Number(row.n), 0, 'messages are gone from the database');
  });

  t.test('deleting the workspace removes its conversations', async (t) => {
    const ws = await createWorkspace(app, owner, 'Short-lived');
    const res = await req('POST', '/conversations', { title: 'Doomed' }, ws.headers);
    const id = res.json().data.conversation.id;
    await addExchanges(id, 1, owner.id, ws.id);
    const del = await app.inject({ method: 'DELETE', url: `${API}/workspaces/${ws.id}`, headers: owner.headers });
    t.equal(del.statusCode, 200, del.body);
    const [row] = await queryRows<{ c: number; m: number }>(
      app.database.db,
      sql`
      select (select count(*)::int from conversations where id = ${id}) as c, (select count(*)::int from messages where conversation_id = ${id}) as m`,
    );
    t.same([Number(row.c), Number(row.m)], [0, 0]);
  });
});
