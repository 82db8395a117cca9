import { loadConfig } from '../config.js';
import { createDatabase } from '../db/client.js';
import { migrationsFolder, runMigrations } from '../db/migrate.js';

/** Applies the committed migrations to DATABASE_URL, or to the embedded PGlite data directory. */
const config = loadConfig();
const database = await createDatabase({ url: config.databaseUrl, pgliteDataDir: config.pgliteDataDir, max: 1 });
try {
  await runMigrations(database);
  console.log(`migrations from ${migrationsFolder} applied to ${database.kind === 'postgres' ? 'PostgreSQL' : `PGlite (${config.pgliteDataDir})`}`);
} finally {
  await database.close();
}
