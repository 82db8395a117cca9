/**
 * Throughput of the authenticated request path, against the service process as `npm start`
 * runs it (`node dist/server.js` in a child process; autocannon in this one, 50 connections):
 *   - `GET /health` (no authentication, one `select 1`),
 *   - authenticated `GET /api/v1/workspaces` of an organization with 20 vendor workspaces,
 *     each with two data sources and one MCP source (the derived syncStatus has rows to count),
 *   - authenticated `GET /api/v1/compliance/articles` (the DORA articles, ~150 KB), with and
 *     without the client's `If-None-Match`,
 *   - and, as the floor of the same machine in the same run, a bare Fastify process answering
 *     a tiny JSON body and the same articles body (`--no-baseline` skips it).
 * Rate limits stay on (limits raised so that they never trip), logging at `info` as deployed,
 * into a file.
 * Rounds are interleaved; the figures are the medians of the rounds.
 *
 *   node --import=tsx bench/request-path.ts [--rounds 3] [--seconds 10] [--connections 50] [--tsx]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import=tsx bench/request-path.ts
 *
 * PostgreSQL: a database created beside DATABASE_URL's for the bench and dropped at the end;
 * PGlite: a temporary data directory.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { buildApp } from '../src/app.js';
import { createDatabase } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { registerUser, testConfig } from '../test/helpers/app.js';
import { createOrg } from '../test/helpers/workspaces.js';
import { loadAverage, median } from './lib/machine.js';
import { prepareDatabase, spawnServer } from './lib/service.js';
import { scopeOf } from '../src/domain/scope.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
    vendors: { type: 'string', default: '20' },
    'no-baseline': { type: 'boolean', default: false },
    // The service through tsx (`node --import=tsx src/server.ts`) instead of dist/.
    tsx: { type: 'boolean', default: false },
    // Only these measures (comma-separated: health, workspaces, articles, 304).
    only: { type: 'string' },
    // Write a V8 CPU profile of the service into this directory (node --cpu-prof) when it stops.
    'cpu-prof': { type: 'string' },
  },
});
const ROUNDS = Number(args.rounds);
const SECONDS = Number(args.seconds);
const CONNECTIONS = Number(args.connections);
const VENDORS = Number(args.vendors);
const ONLY = args.only ? new Set(args.only.split(',')) : null;
const measure = (name: string) => !ONLY || ONLY.has(name);

const ENV = {
  NODE_ENV: 'production',
  JWT_SECRET: 'bench-request-path-secret-0123456789abcdef',
  SECRETS_KEY: 'bench-request-path-key-0123456789abcdefgh',
  LOG_LEVEL: 'info',
  REDIS_URL: '',
  SMTP_URL: '',
  MCP_ALLOW_PRIVATE_NETWORKS: 'true',
  RATE_LIMIT_GENERAL_MAX: '1000000000',
  RATE_LIMIT_GLOBAL_MAX: '1000000000',
};

/** One organization, VENDORS workspaces with two data sources and one MCP source each; returns a Bearer token. */
async function seed(env: Record<string, string>): Promise<string> {
  const database = await createDatabase({ url: env.DATABASE_URL || undefined, pgliteDataDir: env.PGLITE_DATA_DIR });
  await runMigrations(database);
  const base = testConfig();
  const config = {
    ...testConfig({ workers: 1, jobsPollIntervalSec: 0.5, jwtSecret: ENV.JWT_SECRET, secretsKey: ENV.SECRETS_KEY }),
    accessTokenTtlSec: 3600,
    mcp: { ...base.mcp, allowPrivateNetworks: true },
  };
  const app = await buildApp({ config, database });
  await app.ready();
  try {
    await app.services.compliance.loadReferenceData();
    const owner = await registerUser(app);
    await createOrg(app, owner, 'Bench Bank');
    const ids: string[] = [];
    for (let i = 0; i < VENDORS; i++) {
      const ws = await app.services.workspaces.create(owner.id, { workspaceName: `Vendor ${i}` });
      for (let d = 0; d < 2; d++) {
        await app.services.dataSources.create(scopeOf({ id: ws.id, slug: ws.workspaceId, name: ws.workspaceName, orgId: ws.organizationId }, owner.id), {
          kind: 'json',
          name: `Docs ${d}`,
          files: [{ filename: 'a.txt', declaredType: 'text/plain', content: Buffer.from(`Policy ${i}.${d}: encryption keys rotate every 90 days.`) }],
        });
      }
      await app.services.mcpSources.create(scopeOf({ id: ws.id, slug: ws.workspaceId, name: ws.workspaceName, orgId: ws.organizationId }, owner.id), {
        name: 'MCP',
        transport: 'http',
        url: 'http://127.0.0.1:9/mcp',
        headers: {},
        sync: false,
      });
      ids.push(ws.id);
    }
    // The data sources are ingested here, so that the measured server has nothing queued.
    for (let i = 0; ; i++) {
      const statuses = [...(await app.services.workspaces.syncStatuses(ids)).values()];
      if (statuses.every((s) => s !== 'syncing')) {
        console.log(`seeded: ${VENDORS} workspaces, syncStatus ${[...new Set(statuses)].join(', ')}`);
        break;
      }
      if (i > 1200) throw new Error('data sources not ingested after 120 s');
      await sleep(100);
    }
    return owner.accessToken;
  } finally {
    await app.close();
    await database.close();
  }
}

async function load(url: string, headers: Record<string, string> = {}): Promise<{ rps: number; p50: number; p99: number; bad: number }> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  // A 304 is the expected answer to a current If-None-Match, not a failure.
  const notModified = headers['if-none-match']
    ? ((r as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats?.['304']?.count ?? 0)
    : 0;
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, bad: r.non2xx - notModified + r.errors + r.timeouts };
}

const results = new Map<string, { rps: number[]; p50: number[]; p99: number[]; bad: number }>();
function record(name: string, x: { rps: number; p50: number; p99: number; bad: number }) {
  const r = results.get(name) ?? { rps: [], p50: [], p99: [], bad: 0 };
  r.rps.push(x.rps);
  r.p50.push(x.p50);
  r.p99.push(x.p99);
  r.bad += x.bad;
  results.set(name, r);
}

console.log(`bench/request-path.ts: ${CONNECTIONS} connections, ${SECONDS} s per measure, ${ROUNDS} rounds, ${VENDORS} vendors; before: ${loadAverage()}`);
const db = await prepareDatabase('request_path');
try {
  const token = await seed(db.env);
  // The service as `npm start` runs it (dist/, built when stale).
  if (!args.tsx) await (await import('../scripts/build-server.mjs')).buildServer();
  const prof = args['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(args['cpu-prof'])] : [];
  const server = await spawnServer([...prof, ...(args.tsx ? ['--import=tsx', 'src/server.ts'] : ['dist/server.js'])], { ...ENV, ...db.env });
  const bare = args['no-baseline'] ? null : await spawnServer(['--import=tsx', 'bench/lib/bare-server.ts'], {});
  try {
    const auth = { authorization: `Bearer ${token}` };
    const res = await fetch(`${server.url}/api/v1/workspaces`, { headers: auth });
    const body = (await res.json()) as { data?: { workspaces: { syncStatus: string }[] } };
    if (res.status !== 200 || body.data!.workspaces.length !== VENDORS) throw new Error(`GET /workspaces: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    const articles = await fetch(`${server.url}/api/v1/compliance/articles`, { headers: auth });
    const etag = articles.headers.get('etag');
    const size = (await articles.arrayBuffer()).byteLength;
    await load(`${server.url}/api/v1/workspaces`, auth);
    console.log(`warmed up; articles body ${(size / 1024).toFixed(0)} KB, ETag ${etag ?? 'none'}; ${loadAverage()}`);

    for (let round = 1; round <= ROUNDS; round++) {
      if (bare) {
        record('bare Fastify, tiny JSON', await load(`${bare.url}/hello`));
        record('bare Fastify, the articles body', await load(`${bare.url}/articles`));
      }
      if (measure('health')) record('GET /health', await load(`${server.url}/health`));
      if (measure('workspaces')) record(`GET /api/v1/workspaces (${VENDORS} vendors)`, await load(`${server.url}/api/v1/workspaces`, auth));
      if (measure('articles')) record('GET /api/v1/compliance/articles', await load(`${server.url}/api/v1/compliance/articles`, auth));
      if (etag && measure('304'))
        record(
          'GET /api/v1/compliance/articles, If-None-Match (304)',
          await load(`${server.url}/api/v1/compliance/articles`, { ...auth, 'if-none-match': etag }),
        );
      console.log(`round ${round} done; ${loadAverage()}`);
    }
  } finally {
    await server.stop();
    await bare?.stop();
  }
  console.log(`\n${db.label}, ${CONNECTIONS} connections, medians of ${ROUNDS} rounds of ${SECONDS} s:`);
  for (const [name, r] of results) {
    console.log(
      `  ${name.padEnd(56)} ${median(r.rps).toFixed(0).padStart(7)} req/s   p50 ${median(r.p50).toFixed(0)} ms, p99 ${median(r.p99).toFixed(0)} ms${r.bad ? `   (${r.bad} non-2xx/errors)` : ''}`,
    );
  }
  console.log(`after: ${loadAverage()}`);
} finally {
  await db.drop();
}
