import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok, okMessage } from '../../lib/envelope.js';
import type { QuestionnairesService } from './service.js';
import { pageOf } from '../../domain/paging.js';
import { requestScope } from '../../plugins/workspace.js';
import {
  listTemplates,
  listQuestionnaires,
  createQuestionnaire,
  getQuestionnaire,
  updateQuestionnaire,
  deleteQuestionnaire,
  sendQuestionnaire,
  prefillQuestionnaire,
  getVendorQuestionnaire,
  saveVendorAnswers,
} from './schemas.js';

/**
 * Questionnaires (docs/questionnaires.md). Analyst routes are workspace-scoped
 * (`X-Workspace-Id`): reading needs `canQuery`, anything that changes a questionnaire
 * or contacts the vendor needs `canManageSync`. Vendor routes are public and
 * authorised by the link token alone.
 */

const writeConfig = { permission: 'canManageSync' } as const;
const readConfig = { permission: 'canQuery' } as const;

export interface QuestionnaireRoutesOptions {
  service: QuestionnairesService;
}

const routes: FastifyPluginAsyncTypebox<QuestionnaireRoutesOptions> = async (app, { service }) => {
  app.get(
    '/questionnaire-templates',
    {
      schema: listTemplates,
    },
    async (request) => {
      const { items, pagination } = pageOf(service.templates(), request.query);
      return ok({ templates: items, pagination });
    },
  );

  app.get(
    '/questionnaires',
    {
      config: readConfig,
      schema: listQuestionnaires,
    },
    async (request) => ok(await service.list(requestScope(request), request.query)),
  );

  app.post(
    '/questionnaires',
    {
      config: writeConfig,
      schema: createQuestionnaire,
    },
    async (request, reply) => {
      const body = request.body;
      const out = await service.create(requestScope(request), body);
      reply.code(201);
      return ok(out, body.send ? 'Questionnaire created and sent' : 'Questionnaire created');
    },
  );

  app.get(
    '/questionnaires/:id',
    {
      config: readConfig,
      schema: getQuestionnaire,
    },
    async (request) => ok({ questionnaire: await service.detail(requestScope(request), request.params.id) }),
  );

  app.patch(
    '/questionnaires/:id',
    {
      config: writeConfig,
      schema: updateQuestionnaire,
    },
    async (request) => ok({ questionnaire: await service.update(requestScope(request), request.params.id, request.body) }, 'Questionnaire updated'),
  );

  app.delete(
    '/questionnaires/:id',
    {
      config: writeConfig,
      schema: deleteQuestionnaire,
    },
    async (request) => {
      await service.remove(requestScope(request), request.params.id);
      return okMessage('Questionnaire deleted');
    },
  );

  app.post(
    '/questionnaires/:id/send',
    {
      config: writeConfig,
      schema: sendQuestionnaire,
    },
    async (request) => ok({ questionnaire: await service.send(requestScope(request), request.params.id) }, 'Questionnaire sent'),
  );

  app.post(
    '/questionnaires/:id/prefill',
    {
      config: writeConfig,
      schema: prefillQuestionnaire,
    },
    async (request) => ok(await service.prefill(requestScope(request), request.params.id), 'Suggestions updated'),
  );

  // Vendor side: no account; the token in the path is the only credential.
  app.get(
    '/vendor-questionnaires/:token',
    {
      config: { public: true },
      schema: getVendorQuestionnaire,
    },
    async (request) => ok({ questionnaire: await service.vendorGet(request.params.token) }),
  );

  app.put(
    '/vendor-questionnaires/:token/answers',
    {
      config: { public: true },
      schema: saveVendorAnswers,
    },
    async (request) => {
      const questionnaire = await service.vendorSave(request.params.token, request.body);
      return ok({ questionnaire }, request.body.submit ? 'Questionnaire submitted' : 'Answers saved');
    },
  );
};

export default routes;
