import type { PGlite } from '@electric-sql/pglite';

/**
 * pg-boss's `db` option over the one PGlite connection: `executeSql(text, values)`
 * answering `{ rows, rowCount }`. Statements with parameters use the extended protocol
 * (`query`); pg-boss's parameterless scripts (schema creation, migrations, locked
 * maintenance) may hold several statements and go through `exec`. PGlite serialises
 * every call with its own transaction lock, so a pg-boss statement never interleaves
 * with a drizzle transaction; code inside a drizzle transaction must therefore never
 * wait for pg-boss (that would deadlock).
 *
 * `close()` refuses new statements and waits for the ones under way, so the database
 * can be closed after pg-boss stopped even if a worker was polling.
 */
export function pgliteBossAdapter(pglite: PGlite) {
  let closed = false;
  const inFlight = new Set<Promise<unknown>>();
  const run = async (text: string, values?: unknown[]) => {
    if (values && values.length) {
      const r = await pglite.query<Record<string, unknown>>(text, values);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    }
    try {
      const results = await pglite.exec(text);
      const last = results[results.length - 1];
      return { rows: (last?.rows ?? []) as Record<string, unknown>[], rowCount: last?.affectedRows ?? 0 };
    } catch (err) {
      // A failed multi-statement script leaves its transaction open: roll it back.
      if (pglite.isInTransaction()) await pglite.exec('ROLLBACK').catch(() => {});
      throw err;
    }
  };
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (closed) throw new Error('job queue database adapter is closed');
      const p = run(text, values);
      inFlight.add(p);
      try {
        return await p;
      } finally {
        inFlight.delete(p);
      }
    },
    async close() {
      closed = true;
      await Promise.allSettled([...inFlight]);
    },
  };
}
