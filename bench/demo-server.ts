/**
 * A server with the demo corpus, for benchmarks that must measure from another process:
 * fresh database (PGlite in memory, or DATABASE_URL), the DORA corpus indexed, one owner
 * with a GitHub and a Basecamp workspace holding the vendor documents of data/vendor-docs
 * (ingested through the API). Prints one JSON line {port, github, basecamp, setupMs} with
 * the request headers of each workspace, then serves until SIGTERM.
 *   node --import=tsx bench/demo-server.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config.js';
import { buildTestApp, registerUser } from '../test/helpers/app.js';
import { createOrgAndWorkspace, createWorkspace } from '../test/helpers/workspaces.js';
import { ingest, VENDOR_DOCS } from '../test/helpers/rag.js';

const t0 = performance.now();
// The answer settings of the environment (RAG_GENERATOR, ANTHROPIC_*): extractive unless a key is set.
const ctx = await buildTestApp({ rag: loadConfig(process.env).rag });
const { app } = ctx;
const corpus = await app.services.dataSources.indexCorpus();
const owner = await registerUser(app);
const gh = await createOrgAndWorkspace(app, owner, 'GitHub');
const bc = await createWorkspace(app, owner, 'Basecamp');
let documents = 0;
for (const [vendor, headers] of [
  ['github', gh.headers],
  ['basecamp', bc.headers],
] as const) {
  const dir = path.join(VENDOR_DOCS, vendor);
  const files = readdirSync(dir).sort();
  documents += files.length;
  await ingest(
    app,
    headers,
    `${vendor} documents`,
    files.map((f) => ({
      title: f.replace(/\.(md|txt)$/, '').replace(/-/g, ' '),
      content: readFileSync(path.join(dir, f), 'utf8'),
      format: f.endsWith('.txt') ? ('text' as const) : ('markdown' as const),
    })),
    600_000,
  );
}
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;
console.log(
  JSON.stringify({
    port,
    github: gh.headers,
    basecamp: bc.headers,
    database: ctx.database.kind,
    generator: app.services.rag.generatorId,
    doraArticles: corpus.documents,
    vendorDocuments: documents,
    setupMs: Math.round(performance.now() - t0),
  }),
);
const stop = async () => {
  await ctx.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
