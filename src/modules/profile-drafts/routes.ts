import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../lib/envelope.js';
import { decideDraft, getDraft, listDrafts, startDraft } from './schemas.js';
import type { ProfileDraftsService } from './service.js';

/** The workspace comes from `:id` (opaque id or workspaceId); access is checked by the workspace plugin. */
const inPath = { workspaceParam: 'id' } as const;

/** Register drafting (docs/register-drafting.md): drafting and deciding need canManageSync; reading canViewSources. */
const routes: FastifyPluginAsyncTypebox<{ service: ProfileDraftsService }> = async (app, { service }) => {
  app.post('/workspaces/:id/profile-drafts', { config: { permission: 'canManageSync', ...inPath }, schema: startDraft }, async (request, reply) => {
    const draft = await service.start(request.workspace!, request.auth!.id);
    return reply.status(202).send(ok({ draft }, 'Draft queued'));
  });

  app.get('/workspaces/:id/profile-drafts', { config: { permission: 'canViewSources', ...inPath }, schema: listDrafts }, async (request) =>
    ok(await service.list(request.workspace!, request.query)));

  app.get('/workspaces/:id/profile-drafts/:draftId', { config: { permission: 'canViewSources', ...inPath }, schema: getDraft }, async (request) =>
    ok({ draft: await service.get(request.workspace!, request.params.draftId) }));

  app.post('/workspaces/:id/profile-drafts/:draftId/decisions', { config: { permission: 'canManageSync', ...inPath }, schema: decideDraft }, async (request) =>
    ok(await service.decide(request.workspace!, request.auth!.id, request.params.draftId, request.body.decisions), 'Decisions saved'));
};

export default routes;
