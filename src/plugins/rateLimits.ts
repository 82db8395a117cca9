import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { AppError } from '../lib/errors.js';

export type RateLimitScope = 'general' | 'auth' | 'login' | 'register' | 'refresh' | 'rag' | 'sync' | 'notificationsCount' | 'ragas';

declare module 'fastify' {
  interface FastifyInstance {
    /** Applies the global, general and scope limits of a route; throws 429 when one is exceeded. */
    applyRateLimits(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

export interface RateLimitPluginOptions {
  limits: Config['rateLimits'];
  redis?: Redis;
}

interface Outcome {
  max: number;
  remaining: number;
  ttl: number;
  isExceeded: boolean;
}

/** Client identity for counting: the user id when the access token verifies, else the IP address. */
export function rateKey(request: FastifyRequest): string {
  return request.tokenUserId ? `user:${request.tokenUserId}` : `ip:${request.ip}`;
}

/**
 * Rate limits (see docs/rate-limits.md). Every `/api/v1` route is counted against the
 * global hourly cap and the general per-minute limit, plus its own scope (route config
 * `rateLimit`), each per user id when authenticated, else per IP. Counters live in
 * process memory, or in Redis when REDIS_URL is set.
 */
export default fp<RateLimitPluginOptions>(async function rateLimitPlugin(app: FastifyInstance, opts) {
  await app.register(rateLimit, { global: false, skipOnError: true, ...(opts.redis ? { redis: opts.redis, nameSpace: 'dora-rl:' } : {}) });
  const limiters = new Map<string, (req: FastifyRequest) => Promise<Outcome>>();
  const make = (name: string, w: { max: number; windowMs: number }) => {
    const check = app.createRateLimit({
      max: w.max,
      timeWindow: w.windowMs,
      keyGenerator: (req: FastifyRequest) => `${name}:${rateKey(req)}`,
    });
    limiters.set(name, check as unknown as (req: FastifyRequest) => Promise<Outcome>);
  };
  const l = opts.limits;
  make('global', l.globalHourly);
  for (const scope of ['general', 'auth', 'login', 'register', 'refresh', 'rag', 'sync', 'notificationsCount', 'ragas'] as const) {
    make(scope, l[scope]);
  }

  app.decorate('applyRateLimits', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!l.enabled) return;
    const scope = request.routeOptions.config?.rateLimitScope;
    const names = ['global', 'general'];
    if (scope && scope !== 'general') names.push(scope);
    let tightest: Outcome | null = null;
    let exceeded: Outcome | null = null;
    for (const name of names) {
      const outcome = await limiters.get(name)!(request);
      if (!('max' in outcome) || outcome.max === undefined) continue; // store failure: skipped
      if (outcome.isExceeded && (!exceeded || outcome.ttl > exceeded.ttl)) exceeded = outcome;
      if (!tightest || outcome.remaining < tightest.remaining) tightest = outcome;
    }
    const shown = exceeded ?? tightest;
    if (!shown) return;
    const resetAt = Math.ceil((Date.now() + shown.ttl) / 1000);
    reply.header('X-RateLimit-Limit', shown.max);
    reply.header('X-RateLimit-Remaining', exceeded ? 0 : shown.remaining);
    reply.header('X-RateLimit-Reset', resetAt);
    if (exceeded) {
      reply.header('Retry-After', Math.max(1, Math.ceil(exceeded.ttl / 1000)));
      throw new AppError(429, 'RATE_LIMIT_EXCEEDED', 'Too many requests, please try again later');
    }
  });
});
