import Fastify from 'fastify';
import t from 'tap';
import authPlugin from '../../src/plugins/auth.js';
import csrfPlugin from '../../src/plugins/csrf.js';
import rateLimitPlugin from '../../src/plugins/rateLimits.js';
import routeGuards from '../../src/plugins/routeGuards.js';
import workspacePlugin from '../../src/plugins/workspace.js';
import { loadConfig } from '../../src/config.js';
import type { WorkspacesService } from '../../src/modules/workspaces/service.js';

// The request path is assembled from named plugins that declare what they need
// (src/app.ts): a plugin left out, or registered in the wrong order, must stop
// the process at start-up, not answer the first request with a 500.

const service = { resolveAccess: async () => 'not_found' } as unknown as WorkspacesService;
const authOpts = { secret: 'x'.repeat(48), accessTokenTtlSec: 900, loadUser: async () => null };
const limits = loadConfig({}).rateLimits;

t.test('the workspace plugin refuses to start without auth and the route guards', async (t) => {
  const app = Fastify();
  app.register(workspacePlugin, { service });
  await t.rejects(async () => app.ready(), /dependency 'auth'/);
  await app.close().catch(() => {});
});

t.test('the route guards refuse to start without the rate limits', async (t) => {
  const app = Fastify();
  app.register(authPlugin, authOpts);
  app.register(csrfPlugin, { trustedOrigins: [] });
  app.register(routeGuards);
  await t.rejects(async () => app.ready(), /dependency 'rate-limits'/);
  await app.close().catch(() => {});
});

t.test('a workspace route registered without the workspace plugin fails at start-up', async (t) => {
  const app = Fastify();
  app.register(authPlugin, authOpts);
  app.register(csrfPlugin, { trustedOrigins: [] });
  app.register(rateLimitPlugin, { limits });
  app.register(routeGuards);
  app.register(async (api) => {
    api.get('/api/v1/things', { config: { workspace: true } }, async () => ({ ok: true }));
  });
  await t.rejects(async () => app.ready(), /needs the workspace plugin/);
  await app.close().catch(() => {});
});

t.test('in order, the same plugins start and a workspace route is guarded', async (t) => {
  const app = Fastify();
  app.register(authPlugin, authOpts);
  app.register(csrfPlugin, { trustedOrigins: [] });
  app.register(rateLimitPlugin, { limits });
  app.register(routeGuards);
  app.register(workspacePlugin, { service });
  app.register(async (api) => {
    api.get('/api/v1/things', { config: { workspace: true } }, async () => ({ ok: true }));
  });
  await app.ready();
  t.teardown(() => app.close());
  const res = await app.inject({ method: 'GET', url: '/api/v1/things' });
  t.equal(res.statusCode >= 400 && res.statusCode < 500, true, `unauthenticated: ${res.statusCode}`);
});
