import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import type { Database } from './client.js';

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

/**
 * Applies the committed SQL migrations (the same files `drizzle-kit migrate` applies); `folder`
 * only for a test that needs the schema as an earlier migration left it.
 */
export async function runMigrations(database: Database, folder = migrationsFolder): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as unknown as PgliteDatabase<Record<string, never>>, { migrationsFolder: folder });
  } else {
    await migratePostgres(database.db as unknown as PostgresJsDatabase<Record<string, never>>, { migrationsFolder: folder });
  }
}
