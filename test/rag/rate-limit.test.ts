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
