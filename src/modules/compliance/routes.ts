import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { DORA_CHAPTERS, DORA_DOMAINS } from '../../compliance/dora.js';
import { cachedBody, sendCached, type CachedBody } from '../../lib/cachedResponse.js';
import { Envelope, errorResponses, ok } from '../../lib/envelope.js';
import type { ComplianceService } from './service.js';
import { pageQuery, PaginationSchema } from '../../domain/paging.js';

const ArticleSummary = Type.Object({
  regulation: Type.String(),
  article: Type.String(),
  title: Type.String(),
  domain: Type.String(),
  chapter: Type.String(),
  obligations: Type.Array(Type.String()),
});
const ArticleFull = Type.Object({ ...ArticleSummary.properties, number: Type.Number(), text: Type.String() });

/** Reference lists page like every list, with a default page that holds the whole set (45 articles). */
const REFERENCE_PAGE = pageQuery({ defaultLimit: 50 });

/**
 * The reference data does not change while the process runs: clients may keep a copy for
 * an hour, then revalidate with the ETag. `private`: the routes need authentication, so
 * shared caches must not keep the responses.
 */
export const REFERENCE_CACHE_CONTROL = 'private, max-age=3600';

/**
 * Read-only DORA reference API: authentication required, no workspace context. Each
 * response is serialised once per distinct request (by the route's own serializer) and
 * kept with its gzip copy and ETag until the reference data is reloaded.
 */
const routes: FastifyPluginAsyncTypebox<{ service: ComplianceService }> = async (app, { service }) => {
  const bodies = new Map<string, CachedBody>();
  let version = service.version();
  const cached = async (key: string, reply: FastifyReply, build: () => Promise<unknown>): Promise<CachedBody> => {
    if (version !== service.version()) {
      bodies.clear();
      version = service.version();
    }
    let body = bodies.get(key);
    if (!body) {
      const at = service.version();
      body = cachedBody(reply.serialize(await build()) as string);
      if (at === service.version() && bodies.size < 256) bodies.set(key, body);
    }
    return body;
  };
  app.get('/compliance/domains', {
    schema: {
      tags: ['compliance'],
      summary: 'The 7 DORA domains with their articles',
      querystring: Type.Object(REFERENCE_PAGE, { additionalProperties: false }),
      response: {
        200: Envelope(Type.Object({
          total: Type.Number(),
          pagination: PaginationSchema,
          domains: Type.Array(Type.Object({ domain: Type.String(), chapter: Type.String(), articleCount: Type.Number(), articles: Type.Array(Type.String()) })),
        })),
        ...errorResponses,
      },
    },
  }, async (request, reply) => sendCached(request, reply, await cached(`domains|${request.query.page}|${request.query.limit}`, reply, async () => ok(await service.domainPage(request.query))), REFERENCE_CACHE_CONTROL));

  app.get('/compliance/articles', {
    schema: {
      tags: ['compliance'],
      summary: 'DORA articles (without text), filtered by domain and/or chapter',
      querystring: Type.Object({
        domain: Type.Optional(Type.Enum(DORA_DOMAINS.map((d) => d.domain))),
        chapter: Type.Optional(Type.Enum([...DORA_CHAPTERS])),
        ...REFERENCE_PAGE,
      }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ total: Type.Number(), articles: Type.Array(ArticleSummary), pagination: PaginationSchema })), ...errorResponses },
    },
  }, async (request, reply) => {
    const { domain, chapter, page, limit } = request.query;
    const body = await cached(`articles|${domain ?? ''}|${chapter ?? ''}|${page}|${limit}`, reply, async () => ok(await service.articlePage(request.query)));
    return sendCached(request, reply, body, REFERENCE_CACHE_CONTROL);
  });

  app.get('/compliance/articles/:article', {
    schema: {
      tags: ['compliance'],
      summary: 'One DORA article with its full text (`Article%2028` or `Article-28`)',
      params: Type.Object({ article: Type.String({ minLength: 1, maxLength: 100 }) }),
      response: { 200: Envelope(Type.Object({ article: ArticleFull })), ...errorResponses },
    },
  }, async (request, reply) => {
    // Unknown articles throw (404) before anything is cached; known ones are cached by number.
    const article = await service.article(request.params.article);
    return sendCached(request, reply, await cached(`article|${article.number}`, reply, async () => ok({ article })), REFERENCE_CACHE_CONTROL);
  });
};

export default routes;
