import { Redis } from 'ioredis';
import type { Log } from '../domain/log.js';

/**
 * The Redis client of the rate limiter (docs/rate-limits.md). Commands fail at once
 * while the connection is down (no offline queue, no retries per request) and within
 * `timeoutMs` when Redis hangs, so a Redis outage costs milliseconds per request; the
 * connection is re-established in the background. Not connected until `connect()`, so
 * the error listener (watchRedis) is in place first.
 */
export function createRedis(url: string, timeoutMs: number): Redis {
  return new Redis(url, {
    lazyConnect: true,
    connectTimeout: Math.max(1000, 5 * timeoutMs),
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: (attempt) => Math.min(100 * attempt, 2000),
  });
}

/**
 * Logs connection errors once per outage (ioredis emits one per reconnection attempt)
 * and the reconnection once; without a listener an `error` event is unhandled.
 */
export function watchRedis(redis: Redis, log: Log): void {
  let failing = false;
  redis.on('error', (err: Error) => {
    if (failing) return;
    failing = true;
    log.warn({ reason: err.message }, 'Redis connection failed; reconnecting in the background');
  });
  redis.on('ready', () => {
    if (!failing) return;
    failing = false;
    log.info?.({}, 'Redis connection ready');
  });
}
