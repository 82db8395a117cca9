import t, { type Test } from 'tap';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createRedis, watchRedis } from '../../src/lib/redis.js';
import { buildTestApp, freshDatabase, registerUser, testConfig } from '../helpers/app.js';
import { tcpProxy } from '../helpers/tcpProxy.js';
import { createOrgAndWorkspace } from '../helpers/workspaces.js';

type Limits = Config['rateLimits'];
type Window = Limits['general'];

const limits = (over: Partial<Record<keyof Limits, Window | number | string>>): Limits => {
  const base = testConfig().rateLimits;
  return { ...base, enabled: true, ...over } as Limits;
};
const extractive = { rag: { ...testConfig().rag, generator: 'extractive' as const } };
const API = '/api/v1';
const QUESTION = { question: 'What must a register of information contain?' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const randomIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

t.test('the second RAG table and the Redis fallback are configured with the contract figures, each overridable', async (t) => {
  const d = loadConfig({}).rateLimits;
  t.same(d.ragQuery, { max: 100, anonymousMax: 20, windowMs: 3_600_000 });
  t.same(d.ragStream, { max: 50, anonymousMax: 10, windowMs: 3_600_000 });
  t.same(d.ragBurst, { max: 5, windowMs: 10_000 });
  t.same([d.redisTimeoutMs, d.redisRetryMs, d.redisKeyPrefix], [200, 5000, 'dora-rl:']);
  const o = loadConfig({
    RATE_LIMIT_RAG_QUERY_ANON_MAX: '7',
    RATE_LIMIT_RAG_BURST_MAX: '9',
    RATE_LIMIT_REDIS_TIMEOUT_MS: '50',
    RATE_LIMIT_REDIS_RETRY_MS: '1000',
  }).rateLimits;
  t.same([o.ragQuery.anonymousMax, o.ragQuery.max, o.ragBurst.max, o.redisTimeoutMs, o.redisRetryMs], [7, 100, 9, 50, 1000]);
  t.throws(() => loadConfig({ RATE_LIMIT_REDIS_PREFIX: 'a{b}' }), /redisKeyPrefix/, 'a prefix with braces would break the hash tag');
});

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
  const third = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/auth/register',
    payload: { email: 'third@example.com', password: 'long-password', name: 'Third' },
  });
  t.equal(third.statusCode, 429);
  const login = await ctx.app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email: 'third@example.com', password: 'long-password' } });
  t.equal(login.statusCode, 401, 'login is counted separately');
});

t.test('POST /rag/query is POST /rag: same answer, same hourly budget', async (t) => {
  const ctx = await buildTestApp({ ...extractive, rateLimits: limits({ ragQuery: { max: 5, anonymousMax: 1, windowMs: 3_600_000 } }) });
  t.teardown(ctx.close);
  const u = await registerUser(ctx.app);
  const ws = await createOrgAndWorkspace(ctx.app, u);
  const ask = (url: string) => ctx.app.inject({ method: 'POST', url: `${API}${url}`, headers: ws.headers, payload: QUESTION });
  const bad = (url: string) => ctx.app.inject({ method: 'POST', url: `${API}${url}`, headers: ws.headers, payload: { question: ' ', extra: 1 } });
  const badQuery = await bad('/rag/query');
  t.equal(badQuery.statusCode, 400);
  t.same(badQuery.json(), (await bad('/rag')).json(), 'the same validation');
  const viaRag = await ask('/rag');
  const viaQuery = await ask('/rag/query');
  t.equal(viaQuery.statusCode, 200, viaQuery.body);
  t.same(Object.keys(viaQuery.json().data).sort(), Object.keys(viaRag.json().data).sort(), 'the same answer shape');
  t.equal(viaQuery.json().data.answer, viaRag.json().data.answer, 'the same answer to the same question');
  t.equal(viaQuery.headers['x-ratelimit-limit'], '5', 'the hourly RAG limit is the tightest');
  t.equal(viaQuery.headers['x-ratelimit-remaining'], '1', 'POST /rag and POST /rag/query share one budget');
  t.equal((await ask('/rag/query')).statusCode, 200);
  const refused = await ask('/rag/query');
  t.equal(refused.statusCode, 429);
  t.equal(refused.json().message, 'Too many requests, please try again later');
  t.equal(refused.headers['x-ratelimit-limit'], '5');
  t.equal((await ask('/rag')).statusCode, 429, 'and POST /rag is refused with it');
  const conv = await ctx.app.inject({ method: 'POST', url: `${API}/conversations`, headers: ws.headers, payload: {} });
  const convAsk = await ctx.app.inject({
    method: 'POST',
    url: `${API}/conversations/${conv.json().data.conversation.id}/ask`,
    headers: ws.headers,
    payload: QUESTION,
  });
  t.equal(convAsk.statusCode, 200, 'POST /conversations/:id/ask is not under the /rag/* limits');
  const doc = (await ctx.app.inject({ method: 'GET', url: '/docs/json' })).json();
  t.ok(doc.paths['/api/v1/rag/query'].post.requestBody, 'documented in OpenAPI');
  t.ok(doc.paths['/api/v1/rag/query'].post.responses['200']);
});

t.test('a request refused by one limit uses no budget of another', async (t) => {
  // Anonymous requests (401 after the limits) are fast, so the 1-second burst window holds them.
  const ctx = await buildTestApp({
    rateLimits: limits({ ragQuery: { max: 50, anonymousMax: 2, windowMs: 3_600_000 }, ragBurst: { max: 3, windowMs: 1000 } }),
  });
  t.teardown(ctx.close);
  const ip = randomIp();
  const post = (url: string) => ctx.app.inject({ method: 'POST', url: `${API}${url}`, remoteAddress: ip, payload: QUESTION });
  const codes = async (urls: string[]) => {
    const out: number[] = [];
    for (const url of urls) out.push((await post(url)).statusCode);
    return out;
  };
  t.same(await codes(['/rag/stream', '/rag/stream', '/rag/stream']), [401, 401, 401], 'the burst window is full');
  const burst = await post('/rag');
  t.equal(burst.statusCode, 429, 'refused by the burst limit');
  t.equal(burst.headers['x-ratelimit-limit'], '3', 'the headers name the burst limit');
  t.equal(burst.headers['x-ratelimit-remaining'], '0');
  t.equal(burst.headers['retry-after'], '1', 'Retry-After: the end of the burst window');
  t.equal((await post('/rag/query')).statusCode, 429);

  await sleep(1100);
  const first = await post('/rag');
  t.equal(first.statusCode, 401, 'the two refused requests did not use the hourly budget (2)');
  const second = await post('/rag/query');
  t.equal(second.statusCode, 401);
  t.equal(second.headers['x-ratelimit-limit'], '2', 'the hourly limit is now the tightest');
  t.equal(second.headers['x-ratelimit-remaining'], '0');
  const hourly = await post('/rag');
  t.equal(hourly.statusCode, 429, 'refused by the hourly limit');
  t.equal(hourly.headers['x-ratelimit-limit'], '2', 'the headers name the hourly limit');
  t.ok(Number(hourly.headers['retry-after']) > 3000, 'Retry-After: the end of the hour window');
  // The burst window holds two requests: the refused one was not counted in it.
  t.same(await codes(['/rag/stream', '/rag/stream']), [401, 429], 'the request refused by the hourly limit used no burst budget');
});

t.test('requests without a verified user get the anonymous maxima, per IP', async (t) => {
  const ctx = await buildTestApp({
    ...extractive,
    rateLimits: limits({ ragQuery: { max: 3, anonymousMax: 1, windowMs: 3_600_000 }, ragStream: { max: 3, anonymousMax: 2, windowMs: 3_600_000 } }),
  });
  t.teardown(ctx.close);
  const ip = randomIp();
  const anon = (url: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'POST', url: `${API}${url}`, remoteAddress: ip, headers, payload: QUESTION });
  const first = await anon('/rag/query');
  t.equal(first.statusCode, 401);
  t.equal(first.headers['x-ratelimit-limit'], '1', 'anonymous maximum of /rag and /rag/query');
  t.equal(first.headers['x-ratelimit-remaining'], '0');
  t.equal((await anon('/rag')).statusCode, 429);
  t.equal((await anon('/rag/query', { authorization: 'Bearer not-a-token' })).statusCode, 429, 'a token that does not verify is anonymous');
  const s1 = await anon('/rag/stream');
  t.equal(s1.statusCode, 401);
  t.equal(s1.headers['x-ratelimit-limit'], '2', 'anonymous maximum of /rag/stream');
  t.equal((await anon('/rag/stream')).statusCode, 401);
  t.equal((await anon('/rag/stream')).statusCode, 429);
  // An authenticated user from the same IP has the authenticated maxima.
  const u = await registerUser(ctx.app);
  const ws = await createOrgAndWorkspace(ctx.app, u);
  const codes: number[] = [];
  for (let i = 0; i < 4; i++) {
    codes.push((await ctx.app.inject({ method: 'POST', url: `${API}/rag/query`, remoteAddress: ip, headers: ws.headers, payload: QUESTION })).statusCode);
  }
  t.same(codes, [200, 200, 200, 429], 'authenticated maximum 3, counted per user');
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
const noRedis = probe ? false : 'Redis is not reachable on 127.0.0.1:6379';
t.teardown(() => probe?.disconnect());

/** A key prefix of this test only; its keys are deleted afterwards. */
function testPrefix(t: Test): string {
  const prefix = `dora-rl-test-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}:`;
  t.teardown(async () => {
    const keys = await probe!.keys(`${prefix}*`);
    if (keys.length) await probe!.del(...keys);
  });
  return prefix;
}

async function redisApps(t: Test, rateLimits: Limits, clients: Redis[], logLines?: string[]) {
  const { database, drop } = await freshDatabase();
  const config = testConfig({ ...extractive, rateLimits, logLevel: logLines ? 'info' : 'silent' });
  const apps: FastifyInstance[] = [];
  for (const redis of clients) {
    apps.push(await buildApp({ config, database, redis, ...(logLines ? { logStream: { write: (line: string) => void logLines.push(line) } } : {}) }));
  }
  await apps[0].services.compliance.loadReferenceData();
  t.teardown(async () => {
    for (const app of apps) await app.close();
    for (const redis of clients) redis.disconnect();
    await drop();
  });
  return apps;
}

t.test('with Redis, two instances share every budget, and refused requests count nowhere', { skip: noRedis }, async (t) => {
  const prefix = testPrefix(t);
  const rateLimits = limits({
    redisKeyPrefix: prefix,
    login: { max: 2, windowMs: 60_000 },
    ragQuery: { max: 3, windowMs: 3_600_000 },
    ragBurst: { max: 3, windowMs: 60_000 },
  });
  const [one, two] = await redisApps(t, rateLimits, [probe!.duplicate({ enableOfflineQueue: true }), probe!.duplicate({ enableOfflineQueue: true })]);

  const ip = randomIp();
  const login = (app: FastifyInstance) =>
    app.inject({ method: 'POST', url: `${API}/auth/login`, remoteAddress: ip, payload: { email: `${Date.now()}@example.com`, password: 'whatever-pw' } });
  t.equal((await login(one)).statusCode, 401);
  t.equal((await login(two)).statusCode, 401);
  t.equal((await login(one)).statusCode, 429, 'the third attempt is refused whichever instance answers');
  t.equal((await login(two)).statusCode, 429);

  const u = await registerUser(one);
  const ws = await createOrgAndWorkspace(two, u);
  const count = async (name: string) => Number((await probe!.get(`${prefix}{user:${u.id}}:${name}`)) ?? 0);
  const generalBefore = await count('general');
  const globalBefore = await count('globalHourly');
  const ask = (app: FastifyInstance, url: string) => app.inject({ method: 'POST', url: `${API}${url}`, headers: ws.headers, payload: QUESTION });
  t.equal((await ask(one, '/rag')).statusCode, 200);
  t.equal((await ask(two, '/rag/query')).statusCode, 200);
  t.equal((await ask(one, '/rag/stream')).statusCode, 200);
  const refused = await ask(two, '/rag');
  t.equal(refused.statusCode, 429, 'the burst window is shared by both instances');
  t.equal(refused.headers['x-ratelimit-limit'], '3');
  t.equal((await ask(one, '/rag/query')).statusCode, 429);
  t.equal(await count('ragBurst'), 3, 'burst: the three answered requests');
  t.equal(await count('ragQuery'), 2, 'hourly /rag budget: the refused requests were not counted');
  t.equal(await count('ragStream'), 1);
  t.equal(await count('rag'), 3);
  t.equal((await count('general')) - generalBefore, 3, 'general: only the answered requests');
  t.equal((await count('globalHourly')) - globalBefore, 3, 'global: only the answered requests');
  const ttl = await probe!.pttl(`${prefix}{user:${u.id}}:ragBurst`);
  t.ok(ttl > 0 && ttl <= 60_000, 'counters expire with their window');

  const keys = await probe!.keys(`${prefix}*`);
  t.ok(keys.length >= 10, `${keys.length} keys`);
  t.same(
    keys.filter((k) => k.includes('undefined')),
    [],
    'no key contains "undefined"',
  );
  const shape = new RegExp(`^${prefix.replace(/[-:]/g, '\\$&')}\\{(user:[0-9a-f-]{36}|ip:[0-9.]+)\\}:[a-zA-Z]+$`);
  t.same(
    keys.filter((k) => !shape.test(k)),
    [],
    'every key is <prefix>{user:<id>}:<limit> or <prefix>{ip:<addr>}:<limit>',
  );
});

t.test('Redis hanging or refusing: bounded answers, local limits, Redis again after recovery', { skip: noRedis }, async (t) => {
  const prefix = testPrefix(t);
  const proxy = await tcpProxy({ host: '127.0.0.1', port: 6379 });
  t.teardown(proxy.close);
  const timeoutMs = 200;
  const retryMs = 500;
  const rateLimits = limits({ redisKeyPrefix: prefix, redisTimeoutMs: timeoutMs, redisRetryMs: retryMs, login: { max: 3, windowMs: 60_000 } });
  const redis = createRedis(proxy.url('redis'), timeoutMs);
  await redis.connect();
  const lines: string[] = [];
  const [app] = await redisApps(t, rateLimits, [redis], lines);
  watchRedis(redis, app.log);
  const login = async (ip: string) => {
    const started = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: `${API}/auth/login`,
      remoteAddress: ip,
      payload: { email: 'nobody@example.com', password: 'whatever-pw' },
    });
    return { status: res.statusCode, remaining: res.headers['x-ratelimit-remaining'], ms: performance.now() - started };
  };
  const redisCount = async (ip: string) => Number((await probe!.get(`${prefix}{ip:${ip}}:login`)) ?? 0);

  const a = randomIp();
  t.equal((await login(a)).status, 401);
  t.equal(await redisCount(a), 1, 'counted in Redis while it answers');

  // Timed on a cheap route (401 right after the limits): what the outage adds. A login also
  // spends its argon2 verification, so its bound is looser.
  const cheap = async () => {
    const started = performance.now();
    const res = await app.inject({ method: 'GET', url: `${API}/compliance/domains`, remoteAddress: randomIp() });
    return { status: res.statusCode, ms: performance.now() - started };
  };
  for (const mode of ['hang', 'refuse'] as const) {
    await proxy.set(mode);
    const quick = [];
    for (let i = 0; i < 10; i++) {
      quick.push(await cheap());
      await sleep(50);
    }
    t.same(new Set(quick.map((r) => r.status)), new Set([401]), `${mode}: requests are answered`);
    const slowest = Math.max(...quick.map((r) => r.ms));
    t.ok(slowest < 1000, `${mode}: every request answered within 1 s (slowest ${slowest.toFixed(0)} ms)`);
    const ip = randomIp();
    const logins = [];
    for (let i = 0; i < 5; i++) logins.push(await login(ip));
    t.same(
      logins.map((r) => r.status),
      [401, 401, 401, 429, 429],
      `${mode}: the login limit still refuses the 4th attempt`,
    );
    const slowestLogin = Math.max(...logins.map((r) => r.ms));
    t.ok(slowestLogin < 2000, `${mode}: every login answered within 2 s (slowest ${slowestLogin.toFixed(0)} ms)`);
  }

  await proxy.set('up');
  const deadline = Date.now() + 10_000;
  while (redis.status !== 'ready' && Date.now() < deadline) await sleep(50);
  t.equal(redis.status, 'ready', 'the client reconnects');
  await sleep(retryMs + 100);
  const back = await login(a);
  t.equal(back.status, 401);
  t.equal(await redisCount(a), 2, 'counted in Redis again');
  t.equal(back.remaining, '1', 'the Redis count (2 of 3) governs again, not the local one');

  const logged = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
  t.equal(logged.filter((l) => l.msg.startsWith('Redis does not answer')).length, 1, 'the outage is logged once (hang and refusal are one outage)');
  t.equal(logged.filter((l) => l.msg.startsWith('Redis answers again')).length, 1, 'the recovery is logged once');
});
