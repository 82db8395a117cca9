import t from 'tap';
import { buildTestApp } from './helpers/app.js';

t.test('GET /health answers in the envelope outside the prefix', async (t) => {
  const ctx = await buildTestApp();
  t.teardown(ctx.close);
  const res = await ctx.app.inject({ method: 'GET', url: '/health' });
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.equal(body.status, 'success');
  t.match(body.message, /healthy/);
  t.equal(body.data.status, 'up');
  t.ok(!Number.isNaN(Date.parse(body.data.timestamp)), 'timestamp is ISO 8601');
  t.type(body.data.uptime, 'number');
  t.ok(res.headers['x-request-id'], 'request id header');

  const prefixed = await ctx.app.inject({ method: 'GET', url: '/api/v1/health' });
  t.equal(prefixed.statusCode, 404, 'health is not under /api/v1');
  t.equal(prefixed.json().status, 'error');
});
