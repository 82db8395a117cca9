/**
 * MCP sync figures: a real MCP server (Streamable HTTP on 127.0.0.1) serving the vendor
 * documents of data/vendor-docs as resources; prints the time of test-connection, the
 * first sync (everything indexed), an unchanged re-sync (incremental: nothing re-read or
 * re-embedded) and a re-sync with one changed resource.
 *   node --import=tsx bench/mcp-sync.ts            (PGlite in memory)
 *   DATABASE_URL=postgres://... node --import=tsx bench/mcp-sync.ts
 */
import './lib/load.js';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildTestApp, registerUser, testConfig } from '../test/helpers/app.js';
import { startHttpMcpServer, waitForMcpSync, type FixtureResource } from '../test/helpers/mcpServer.js';
import { VENDOR_DOCS } from '../test/helpers/rag.js';
import { createOrgAndWorkspace } from '../test/helpers/workspaces.js';

const resources: FixtureResource[] = [];
for (const vendor of ['basecamp', 'github']) {
  for (const f of readdirSync(path.join(VENDOR_DOCS, vendor)).sort()) {
    resources.push({
      uri: `docs://${vendor}/${f}`,
      name: `${vendor}-${f}`,
      mimeType: f.endsWith('.md') ? 'text/markdown' : 'text/plain',
      text: readFileSync(path.join(VENDOR_DOCS, vendor, f), 'utf8'),
    });
  }
}
const base = testConfig();
const ctx = await buildTestApp({ mcp: { ...base.mcp, allowPrivateNetworks: true }, syncSchedulerIntervalSec: 0 }, { seed: false });
const { app } = ctx;
const fixture = await startHttpMcpServer({ resources });
const owner = await registerUser(app);
const ws = await createOrgAndWorkspace(app, owner, 'Bench Vendor');
const H = ws.headers;

let t0 = performance.now();
const tc = await app.inject({ method: 'POST', url: '/api/v1/mcp-sources/test-connection', headers: H, payload: { transport: 'http', url: fixture.url } });
const testConnectionMs = Math.round(performance.now() - t0);
if (!tc.json().data.connection.ok) throw new Error(tc.body);

t0 = performance.now();
const created = await app.inject({ method: 'POST', url: '/api/v1/mcp-sources', headers: H, payload: { name: 'Bench', transport: 'http', url: fixture.url } });
const id: string = created.json().data.mcpSource.id;
const first = await waitForMcpSync(app, H, id, { timeoutMs: 600_000 });
const firstWallMs = Math.round(performance.now() - t0);

async function resync() {
  const t = performance.now();
  const res = await app.inject({ method: 'POST', url: `/api/v1/mcp-sources/${id}/sync`, headers: H });
  const run = await waitForMcpSync(app, H, id, { runId: res.json().data.sync.id, timeoutMs: 600_000 });
  return { run, wallMs: Math.round(performance.now() - t) };
}
const unchanged = await resync();
fixture.resources = fixture.resources.map((r, i) => (i === 0 ? { ...r, text: `${r.text}\n\nAmended clause added for the benchmark.` } : r));
const oneChanged = await resync();

console.log(
  JSON.stringify(
    {
      database: ctx.database.kind,
      resources: resources.length,
      characters: resources.reduce((n, r) => n + r.text.length, 0),
      testConnectionMs,
      firstSync: {
        status: first.status,
        errors: first.errors,
        resourcesCounts: first.resources,
        chunks: first.chunksIndexed,
        durationMs: first.durationMs,
        wallMs: firstWallMs,
        msPerResource: Math.round(first.durationMs / resources.length),
      },
      unchangedResync: {
        status: unchanged.run.status,
        counts: unchanged.run.resources,
        unchanged: unchanged.run.resources.unchanged,
        durationMs: unchanged.run.durationMs,
        wallMs: unchanged.wallMs,
      },
      oneChangedResync: {
        status: oneChanged.run.status,
        updated: oneChanged.run.resources.updated,
        chunks: oneChanged.run.chunksIndexed,
        durationMs: oneChanged.run.durationMs,
        wallMs: oneChanged.wallMs,
      },
    },
    null,
    2,
  ),
);
await fixture.close();
await ctx.close();
