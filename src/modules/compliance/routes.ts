import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { cachedBody, sendCached, type CachedBody } from '../../lib/cachedResponse.js';
import { ok } from '../../lib/envelope.js';
import type { ComplianceService } from './service.js';
import { listDomains, listArticles, getArticle } from './schemas.js';

/**
 * Read-only DORA reference API: authentication required, no workspace context. Each
 * response is serialised once per distinct request (by the route's own serializer) and
 * kept with its gzip copy and ETag until the reference data is reloaded.
 */

/**
 * The reference data does not change while the process runs: clients may keep a copy for
 * an hour, then revalidate with the ETag. `private`: the routes need authentication, so
 * shared caches must not keep the responses.
 */
export const REFERENCE_CACHE_CONTROL = 'private, max-age=3600';

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
  app.get(
    '/compliance/domains',
    {
      schema: listDomains,
    },
    async (request, reply) =>
      sendCached(
        request,
        reply,
        await cached(`domains|${request.query.page}|${request.query.limit}`, reply, async () => ok(await service.domainPage(request.query))),
        REFERENCE_CACHE_CONTROL,
      ),
  );

  app.get(
    '/compliance/articles',
    {
      schema: listArticles,
    },
    async (request, reply) => {
      const { domain, chapter, page, limit } = request.query;
      const body = await cached(`articles|${domain ?? ''}|${chapter ?? ''}|${page}|${limit}`, reply, async () => ok(await service.articlePage(request.query)));
      return sendCached(request, reply, body, REFERENCE_CACHE_CONTROL);
    },
  );

  app.get(
    '/compliance/articles/:article',
    {
      schema: getArticle,
    },
    async (request, reply) => {
      // Unknown articles throw (404) before anything is cached; known ones are cached by number.
      const article = await service.article(request.params.article);
      return sendCached(request, reply, await cached(`article|${article.number}`, reply, async () => ok({ article })), REFERENCE_CACHE_CONTROL);
    },
  );
};

export default routes;
