import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, okMessage } from '../../lib/envelope.js';
import { deleteAlias, getPortfolio, getVendorImpact, listAliases, mergeAliases, splitAlias } from './schemas.js';
import type { ConcentrationService } from './service.js';

/**
 * Concentration risk across the portfolio (docs/concentration.md). Authentication only, no
 * workspace: every vendor the caller can access is in the portfolio; the aliases are the
 * caller's organization's.
 */
const routes: FastifyPluginAsyncTypebox<{ service: ConcentrationService }> = async (app, { service }) => {
  app.get('/concentration', { schema: getPortfolio }, async (request) => {
    const concentration = await service.portfolio(request.auth!.id, request.query);
    return ok({ concentration });
  });
  app.get('/concentration/vendors/:workspaceId', { schema: getVendorImpact }, async (request) =>
    ok({ impact: await service.impact(request.auth!.id, request.params.workspaceId) }),
  );
  app.get('/concentration/aliases', { schema: listAliases }, async (request) => ok({ aliases: await service.aliases(request.auth!.id) }));
  app.post('/concentration/aliases/merge', { schema: mergeAliases }, async (request) =>
    ok({ overrides: await service.merge(request.auth!.id, request.body) }, 'Provider names merged'),
  );
  app.post('/concentration/aliases/split', { schema: splitAlias }, async (request) =>
    ok({ overrides: await service.split(request.auth!.id, request.body) }, 'Provider name split off'),
  );
  app.delete('/concentration/aliases', { schema: deleteAlias }, async (request) => {
    await service.removeAlias(request.auth!.id, request.query.name);
    return okMessage('Override removed');
  });
};

export default routes;
