/**
 * GET /workspaces for an organization with N vendor workspaces (default 300), each with
 * two data sources and one MCP source, so that `syncStatus` (derived on read from the
 * sources, docs/organizations-and-workspaces.md) has rows to count. Prints the median and
 * p95 of the whole request and of the sync-status step alone (one query per module).
 *
 *   npx tsx bench/workspace-list.ts [workspaces] [requests]      embedded PGlite (in memory)
 *   DATABASE_URL=postgres://... npx tsx bench/workspace-list.ts   a fresh PostgreSQL database
 *
 * WORKERS=0: data sources stay `pending` (counted as syncing), nothing is ingested.
 */
import './lib/load.js';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { freshDatabase, registerUser, testConfig } from '../test/helpers/app.js';
import { createOrg } from '../test/helpers/workspaces.js';
import { scopeOf } from '../src/domain/scope.js';

const N = Number(process.argv[2] ?? 300);
const REQUESTS = Number(process.argv[3] ?? 50);

const base = testConfig();
// MCP sources are created without a sync and never contacted (a loopback URL).
const config = testConfig({ workers: 0, mcp: { ...base.mcp, allowPrivateNetworks: true } });
const { database, drop } = await freshDatabase();
const app = await buildApp({ config, database });
await app.ready();

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

try {
  const owner = await registerUser(app);
  await createOrg(app, owner, 'Bench Bank');
  const t0 = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < N; i++) {
    const ws = await app.services.workspaces.create(owner.id, { workspaceName: `Vendor ${i}` });
    ids.push(ws.id);
    for (let d = 0; d < 2; d++) {
      await app.services.dataSources.create(scopeOf({ id: ws.id, slug: ws.workspaceId, name: ws.workspaceName, orgId: ws.organizationId }, owner.id), {
        kind: 'json',
        name: `Docs ${d}`,
        files: [{ filename: 'a.txt', declaredType: 'text/plain', content: Buffer.from(`Policy ${i}.${d}: keys rotate every 90 days.`) }],
      });
    }
    await app.services.mcpSources.create(scopeOf({ id: ws.id, slug: ws.workspaceId, name: ws.workspaceName, orgId: ws.organizationId }, owner.id), {
      name: 'MCP',
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headers: {},
      sync: false,
    });
  }
  console.log(`set-up: ${N} workspaces, ${2 * N} data sources, ${N} MCP sources in ${((performance.now() - t0) / 1000).toFixed(1)} s (${database.kind})`);

  const whole: number[] = [];
  const status: number[] = [];
  for (let i = 0; i < REQUESTS + 5; i++) {
    const a = performance.now();
    const res = await app.inject({ method: 'GET', url: '/api/v1/workspaces', headers: owner.headers });
    const b = performance.now();
    if (res.statusCode !== 200 || res.json().data.workspaces.length !== N) throw new Error(`GET /workspaces: ${res.statusCode}`);
    await app.services.workspaces.syncStatuses(ids);
    const c = performance.now();
    if (i >= 5) {
      whole.push(b - a);
      status.push(c - b);
    }
  }
  const f = (x: number) => `${x.toFixed(1)} ms`;
  console.log(`GET /workspaces (${N} items, ${REQUESTS} requests): median ${f(pct(whole, 50))}, p95 ${f(pct(whole, 95))}`);
  console.log(
    `  syncStatus step alone: median ${f(pct(status, 50))}, p95 ${f(pct(status, 95))} (${((pct(status, 50) / pct(whole, 50)) * 100).toFixed(0)}% of the median request)`,
  );
} finally {
  await app.close();
  await drop();
}
