import t from 'tap';
import { buildTestApp, registerUser, testConfig } from '../helpers/app.js';
import { createTextSource, waitForDataSource } from '../helpers/dataSources.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

t.test('re-sync is limited by the sync rate limit', async (t) => {
  const base = testConfig();
  const ctx = await buildTestApp({ rateLimits: { ...base.rateLimits, enabled: true, sync: { max: 2, windowMs: 3_600_000 } } });
  t.teardown(ctx.close);
  const { app } = ctx;
  const owner = await registerUser(app);
  const a = await createOrgAndWorkspace(app, owner, 'Vendor A');
  const ds = await createTextSource(app, a.headers, [{ content: 'rate limited text', format: 'text' }]);
  const sync = () => app.inject({ method: 'POST', url: `/api/v1/data-sources/${ds.id}/sync`, headers: a.headers });
  t.equal((await sync()).statusCode, 200);
  t.equal((await sync()).statusCode, 200);
  const limited = await sync();
  t.equal(limited.statusCode, 429);
  t.equal(limited.json().error.code, 'RATE_LIMIT_EXCEEDED');
  t.equal(limited.headers['x-ratelimit-remaining'], '0');
  t.ok(Number(limited.headers['retry-after']) > 0);
  await waitForDataSource(app, a.headers, ds.id);
});
