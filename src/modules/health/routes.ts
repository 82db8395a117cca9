import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { health } from './schemas.js';

const started = Date.now();

/** GET /health (outside the /api/v1 prefix, not rate limited, no authentication). */
const routes: FastifyPluginAsyncTypebox<{
  ping(): Promise<void>;
  queryLog?: () => { pending: number; written: number; dropped: number; retries: number };
}> = async (app, opts) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: health,
    },
    async (_request, reply) => {
      try {
        await opts.ping();
      } catch (err) {
        return reply.status(503).send({
          status: 'error',
          message: 'Service is unhealthy: database unreachable',
          error: { code: 'DATABASE_UNAVAILABLE', details: [String((err as Error).message)] },
        });
      }
      return {
        status: 'success' as const,
        message: 'Service is healthy',
        data: {
          status: 'up' as const,
          timestamp: new Date().toISOString(),
          uptime: (Date.now() - started) / 1000,
          database: 'up',
          ...(opts.queryLog ? { queryLog: opts.queryLog() } : {}),
        },
      };
    },
  );
};

export default routes;
