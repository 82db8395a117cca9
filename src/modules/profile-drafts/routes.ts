import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../lib/envelope.js';
import { requestScope } from '../../plugins/workspace.js';
import { decideDraft, getDraft, listDrafts, startDraft } from './schemas.js';
import type { ProfileDraftsService } from './service.js';

/** The workspace comes from `:id` (opaque id or workspaceId); access is checked by the workspace plugin. */
const inPath = { workspaceParam: 'id' } as const;

/** Register drafting (docs/register-drafting.md): drafting and deciding need canManageSync; reading canViewSources. */
const routes: FastifyPluginAsyncTypebox<{ service: ProfileDraftsService }> = async (app, { service }) => {
  app.post('/workspaces/:id/profile-drafts', { config: { permission: 'canManageSync', ...inPath }, schema: startDraft }, async (request, reply) => {
    const draft = await service.start(requestScope(request));
    return reply.status(202).send(ok({ draft }, 'Draft queued'));
  });

  app.get('/workspaces/:id/profile-drafts', { config: { permission: 'canViewSources', ...inPath }, schema: listDrafts }, async (request) =>
    ok(await service.list(requestScope(request), request.query)),
  );

  app.get('/workspaces/:id/profile-drafts/:draftId', { config: { permission: 'canViewSources', ...inPath }, schema: getDraft }, async (request) =>
    ok({ draft: await service.get(requestScope(request), request.params.draftId) }),
  );

  app.post('/workspaces/:id/profile-drafts/:draftId/decisions', { config: { permission: 'canManageSync', ...inPath }, schema: decideDraft }, async (request) =>
    ok(await service.decide(requestScope(request), request.params.draftId, request.body.decisions, request.body.contract), 'Decisions saved'),
  );
};

export default routes;
