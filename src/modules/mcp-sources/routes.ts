import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../lib/envelope.js';
import { requestScope } from '../../plugins/workspace.js';
import type { McpSortField } from './repository.js';
import {
  CreateMcpSource,
  DeleteMcpSource,
  GetMcpSource,
  GetMcpSyncRun,
  ListMcpSources,
  McpSourceStats,
  SyncMcpSource,
  TestMcpConnection,
  UpdateMcpSource,
} from './schemas.js';
import type { McpSourcesService } from './service.js';

/**
 * The /mcp-sources group (docs/mcp-sources.md). Reading needs `canViewSources`;
 * registering, testing, changing, deleting and syncing need `canManageSync`; a manual
 * sync is also limited by the `sync` rate limit.
 */
const routes: FastifyPluginAsyncTypebox<{ service: McpSourcesService }> = async (app, { service }) => {
  app.post('/mcp-sources', { config: { permission: 'canManageSync' }, schema: CreateMcpSource }, async (request, reply) => {
    const { source, sync } = await service.create(requestScope(request), request.body);
    return reply.status(201).send(ok({ mcpSource: source, sync }, sync ? 'MCP source created; sync queued' : 'MCP source created'));
  });

  app.get('/mcp-sources', { config: { permission: 'canViewSources' }, schema: ListMcpSources }, async (request) => {
    const { page, limit, sort } = request.query;
    return ok(await service.list(requestScope(request), { page, limit, sort: sort.replace(/^-/, '') as McpSortField, descending: sort.startsWith('-') }));
  });

  // Registered before /mcp-sources/:id so that the static path wins (it also would by Fastify's router).
  app.post('/mcp-sources/test-connection', { config: { permission: 'canManageSync' }, schema: TestMcpConnection }, async (request) => {
    const connection = await service.testConnection(request.body);
    return ok({ connection }, connection.ok ? 'Connection succeeded' : 'Connection failed');
  });

  app.get('/mcp-sources/:id', { config: { permission: 'canViewSources' }, schema: GetMcpSource }, async (request) =>
    ok({ mcpSource: await service.get(requestScope(request), request.params.id) }),
  );

  app.patch('/mcp-sources/:id', { config: { permission: 'canManageSync' }, schema: UpdateMcpSource }, async (request) =>
    ok({ mcpSource: await service.update(requestScope(request), request.params.id, request.body) }, 'MCP source updated'),
  );

  app.delete('/mcp-sources/:id', { config: { permission: 'canManageSync' }, schema: DeleteMcpSource }, async (request) =>
    ok(await service.remove(requestScope(request), request.params.id), 'MCP source deleted'),
  );

  app.post('/mcp-sources/:id/sync', { config: { permission: 'canManageSync', rateLimitScope: 'sync' }, schema: SyncMcpSource }, async (request) => {
    const { sync, created } = await service.requestSync(requestScope(request), request.params.id);
    return ok({ sync }, created ? 'Sync started' : 'A sync of this source is already queued');
  });

  app.get('/mcp-sources/:id/syncs/:syncId', { config: { permission: 'canViewSources' }, schema: GetMcpSyncRun }, async (request) =>
    ok({ sync: await service.syncRun(requestScope(request), request.params.id, request.params.syncId) }),
  );

  app.get('/mcp-sources/:id/stats', { config: { permission: 'canViewSources' }, schema: McpSourceStats }, async (request) =>
    ok({ stats: await service.stats(requestScope(request), request.params.id) }),
  );
};

export default routes;
