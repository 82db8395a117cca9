import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../lib/envelope.js';
import { requestScope } from '../../plugins/workspace.js';
import { EvaluateBody, evaluateResponses } from './schemas.js';
import type { EvaluationService } from './service.js';

/** POST /ragas/evaluate (docs/evaluation.md). */
const routes: FastifyPluginAsyncTypebox<{ service: EvaluationService }> = async (app, { service }) => {
  app.post(
    '/ragas/evaluate',
    {
      config: { rateLimitScope: 'ragas', permission: 'canQuery' },
      // A bare array of samples is accepted as `{ samples: [...] }`.
      preValidation: async (request) => {
        if (Array.isArray(request.body)) request.body = { samples: request.body } as typeof request.body;
      },
      schema: {
        operationId: 'evaluateAnswers',
        tags: ['evaluation'],
        summary: 'Evaluate answers (faithfulness, answer relevancy, context precision and recall)',
        description:
          'Body: one sample (`question`, `answer`, `contexts`, optional `groundTruth`), `samples` (an array of them; a bare array is accepted too), ' +
          'or `questions` (answered through the RAG service first, optional `groundTruths`). Scored by the external service when RAGAS_URL is set, else by the built-in metrics.',
        body: EvaluateBody,
        response: evaluateResponses,
      },
    },
    async (request) => ok(await service.evaluate(requestScope(request), request.body, { requestId: request.id })),
  );
};

export default routes;
