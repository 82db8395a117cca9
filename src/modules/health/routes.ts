import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Envelope } from '../../lib/envelope.js';

const started = Date.now();

/** GET /health (outside the /api/v1 prefix, not rate limited, no authentication). */
const routes: FastifyPluginAsyncTypebox<{ ping(): Promise<void> }> = async (app, opts) => {
  app.get('/health', {
    config: { public: true },
    schema: {
      tags: ['health'],
      summary: 'Liveness and database reachability',
      response: {
        200: Envelope(Type.Object({ status: Type.Literal('up'), timestamp: Type.String(), uptime: Type.Number(), database: Type.String() })),
        503: Type.Object({ status: Type.Literal('error'), message: Type.String(), error: Type.Object({ code: Type.String(), details: Type.Array(Type.String()) }) }),
      },
    },
  }, async (_request, reply) => {
    try {
      await opts.ping();
    } catch (err) {
      return reply.status(503).send({ status: 'error', message: 'Service is unhealthy: database unreachable', error: { code: 'DATABASE_UNAVAILABLE', details: [String((err as Error).message)] } });
    }
    return {
      status: 'success' as const,
      message: 'Service is healthy',
      data: { status: 'up' as const, timestamp: new Date().toISOString(), uptime: (Date.now() - started) / 1000, database: 'up' },
    };
  });
};

export default routes;
