import type { Redis } from 'ioredis';
import type { Log } from '../domain/log.js';

/**
 * Counter stores of the rate limiter (src/plugins/rateLimits.ts, docs/rate-limits.md).
 * A store takes one request against several fixed windows at once: it checks every
 * window first and counts the request in all of them or in none, so a request refused
 * by one limit never uses up the budget of another.
 */

/** One window a request is counted in. */
export interface TakeEntry {
  key: string;
  max: number;
  windowMs: number;
}

/** The state of one window after the take: `count` includes this request when it was allowed. */
export interface WindowCount {
  count: number;
  /** Milliseconds until the window resets. */
  ttlMs: number;
}

export interface TakeResult {
  allowed: boolean;
  /** In the order of the entries. */
  counts: WindowCount[];
}

export interface RateLimitStore {
  take(entries: TakeEntry[]): Promise<TakeResult>;
  close(): void;
}

/** Fixed windows in process memory; expired windows are swept every `cleanupMs`. */
export function memoryStore(opts: { cleanupMs?: number; now?: () => number } = {}): RateLimitStore & { size(): number } {
  const now = opts.now ?? Date.now;
  const windows = new Map<string, { count: number; resetAt: number }>();
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key);
  }, opts.cleanupMs ?? 60_000);
  sweep.unref();
  return {
    async take(entries) {
      const t = now();
      const current = entries.map((e) => {
        const w = windows.get(e.key);
        return w && w.resetAt > t ? w : undefined;
      });
      const allowed = entries.every((e, i) => (current[i]?.count ?? 0) < e.max);
      const counts = entries.map((e, i) => {
        let w = current[i];
        if (allowed) {
          if (!w) {
            w = { count: 0, resetAt: t + e.windowMs };
            windows.set(e.key, w);
          }
          w.count += 1;
        }
        return w ? { count: w.count, ttlMs: w.resetAt - t } : { count: 0, ttlMs: e.windowMs };
      });
      return { allowed, counts };
    },
    close() {
      clearInterval(sweep);
      windows.clear();
    },
    size: () => windows.size,
  };
}

/**
 * KEYS: the windows; ARGV: max and window (ms) of each, in order. Reads every counter,
 * then increments all of them (setting the expiry of new ones) only if none is full.
 * Returns { allowed (0/1), count1, ttl1, count2, ttl2, ... }. One script, so the check
 * and the count are atomic; the keys of one request share a hash tag (same cluster slot).
 */
export const TAKE_SCRIPT = `
local n = #KEYS
local counts, ttls, fresh = {}, {}, {}
local allowed = 1
for i = 1, n do
  local max = tonumber(ARGV[2 * i - 1])
  local window = tonumber(ARGV[2 * i])
  local count = tonumber(redis.call('GET', KEYS[i]) or '0')
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then
    fresh[i] = true
    if ttl == -2 then count = 0 end
    ttl = window
  end
  counts[i], ttls[i] = count, ttl
  if count + 1 > max then allowed = 0 end
end
if allowed == 1 then
  for i = 1, n do
    counts[i] = redis.call('INCR', KEYS[i])
    if fresh[i] then redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2 * i])) end
  end
end
local out = { allowed }
for i = 1, n do
  out[2 * i] = counts[i]
  out[2 * i + 1] = ttls[i]
end
return out
`;

type TakeCommand = (numKeys: number, ...args: (string | number)[]) => Promise<number[]>;

/** Fixed windows in Redis, shared by every instance: one round trip per request (TAKE_SCRIPT). */
export function redisStore(redis: Redis): RateLimitStore {
  redis.defineCommand('doraRateLimitTake', { lua: TAKE_SCRIPT });
  const command = (redis as unknown as { doraRateLimitTake: TakeCommand }).doraRateLimitTake.bind(redis);
  return {
    async take(entries) {
      const args = entries.flatMap((e) => [e.max, e.windowMs]);
      const out = await command(entries.length, ...entries.map((e) => e.key), ...args);
      return {
        allowed: out[0] === 1,
        counts: entries.map((_, i) => ({ count: Number(out[2 * i + 1]), ttlMs: Number(out[2 * i + 2]) })),
      };
    },
    close() {},
  };
}

class StoreTimeout extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  promise.catch(() => {}); // a late failure after the timeout is not unhandled
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreTimeout(ms)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * Redis with a local fallback: a call that fails or is not answered within `timeoutMs`
 * is counted in `fallback` (process memory) instead, and for `retryMs` every request
 * goes to the fallback without trying Redis; then one request tries Redis again while
 * the others keep to the fallback. The outage is logged once, and the recovery once.
 * Brute-force limits stay on during an outage, per instance.
 */
export function resilientStore(opts: {
  primary: RateLimitStore;
  fallback: RateLimitStore;
  timeoutMs: number;
  retryMs: number;
  log: Log;
  now?: () => number;
}): RateLimitStore & { usingFallback(): boolean } {
  const now = opts.now ?? Date.now;
  let down = false;
  let retryAt = 0;
  let probing = false;
  return {
    async take(entries) {
      if (down && (probing || now() < retryAt)) return opts.fallback.take(entries);
      const probe = down;
      if (probe) probing = true;
      try {
        const result = await withTimeout(opts.primary.take(entries), opts.timeoutMs);
        if (down) {
          down = false;
          opts.log.info?.({}, 'Redis answers again: rate limits are counted in Redis again');
        }
        return result;
      } catch (err) {
        if (!down) {
          opts.log.warn(
            { reason: err instanceof Error ? err.message : String(err), retryMs: opts.retryMs },
            'Redis does not answer: rate limits are counted in this process until it does',
          );
        }
        down = true;
        retryAt = now() + opts.retryMs;
        return opts.fallback.take(entries);
      } finally {
        if (probe) probing = false;
      }
    },
    close() {
      opts.fallback.close();
      opts.primary.close();
    },
    usingFallback: () => down,
  };
}
