import { parseArgs } from 'node:util';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createDatabase } from '../db/client.js';
import { runMigrations } from '../db/migrate.js';

/**
 * Loads reference data. Repeatable: running it again updates in place.
 *   npm run seed              load (or refresh) the DORA reference data and index the
 *                             DORA articles as the shared retrieval corpus
 *   npm run seed -- --reset   wipe the reference data, load it again, re-index the corpus
 *   npm run seed -- --demo    also load the demo: user demo@dora.local, organization
 *                             "Demo Bank", workspaces GitHub and Basecamp with the real
 *                             vendor documents ingested (README); --vendor-docs DIR
 *                             overrides where the documents are read from
 */
const { values } = parseArgs({
  options: {
    reset: { type: 'boolean', default: false },
    demo: { type: 'boolean', default: false },
    'vendor-docs': { type: 'string' },
  },
});
// The demo's uploads are ingested by a worker of this process.
const config = { ...loadConfig(), workers: values.demo ? 1 : 0, logLevel: 'warn' };
const database = await createDatabase({ url: config.databaseUrl, pgliteDataDir: config.pgliteDataDir, max: 2 });
await runMigrations(database);
const app = await buildApp({ config, database });
try {
  const { articles } = await app.services.compliance.loadReferenceData({ reset: values.reset });
  console.log(`DORA reference data ${values.reset ? 'reset and ' : ''}loaded: ${articles} articles`);
  const corpus = await app.services.dataSources.indexCorpus({ force: values.reset });
  console.log(`DORA retrieval corpus: ${corpus.documents} articles, ${corpus.indexed} (re)indexed, ${corpus.chunks} chunks written`);
  if (values.demo) {
    const { loadDemo } = await import('./demo.js');
    const demo = await loadDemo(app.services, { vendorDocsDir: values['vendor-docs'], resync: values.reset, log: (m) => console.log(`demo: ${m}`) });
    for (const v of demo.vendors)
      console.log(`demo: workspace ${v.workspaceName} (${v.workspaceId}): data source ${v.status}, ${v.documents} documents, ${v.chunks} chunks`);
    console.log(`demo: log in as ${demo.user.email}`);
  }
} finally {
  await app.close();
  await database.close();
}
