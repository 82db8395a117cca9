import t from 'tap';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/app.js';
import { buildTestApp, freshDatabase, registerUser, testConfig } from '../helpers/app.js';

const limits = (over: Record<string, { max: number; windowMs: number }>) => {
  const base = testConfig().rateLimits;
  return { ...base, enabled: true, ...over };
};

t.test('login limit: 429 with the contract body and headers', async (t) => {
  const ctx = await buildTestApp({ rateLimits: limits({ login: { max: 3, windowMs: 60_000 } }) });
  t.teardown(ctx.close);
  const login = () => ctx.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'x@example.com', password: 'whatever-pw' } });
  for (let i = 0; i < 3; i++) {
    const res = await login();
    t.equal(res.statusCode, 401, `attempt ${i + 1} is answered`);
    t.equal(res.headers['x-ratelimit-limit'], '3');
    t.equal(res.headers['x-ratelimit-remaining'], String(2 - i));
  }
  const blocked = await login();
  t.equal(blocked.statusCode, 429);
  t.same(blocked.json(), { status: 'error', message: 'Too many requests, please try again later', error: { code: 'RATE_LIMIT_EXCEEDED', details: [] } });
  t.equal(blocked.headers['x-ratelimit-limit'], '3');
  t.equal(blocked.headers['x-ratelimit-remaining'], '0');
  const reset = Number(blocked.headers['x-ratelimit-reset']);
  const now = Date.now() / 1000;
  t.ok(reset > now && reset <= now + 61, 'X-RateLimit-Reset is the Unix time of the reset');
  const retry = Number(blocked.headers['retry-after']);
  t.ok(retry >= 1 && retry <= 60, 'Retry-After in seconds');
  const health = await ctx.app.inject({ method: 'GET', url: '/health' });
  t.equal(health.statusCode, 200, '/health is never limited');
  t.notOk(health.headers['x-ratelimit-limit']);
});

t.test('authenticated requests are counted per user, anonymous ones per IP', async (t) => {
  const ctx = await buildTestApp({ rateLimits: limits({ general: { max: 4, windowMs: 60_000 } }) });
  t.teardown(ctx.close);
  const a = await registerUser(ctx.app);
  const b = await registerUser(ctx.app);
  const me = (headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url: '/api/v1/auth/me', headers });
  for (let i = 0; i < 4; i++) t.equal((await me(a.headers)).statusCode, 200);
  t.equal((await me(a.headers)).statusCode, 429, 'user A is limited');
  t.equal((await me(b.headers)).statusCode, 200, 'user B, same IP, has its own counter');
  // Anonymous requests from one IP share a counter (registrations above used 2 of it).
  const anon = (ip: string) => ctx.app.inject({ method: 'GET', url: '/api/v1/compliance/domains', remoteAddress: ip });
  for (let i = 0; i < 4; i++) await anon('10.0.0.9');
  t.equal((await anon('10.0.0.9')).statusCode, 429);
  t.equal((await anon('10.0.0.10')).statusCode, 401, 'another IP is not limited');
});

t.test('register has its own stricter limit', async (t) => {
  const ctx = await buildTestApp({ rateLimits: limits({ register: { max: 2, windowMs: 3_600_000 } }) });
  t.teardown(ctx.close);
  await registerUser(ctx.app);
  await registerUser(ctx.app);
  const third = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: { email: 'third@example.com', password: 'long-password', name: 'Third' } });
  t.equal(third.statusCode, 429);
  const login = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'third@example.com', password: 'long-password' } });
  t.equal(login.statusCode, 401, 'login is counted separately');
});

async function redisProbe(): Promise<Redis | null> {
  const probe = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  try {
    await probe.connect();
    await probe.ping();
    return probe;
  } catch {
    probe.disconnect();
    return null;
  }
}

const probe = await redisProbe();
t.test('with Redis, two instances share one counter', { skip: probe ? false : 'Redis is not reachable on 127.0.0.1:6379' }, async (t) => {
  if (!probe) return;
  const { database, drop } = await freshDatabase();
  const config = testConfig({ rateLimits: limits({ login: { max: 2, windowMs: 60_000 } }) });
  const redisA = probe.duplicate({ lazyConnect: false, enableOfflineQueue: true });
  const redisB = probe.duplicate({ lazyConnect: false, enableOfflineQueue: true });
  const prefix = `t${Date.now()}${Math.random().toString(36).slice(2, 6)}`;
  const one = await buildApp({ config, database, redis: redisA });
  const two = await buildApp({ config, database, redis: redisB });
  t.teardown(async () => {
    await one.close();
    await two.close();
    redisA.disconnect();
    redisB.disconnect();
    probe.disconnect();
    await drop();
  });
  const ip = `10.${Math.floor(Math.random() * 200)}.${Math.floor(Math.random() * 200)}.7`;
  const login = (app: typeof one) => app.inject({ method: 'POST', url: '/api/v1/auth/login', remoteAddress: ip, payload: { email: `${prefix}@example.com`, password: 'whatever-pw' } });
  t.equal((await login(one)).statusCode, 401);
  t.equal((await login(two)).statusCode, 401);
  t.equal((await login(one)).statusCode, 429, 'the third attempt is refused whichever instance answers');
  t.equal((await login(two)).statusCode, 429);
});
