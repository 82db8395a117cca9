import { buildApp } from './app.js';
import { DEV_SECRETS_KEY, loadConfig } from './config.js';
import { createDatabase } from './db/client.js';
import { runMigrations } from './db/migrate.js';
import { developmentJwtSecret, developmentSecret } from './lib/devSecret.js';
import { createRedis, watchRedis } from './lib/redis.js';

/** Process entry: config -> database (migrated, reference data loaded) -> app -> listen. */
async function main() {
  const config = loadConfig();
  const started = Date.now();
  const devSecret = config.jwtSecret ? null : developmentJwtSecret(config);
  if (devSecret) config.jwtSecret = devSecret.secret;
  // SECRETS_KEY unset: a random key per data directory instead of the published constant,
  // which stays a previous key so credentials sealed by earlier versions still open.
  const devSecretsKey = config.secretsKey === DEV_SECRETS_KEY ? developmentSecret('secrets-key', config) : null;
  if (devSecretsKey) {
    config.secretsKey = devSecretsKey.secret;
    config.secretsKeyPrevious = [...config.secretsKeyPrevious, DEV_SECRETS_KEY];
  }
  const database = await createDatabase({ url: config.databaseUrl, pgliteDataDir: config.pgliteDataDir });
  await runMigrations(database);
  const redis = config.redisUrl ? createRedis(config.redisUrl, config.rateLimits.redisTimeoutMs) : undefined;
  const app = await buildApp({ config, database, redis });
  if (redis) {
    watchRedis(redis, app.log);
    // Not awaited: until Redis answers, rate limits count in process memory (docs/rate-limits.md).
    redis.connect().catch(() => {});
  }
  if (!(await app.services.compliance.isLoaded())) {
    const { articles } = await app.services.compliance.loadReferenceData();
    app.log.info({ articles }, 'DORA reference data loaded');
  }
  // The DORA articles as the shared retrieval corpus: indexed on first start, re-indexed
  // when an article, the chunking or the embedder changed; unchanged articles are skipped.
  const corpus = await app.services.dataSources.indexCorpus();
  if (corpus.indexed) app.log.info(corpus, 'DORA retrieval corpus indexed');
  if (devSecret) app.log.warn({ file: devSecret.file ?? 'memory' }, 'JWT_SECRET is not set: tokens are signed with a random development secret');
  if (devSecretsKey)
    app.log.warn({ file: devSecretsKey.file ?? 'memory' }, 'SECRETS_KEY is not set: stored MCP credentials are sealed with a random development key');
  await app.listen({ host: config.host, port: config.port });
  app.log.info({ database: database.kind, ms: Date.now() - started }, 'service started');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Requests in flight finish (new ones get 503), running jobs get SHUTDOWN_GRACE_MS;
    // past that and 10 s more the process goes anyway.
    const force = setTimeout(() => process.exit(1), config.shutdownGraceMs + 10_000).unref();
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
