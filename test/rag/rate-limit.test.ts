import t from 'tap';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

const API = '/api/v1';
const extractive = { rag: { ...testConfig().rag, generator: 'extractive' as const } };

t.test('the RAG rate limit applies to the answer endpoints', async (t) => {
  const base = testConfig();
  const ctx = await buildTestApp({ ...extractive, rateLimits: { ...base.rateLimits, enabled: true, rag: { max: 2, windowMs: 60_000 } } });
  t.teardown(ctx.close);
  const u = await registerUser(ctx.app);
  const ws = await createOrgAndWorkspace(ctx.app, u);
  const urls = [`${API}/rag`, `${API}/rag/stream`, `${API}/rag`];
  const codes: number[] = [];
  for (const url of urls) {
    const res = await ctx.app.inject({ method: 'POST', url, headers: ws.headers, payload: { question: 'What is DORA?' } });
    codes.push(res.statusCode);
    if (res.statusCode === 429) {
      t.equal(res.json().message, 'Too many requests, please try again later');
      t.equal(res.json().error.code, 'RATE_LIMIT_EXCEEDED');
      t.ok(res.headers['retry-after']);
    }
  }
  t.same(codes, [200, 200, 429]);
  const other = await ctx.app.inject({ method: 'GET', url: `${API}/conversations`, headers: ws.headers });
  t.equal(other.statusCode, 200, 'other routes are not counted in the RAG scope');
});

t.test('the answer, conversation and analytics routes are in the OpenAPI document', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const doc = (await ctx.app.inject({ method: 'GET', url: '/docs/json' })).json();
  t.ok(doc.paths['/api/v1/rag'].post.requestBody);
  t.ok(doc.paths['/api/v1/rag'].post.responses['200']);
  t.ok(doc.paths['/api/v1/rag/stream'].post.responses['200'].content['text/event-stream']);
  t.ok(doc.paths['/api/v1/conversations/{id}/ask'].post);
  t.ok(doc.paths['/api/v1/conversations/{id}/export'].get.responses['200'].content['text/markdown']);
  for (const p of [
    '/api/v1/conversations',
    '/api/v1/conversations/{id}',
    '/api/v1/conversations/{id}/messages',
    '/api/v1/analytics/queries',
    '/api/v1/analytics/usage',
    '/api/v1/analytics/sources',
  ]) {
    t.ok(doc.paths[p], p);
  }
});
