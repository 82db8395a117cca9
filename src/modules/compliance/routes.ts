import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DORA_CHAPTERS, DORA_DOMAINS } from '../../compliance/dora.js';
import { Envelope, errorResponses, ok } from '../../lib/envelope.js';
import type { ComplianceService } from './service.js';

const ArticleSummary = Type.Object({
  regulation: Type.String(),
  article: Type.String(),
  title: Type.String(),
  domain: Type.String(),
  chapter: Type.String(),
  obligations: Type.Array(Type.String()),
});
const ArticleFull = Type.Object({ ...ArticleSummary.properties, number: Type.Number(), text: Type.String() });

/** Read-only DORA reference API: authentication required, no workspace context. */
const routes: FastifyPluginAsyncTypebox<{ service: ComplianceService }> = async (app, { service }) => {
  app.get('/compliance/domains', {
    schema: {
      tags: ['compliance'],
      summary: 'The 7 DORA domains with their articles',
      response: {
        200: Envelope(Type.Object({
          total: Type.Number(),
          domains: Type.Array(Type.Object({ domain: Type.String(), chapter: Type.String(), articleCount: Type.Number(), articles: Type.Array(Type.String()) })),
        })),
        ...errorResponses,
      },
    },
  }, async () => ok(await service.domains()));

  app.get('/compliance/articles', {
    schema: {
      tags: ['compliance'],
      summary: 'DORA articles (without text), filtered by domain and/or chapter',
      querystring: Type.Object({
        domain: Type.Optional(Type.Enum(DORA_DOMAINS.map((d) => d.domain))),
        chapter: Type.Optional(Type.Enum([...DORA_CHAPTERS])),
      }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ total: Type.Number(), articles: Type.Array(ArticleSummary) })), ...errorResponses },
    },
  }, async (request) => ok(await service.articles(request.query)));

  app.get('/compliance/articles/:article', {
    schema: {
      tags: ['compliance'],
      summary: 'One DORA article with its full text (`Article%2028` or `Article-28`)',
      params: Type.Object({ article: Type.String({ minLength: 1, maxLength: 100 }) }),
      response: { 200: Envelope(Type.Object({ article: ArticleFull })), ...errorResponses },
    },
  }, async (request) => ok({ article: await service.article(request.params.article) }));
};

export default routes;
