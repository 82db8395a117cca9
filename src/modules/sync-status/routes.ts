import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseSort } from '../../domain/paging.js';
import { ok } from '../../lib/envelope.js';
import { requestScope } from '../../plugins/workspace.js';
import { GetSyncStatus } from './schemas.js';
import type { SyncStatusService } from './service.js';

/**
 * `GET /sync-status`: the sync state of the workspace in `X-Workspace-Id`
 * (docs/sync-status.md). Any member who may view sources; never rate limited (the
 * contract's limit table lists it as unlimited: dashboards poll it).
 */
const routes: FastifyPluginAsyncTypebox<{ service: SyncStatusService }> = async (app, { service }) => {
  app.get('/sync-status', { config: { permission: 'canViewSources', noRateLimit: true }, schema: GetSyncStatus }, async (request) => {
    const { page, limit, sort, state } = request.query;
    return ok(await service.status(requestScope(request), { page, limit, state, ...parseSort(sort) }));
  });
};

export default routes;
