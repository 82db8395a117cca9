import t from 'tap';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { streamInject } from '../helpers/rag.js';
import { addOrgMember, createOrgAndWorkspace, createWorkspace, wsHeaders } from '../helpers/workspaces.js';

const API = '/api/v1';
const DAY = 24 * 3600 * 1000;
const ymd = (d: Date) => d.toISOString().slice(0, 10);

t.test('analytics of the questions asked in a workspace', async (t) => {
  const ctx = await buildTestApp({ rag: { ...testConfig().rag, generator: 'extractive' } });
  t.teardown(ctx.close);
  const { app } = ctx;
  await app.services.dataSources.indexCorpus({ articles: [19, 28, 30] });
  const owner = await registerUser(app, { name: 'Olivia Owner' });
  const ws = await createOrgAndWorkspace(app, owner, 'GitHub');
  const analyst = await addOrgMember(app, owner, ws.orgId, 'analyst', { name: 'Andy Analyst' });
  const analystHeaders = wsHeaders(analyst, ws.workspaceId);
  const other = await createWorkspace(app, owner, 'Basecamp');

  const ask = async (headers: Record<string, string>, question: string, url = `${API}/rag`) => {
    const res = await app.inject({ method: 'POST', url, headers, payload: { question } });
    t.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };
  const first = await ask(ws.headers, 'What must financial entities report about major ICT-related incidents?');
  await ask(ws.headers, 'What must contractual arrangements on the use of ICT services include?', `${API}/conversations/${first.conversationId}/ask`);
  const streamed = await streamInject(app, ws.headers, { question: 'What is the register of information on contractual arrangements?' });
  t.equal(streamed.events[streamed.events.length - 1].event, 'done');
  await ask(analystHeaders, 'Which ICT third-party risk principles apply to financial entities?');
  await ask(other.headers, 'What is the register of information?');

  const get = (url: string, headers = ws.headers) => app.inject({ method: 'GET', url: `${API}${url}`, headers });

  t.test('access', async (t) => {
    const noHeader = await app.inject({ method: 'GET', url: `${API}/analytics/queries`, headers: owner.headers });
    t.equal(noHeader.statusCode, 400);
    const stranger = await registerUser(app);
    for (const url of ['/analytics/queries', '/analytics/usage', '/analytics/sources']) {
      const res = await get(url, wsHeaders(stranger, ws.workspaceId));
      t.equal(res.statusCode, 403, url);
      t.equal(res.json().message, 'Access denied to this workspace');
      t.equal((await app.inject({ method: 'GET', url: `${API}${url}`, headers: { 'x-workspace-id': ws.workspaceId } })).statusCode, 401);
    }
  });

  t.test('queries: every question with user, latency, confidence and sources', async (t) => {
    const res = await get('/analytics/queries');
    t.equal(res.statusCode, 200, res.body);
    const d = res.json().data;
    t.equal(d.scope, 'workspace');
    t.same(d.pagination, { page: 1, limit: 20, total: 4, pages: 1, hasMore: false });
    t.same(
      d.queries.map((q: { endpoint: string }) => q.endpoint),
      ['rag', 'stream', 'conversation', 'rag'],
      'newest first',
    );
    t.same(
      d.queries.map((q: { user: { name: string } }) => q.user.name),
      ['Andy Analyst', 'Olivia Owner', 'Olivia Owner', 'Olivia Owner'],
    );
    const q = d.queries[3];
    t.equal(q.question, 'What must financial entities report about major ICT-related incidents?');
    t.equal(q.conversationId, first.conversationId);
    t.match(q, {
      status: 'answered',
      errorCode: null,
      generator: 'extractive',
      model: null,
      isGrounded: first.validation.isGrounded,
      isRelevant: first.validation.isRelevant,
    });
    t.equal(q.confidence, first.validation.confidence);
    t.ok(Number.isInteger(q.latencyMs) && q.latencyMs >= 0);
    t.equal(q.firstChunkMs, null, 'not a stream');
    t.ok(Number.isInteger(d.queries[1].firstChunkMs), 'a stream records its first chunk time');
    t.equal(q.sourceCount, first.sources.length);
    t.equal(q.citedCount, first.citedSources.length);
    t.same(
      q.sources.map((s: { documentId: string }) => s.documentId),
      first.sources.map((s: { documentId: string }) => s.documentId),
    );
    t.same(
      q.sources.filter((s: { cited: boolean }) => s.cited).map((s: { sourceNumber: number }) => s.sourceNumber),
      first.citedSources.map((c: { sourceNumber: number }) => c.sourceNumber).sort((x: number, y: number) => x - y),
      'the cited flags mark the cited sources',
    );

    const p1 = (await get('/analytics/queries?limit=3')).json().data;
    const p2 = (await get('/analytics/queries?limit=3&page=2')).json().data;
    t.same(p1.pagination, { page: 1, limit: 3, total: 4, pages: 2, hasMore: true });
    t.equal(p2.queries.length, 1);
    t.equal(p2.queries[0].id, d.queries[3].id);
    t.equal((await get('/analytics/queries?status=failed')).json().data.pagination.total, 0);
    t.equal((await get('/analytics/queries?status=answered')).json().data.pagination.total, 4);
    const otherWs = (await get('/analytics/queries', other.headers)).json().data;
    t.equal(otherWs.pagination.total, 1, 'each workspace counts its own questions');
  });

  t.test('members see their own queries; owners may narrow to one member', async (t) => {
    const mine = (await get('/analytics/queries', analystHeaders)).json().data;
    t.equal(mine.scope, 'user');
    t.equal(mine.pagination.total, 1);
    t.equal(mine.queries[0].user.name, 'Andy Analyst');
    const peek = await get(`/analytics/queries?userId=${owner.id}`, analystHeaders);
    t.equal(peek.statusCode, 403);
    t.equal(peek.json().error.code, 'INSUFFICIENT_PERMISSION');
    const usage = (await get('/analytics/usage', analystHeaders)).json().data;
    t.equal(usage.totals.queries, 1);
    const narrowed = (await get(`/analytics/queries?userId=${analyst.id}`)).json().data;
    t.equal(narrowed.pagination.total, 1);
    t.equal(narrowed.scope, 'user');
  });

  t.test('date ranges', async (t) => {
    const now = new Date();
    const count = async (qs: string) => {
      const res = await get(`/analytics/queries${qs}`);
      t.equal(res.statusCode, 200, `${qs} ${res.body}`);
      return res.json().data.pagination.total as number;
    };
    t.equal(await count(`?from=${ymd(new Date(now.getTime() + DAY))}&to=${ymd(new Date(now.getTime() + 2 * DAY))}`), 0, 'tomorrow');
    t.equal((await get(`/analytics/queries?from=${ymd(new Date(now.getTime() + DAY))}`)).statusCode, 400, 'from after the default to (now)');
    t.equal(await count(`?to=${ymd(new Date(now.getTime() - DAY))}`), 0, 'to yesterday (whole day)');
    t.equal(await count(`?from=${ymd(now)}&to=${ymd(now)}`), 4, 'a date-only to includes that day');
    t.equal(await count(`?from=${new Date(now.getTime() - 3600_000).toISOString()}`), 4, 'ISO date-times work');
    const range = (await get(`/analytics/usage?from=2026-01-01&to=2026-01-31`)).json().data.range;
    t.same(range, { from: '2026-01-01T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z' });
    for (const qs of ['?from=2025-02-30', '?to=yesterday', `?from=${ymd(now)}&to=2020-01-01`, '?limit=101', '?page=0', '?status=ok', '?sort=x']) {
      const res = await get(`/analytics/queries${qs}`);
      t.equal(res.statusCode, 400, qs);
      t.match(res.json().message, /^Validation failed: /, qs);
    }
  });

  t.test('usage statistics', async (t) => {
    const res = await get('/analytics/usage');
    t.equal(res.statusCode, 200, res.body);
    const u = res.json().data;
    t.match(u.totals, { queries: 4, answered: 4, failed: 0, aborted: 0, users: 2, conversations: 3, inputTokens: 0, outputTokens: 0 });
    t.type(u.totals.avgLatencyMs, 'number');
    t.ok(u.totals.p95LatencyMs >= u.totals.p50LatencyMs);
    t.ok(u.totals.avgConfidence > 0 && u.totals.avgConfidence <= 1);
    t.type(u.totals.groundedRate, 'number');
    t.type(u.totals.avgFirstChunkMs, 'number');
    t.same(
      u.daily.map((d: { date: string; queries: number }) => [d.date, d.queries]),
      [[ymd(new Date()), 4]],
    );
    t.same(u.byEndpoint.map((e: { endpoint: string; queries: number }) => [e.endpoint, e.queries]).sort(), [
      ['conversation', 1],
      ['rag', 2],
      ['stream', 1],
    ]);
    t.same(
      u.byGenerator.map((g: { generator: string }) => g.generator),
      ['extractive'],
    );
    t.same(
      u.byUser.map((x: { user: { name: string }; queries: number }) => [x.user.name, x.queries]),
      [
        ['Olivia Owner', 3],
        ['Andy Analyst', 1],
      ],
    );
    const empty = (await get(`/analytics/usage?from=2020-01-01&to=2020-01-02`)).json().data;
    t.match(empty.totals, { queries: 0, avgLatencyMs: null, avgConfidence: null });
    t.same(empty.daily, []);
  });

  t.test('source statistics', async (t) => {
    const res = await get('/analytics/sources');
    t.equal(res.statusCode, 200, res.body);
    const s = res.json().data;
    t.ok(s.totals.documents >= 1);
    t.ok(s.totals.retrievals >= s.totals.citations && s.totals.citations >= 1);
    t.equal(s.pagination.total, s.totals.documents);
    const cited = s.sources.map((x: { citedCount: number }) => x.citedCount);
    t.same(
      cited,
      [...cited].sort((a: number, b: number) => b - a),
      'most cited first',
    );
    for (const x of s.sources) {
      t.match(x.title, /^DORA Article \d+/);
      t.equal(x.dataSourceId, null);
      t.ok(x.retrievedCount >= x.citedCount && x.queryCount >= 1 && x.queryCount <= 4);
      t.ok(x.avgScore >= 0 && x.avgScore <= 1);
    }
    t.equal(
      s.sources.reduce((n: number, x: { citedCount: number }) => n + x.citedCount, 0),
      s.totals.citations,
    );
    const page = (await get('/analytics/sources?limit=1&page=2')).json().data;
    t.equal(page.sources.length, s.totals.documents >= 2 ? 1 : 0);
    const mine = (await get('/analytics/sources', analystHeaders)).json().data;
    t.equal(mine.scope, 'user');
    t.ok(mine.totals.retrievals <= s.totals.retrievals);
  });
});
