import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { AppError } from '../lib/errors.js';
import { memoryStore, redisStore, resilientStore, type RateLimitStore, type TakeEntry } from '../lib/rateLimitStores.js';

/** Every limit of the configuration; a key of `Config['rateLimits']` holding a window. */
export const RATE_LIMIT_NAMES = [
  'globalHourly',
  'general',
  'auth',
  'login',
  'register',
  'refresh',
  'rag',
  'sync',
  'notificationsCount',
  'ragas',
  'ragQuery',
  'ragStream',
  'ragBurst',
] as const;
export type RateLimitName = (typeof RATE_LIMIT_NAMES)[number];
/** A limit a route can name in its config (the global and general limits cover every route). */
export type RateLimitScope = Exclude<RateLimitName, 'globalHourly'>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Takes the request against every limit that covers it; throws 429 when one is full. */
    applyRateLimits(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

export interface RateLimitPluginOptions {
  limits: Config['rateLimits'];
  redis?: Redis;
}

/** Client identity for counting: the API key, the user id when the access token verifies, else the IP address. */
export function rateKey(request: FastifyRequest): string {
  // An API key has limits of its own, apart from its creator's.
  if (request.apiKey) return `key:${request.apiKey.id}`;
  if (request.tokenUserId) return `user:${request.tokenUserId}`;
  return `ip:${request.ip || request.socket?.remoteAddress || 'unknown'}`;
}

/** The limits that cover a route: global hourly, general, the route's scope and its extra limits. */
export function limitsOf(config: { rateLimitScope?: RateLimitScope; rateLimitExtra?: readonly RateLimitScope[] } | undefined): RateLimitName[] {
  const names = new Set<RateLimitName>(['globalHourly', 'general']);
  if (config?.rateLimitScope) names.add(config.rateLimitScope);
  for (const name of config?.rateLimitExtra ?? []) names.add(name);
  return [...names];
}

/**
 * Rate limits (docs/rate-limits.md). A request is taken against every limit that covers
 * it at once, per user id when its access token verifies, else per IP (with the
 * anonymous maximum where a limit has one): all are checked, then the request is
 * counted in all or, when one is full, in none. Counters live in process memory, or
 * in Redis when a client is given, with a local fallback while Redis does not answer.
 * The headers show the most constraining limit.
 */
export default fp<RateLimitPluginOptions>(
  async function rateLimitPlugin(app: FastifyInstance, opts) {
    const l = opts.limits;
    // A configuration built by hand (not through loadConfig) is checked here: a missing
    // figure would otherwise end up as `undefined` in a key or a maximum that never trips.
    for (const name of RATE_LIMIT_NAMES) {
      const w = l[name];
      if (!w || !Number.isInteger(w.max) || w.max < 1 || !Number.isInteger(w.windowMs) || w.windowMs < 1)
        throw new Error(`Rate limit ${name} needs an integer max and windowMs`);
    }
    if (typeof l.redisKeyPrefix !== 'string' || !l.redisKeyPrefix || /[{}\s]/.test(l.redisKeyPrefix))
      throw new Error('Rate limits need a key prefix without braces or spaces');
    const store: RateLimitStore = opts.redis
      ? resilientStore({
          primary: redisStore(opts.redis),
          fallback: memoryStore(),
          timeoutMs: l.redisTimeoutMs,
          retryMs: l.redisRetryMs,
          log: app.log,
        })
      : memoryStore();
    app.addHook('onClose', async () => store.close());

    app.decorate('applyRateLimits', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!l.enabled) return;
      const names = limitsOf(request.routeOptions.config);
      const who = rateKey(request);
      const anonymous = !request.tokenUserId;
      const entries: TakeEntry[] = names.map((name) => {
        const w = l[name];
        return { key: `${l.redisKeyPrefix}{${who}}:${name}`, max: anonymous && w.anonymousMax !== undefined ? w.anonymousMax : w.max, windowMs: w.windowMs };
      });
      const { allowed, counts } = await store.take(entries);

      // Shown: on refusal the full limit with the longest wait; otherwise the one with the
      // fewest requests left (the later reset on a tie).
      let shown = -1;
      for (let i = 0; i < entries.length; i++) {
        const left = entries[i].max - counts[i].count;
        if (!allowed) {
          if (left > 0) continue;
          if (shown < 0 || counts[i].ttlMs > counts[shown].ttlMs) shown = i;
        } else {
          const best = shown < 0 ? Infinity : entries[shown].max - counts[shown].count;
          if (left < best || (left === best && counts[i].ttlMs > counts[shown].ttlMs)) shown = i;
        }
      }
      if (shown < 0) shown = 0;
      const limit = entries[shown];
      const { count, ttlMs } = counts[shown];
      reply.header('X-RateLimit-Limit', limit.max);
      reply.header('X-RateLimit-Remaining', allowed ? Math.max(0, limit.max - count) : 0);
      reply.header('X-RateLimit-Reset', Math.ceil((Date.now() + ttlMs) / 1000));
      if (!allowed) {
        reply.header('Retry-After', Math.max(1, Math.ceil(ttlMs / 1000)));
        throw new AppError(429, 'RATE_LIMIT_EXCEEDED', 'Too many requests, please try again later');
      }
    });
  },
  { name: 'rate-limits', dependencies: ['auth'] },
);
