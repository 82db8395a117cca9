import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { createDatabase } from './db/client.js';
import { runMigrations } from './db/migrate.js';

/** Process entry: config -> database (migrated, reference data loaded) -> app -> listen. */
async function main() {
  const config = loadConfig();
  const started = Date.now();
  const database = await createDatabase({ url: config.databaseUrl, pgliteDataDir: config.pgliteDataDir });
  await runMigrations(database);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1 }) : undefined;
  const app = await buildApp({ config, database, redis });
  if (!(await app.services.compliance.isLoaded())) {
    const { articles } = await app.services.compliance.loadReferenceData();
    app.log.info({ articles }, 'DORA reference data loaded');
  }
  // The DORA articles as the shared retrieval corpus: indexed on first start, re-indexed
  // when an article, the chunking or the embedder changed; unchanged articles are skipped.
  const corpus = await app.services.dataSources.indexCorpus();
  if (corpus.indexed) app.log.info(corpus, 'DORA retrieval corpus indexed');
  await app.listen({ host: config.host, port: config.port });
  app.log.info({ database: database.kind, ms: Date.now() - started }, 'service started');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000).unref();
    try {
      await app.close();
      redis?.disconnect();
      await database.close();
      clearTimeout(force);
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
