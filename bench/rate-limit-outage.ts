/**
 * What a Redis outage costs a rate-limited request (docs/rate-limits.md, issue 14 item 6).
 * The app (in process, PGlite in memory, rate limits on and raised so that they never
 * trip) reaches Redis (127.0.0.1:6379) through a local TCP proxy, with the client the
 * service creates (src/lib/redis.ts). 100 authenticated `GET /api/v1/auth/me` (global,
 * general limits) and 10 failed logins (login limit) one after another in each phase:
 *   up      the proxy forwards,
 *   hang    the proxy accepts and holds everything (Redis stalled, connection open),
 *   refuse  the proxy is closed (connection refused).
 * Prints median / p95 / max latency per phase, the statuses and the load average.
 *   node --import=tsx bench/rate-limit-outage.ts [--requests 100]
 */
import './lib/load.js';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { createRedis, watchRedis } from '../src/lib/redis.js';
import { freshDatabase, registerUser, testConfig } from '../test/helpers/app.js';
import { tcpProxy, type ProxyMode } from '../test/helpers/tcpProxy.js';
import { loadAverage, median, percentile } from './lib/machine.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '100' } } });
const N = Number(values.requests);

const prefix = `dora-rl-bench-${Date.now().toString(36)}:`;
const base = testConfig();
const high = { max: 1_000_000, windowMs: 3_600_000 };
const config = testConfig({
  rateLimits: {
    ...base.rateLimits,
    enabled: true,
    redisKeyPrefix: prefix,
    globalHourly: high,
    general: high,
    auth: high,
    login: { max: 5, windowMs: 3_600_000 },
  },
});
const proxy = await tcpProxy({ host: '127.0.0.1', port: 6379 });
const redis = createRedis(proxy.url('redis'), config.rateLimits.redisTimeoutMs);
const { database, drop } = await freshDatabase(process.env.DATABASE_URL);
const app = await buildApp({ config, database, redis });
watchRedis(redis, app.log);
await redis.connect();
const user = await registerUser(app);

const fmt = (x: number) => x.toFixed(1);
async function phase(mode: ProxyMode) {
  await proxy.set(mode);
  const ms: number[] = [];
  const statuses: Record<number, number> = {};
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const res = await app.inject({ method: 'GET', url: '/api/v1/auth/me', headers: user.headers });
    ms.push(performance.now() - t0);
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
  }
  // Brute-force protection: 10 failed logins from one address, limit 5.
  const ip = `10.99.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  const logins: number[] = [];
  const loginMs: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      remoteAddress: ip,
      payload: { email: 'nobody@example.com', password: 'wrong-password' },
    });
    loginMs.push(performance.now() - t0);
    logins.push(res.statusCode);
  }
  console.log(
    `${mode.padEnd(6)} GET /auth/me x${N}: median ${fmt(median(ms))} ms, p95 ${fmt(percentile(ms, 95))} ms, max ${fmt(Math.max(...ms))} ms, statuses ${JSON.stringify(statuses)}; ` +
      `10 logins: ${logins.join(' ')} (max ${fmt(Math.max(...loginMs))} ms); redis client ${redis.status}; ${loadAverage()}`,
  );
}

try {
  for (const mode of ['up', 'hang', 'refuse'] as const) await phase(mode);
} finally {
  await proxy.set('up');
  await app.close();
  redis.disconnect();
  await proxy.close();
  const cleaner = createRedis('redis://127.0.0.1:6379', 1000);
  await cleaner.connect();
  const keys = await cleaner.keys(`${prefix}*`);
  if (keys.length) await cleaner.del(...keys);
  cleaner.disconnect();
  await drop();
}
