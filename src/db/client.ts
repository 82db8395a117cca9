import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema/index.js';

/** One drizzle type serves both drivers. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** The PGlite instance (embedded mode only). */
  pglite?: PGlite;
  /** The postgres-js client (PostgreSQL mode only). */
  pg?: postgres.Sql;
  /** Connection string (PostgreSQL mode only), for components that open their own pool. */
  url?: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  url?: string;
  pgliteDataDir?: string;
  /** Pool size for postgres-js. */
  max?: number;
}

export async function createDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    const pg = postgres(opts.url, { max: opts.max ?? 10, onnotice: () => {} });
    const db = drizzlePostgres(pg, { schema }) as unknown as Db;
    return { kind: 'postgres', db, pg, url: opts.url, close: () => pg.end({ timeout: 5 }) };
  }
  const dataDir = opts.pgliteDataDir ?? 'memory://';
  if (dataDir !== 'memory://') mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir === 'memory://' ? undefined : dataDir, { extensions: { vector } });
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return { kind: 'pglite', db, pglite, close: () => pglite.close() };
}

/**
 * Runs raw SQL and returns its rows on both drivers (postgres-js answers with an
 * array, PGlite with `{ rows }`).
 */
export async function queryRows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const res: unknown = await db.execute(query);
  if (Array.isArray(res)) return res as T[];
  return ((res as { rows?: T[] }).rows ?? []) as T[];
}

export { sql };
