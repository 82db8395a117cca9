import { parseArgs } from 'node:util';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { createDatabase } from '../db/client.js';
import { runMigrations } from '../db/migrate.js';

/**
 * Loads reference data. Repeatable: running it again updates in place.
 *   npm run seed              load (or refresh) the DORA reference data
 *   npm run seed -- --reset   wipe the reference data and load it again
 */
const { values } = parseArgs({ options: { reset: { type: 'boolean', default: false } } });
const config = { ...loadConfig(), workers: 0, logLevel: 'warn' };
const database = await createDatabase({ url: config.databaseUrl, pgliteDataDir: config.pgliteDataDir, max: 2 });
await runMigrations(database);
const app = await buildApp({ config, database });
try {
  const { articles } = await app.services.compliance.loadReferenceData({ reset: values.reset });
  console.log(`DORA reference data ${values.reset ? 'reset and ' : ''}loaded: ${articles} articles`);
} finally {
  await app.close();
  await database.close();
}
