import { mkdirSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type postgres from 'postgres';
import { idempotencyStore } from '../lib/idempotencyContext.js';
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
  /**
   * PostgreSQL: run short statements as named prepared statements (default true); false
   * behind a pooler in transaction mode that cannot keep them (e.g. PgBouncer < 1.21).
   */
  prepare?: boolean;
  /**
   * PGlite only: start from this data directory (a tarball from `dumpDataDir`) instead of
   * running initdb; the test suite starts each fresh database from one migrated copy.
   */
  pgliteLoadDataDir?: Blob;
}

/**
 * Statements prepared per connection: drizzle runs every query unnamed, for which
 * postgres-js first asks the server for the parameter types (one more round trip) and
 * the server plans the statement again each time. Drizzle prepared queries (`.prepare()`,
 * the request path) and short statements with few parameters (everyday reads and writes)
 * are prepared once per connection instead. Other long statements stay unnamed: multi-row
 * inserts, whose text varies with the row count (the per-connection statement cache stays
 * small), and statements whose best plan depends on the values (a prepared statement may
 * switch to one generic plan after five executions), unless marked (PREPARE_MARK).
 */
const PREPARE_MAX_PARAMS = 64;
const PREPARE_MAX_CHARS = 1024;

/**
 * A statement that starts with this comment is prepared whatever its length: for a long
 * statement run on every request whose text comes in few variants (retrieval), preparing
 * saves the parse and the round trip that asks for the parameter types. One whose best plan
 * depends on its values must run with `plan_cache_mode = force_custom_plan`, as retrieval does
 * (src/rag/retrieval.ts), or it may switch to one generic plan after five executions.
 */
export const PREPARE_MARK = '/* prepared */ ';

/** A postgres-js client whose `unsafe` (what drizzle calls) prepares short statements. */
function preparing(client: postgres.Sql): postgres.Sql {
  const wrapped = new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === 'unsafe') {
        return (query: string, params?: unknown[], options?: { prepare?: boolean }) =>
          target.unsafe(query, params as never, {
            ...options,
            prepare:
              options?.prepare === true || query.startsWith(PREPARE_MARK) || ((params?.length ?? 0) <= PREPARE_MAX_PARAMS && query.length <= PREPARE_MAX_CHARS),
          });
      }
      if (prop === 'begin') {
        // Transactions: drizzle runs the statements on the transaction's client.
        return (...args: unknown[]) => {
          const fn = args.pop() as (tx: postgres.Sql) => unknown;
          return (target.begin as (...a: unknown[]) => unknown)(...args, (tx: postgres.Sql) => fn(preparing(tx)));
        };
      }
      if (prop === 'savepoint') {
        return (...args: unknown[]) => {
          const fn = args.pop() as (tx: postgres.Sql) => unknown;
          return (target as unknown as { savepoint: (...a: unknown[]) => unknown }).savepoint(...args, (tx: postgres.Sql) => fn(preparing(tx)));
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return wrapped;
}

/**
 * `db.transaction` of a request that claimed an `Idempotency-Key` also marks the claim as
 * committed, inside the transaction and as its last statement (with the response when the
 * service preset one): the mark exists exactly when the effect does, whatever happens to
 * the connection around the commit (docs/api-conventions.md, "Retries"). Nested
 * transactions (savepoints) run on the transaction object and are not marked again.
 */
function markingIdempotentCommits(db: Db): Db {
  const transaction = db.transaction.bind(db);
  const marked = ((fn: (tx: Db) => Promise<unknown>, config?: unknown) => {
    const claim = idempotencyStore.getStore();
    if (!claim) return transaction(fn as never, config as never);
    return transaction(
      (async (tx: Db) => {
        const result = await fn(tx);
        const r = claim.response;
        await tx.execute(
          r
            ? sql`UPDATE idempotency_keys SET committed_at = coalesce(committed_at, now()), state = 'completed', status_code = ${r.statusCode},
                  content_type = ${r.contentType}, response_body = ${r.body} WHERE id = ${claim.id}`
            : sql`UPDATE idempotency_keys SET committed_at = coalesce(committed_at, now()) WHERE id = ${claim.id}`,
        );
        return result;
      }) as never,
      config as never,
    );
  }) as Db['transaction'];
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'transaction') return marked;
      return Reflect.get(target, prop, receiver);
    },
  });
}

/**
 * Runs a one-statement write so that an `Idempotency-Key` claim is marked with it: in a
 * transaction of its own when the request holds a claim, as the single statement (one round
 * trip, no reserved connection) otherwise.
 */
export function withIdempotencyMark<T>(db: Db, write: (d: Db) => Promise<T>): Promise<T> {
  return idempotencyStore.getStore() ? db.transaction((tx) => write(tx as unknown as Db)) : write(db);
}

/**
 * The database for `url` (PostgreSQL through postgres-js) or else PGlite in
 * `pgliteDataDir` (`memory://` by default). Each driver is loaded only when used, so a
 * PostgreSQL process never loads PGlite's WebAssembly build and vice versa.
 */
export async function createDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) {
    const [{ default: postgres }, { drizzle }] = await Promise.all([import('postgres'), import('drizzle-orm/postgres-js')]);
    // A request never waits more than 5 s for a connection to a server that does not answer.
    const pg = postgres(opts.url, { max: opts.max ?? 10, connect_timeout: 5, onnotice: () => {} });
    const client = opts.prepare === false ? pg : preparing(pg);
    const db = markingIdempotentCommits(drizzle(client, { schema }) as unknown as Db);
    return { kind: 'postgres', db, pg, url: opts.url, close: () => pg.end({ timeout: 5 }) };
  }
  const [{ PGlite }, { vector }, { btree_gin }, { drizzle }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-pgvector'),
    import('@electric-sql/pglite/contrib/btree_gin'),
    import('drizzle-orm/pglite'),
  ]);
  const dataDir = opts.pgliteDataDir ?? 'memory://';
  if (dataDir !== 'memory://') mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir === 'memory://' ? undefined : dataDir, {
    extensions: { vector, btree_gin },
    ...(opts.pgliteLoadDataDir ? { loadDataDir: opts.pgliteLoadDataDir } : {}),
  });
  const db = markingIdempotentCommits(drizzle(pglite, { schema }) as unknown as Db);
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
