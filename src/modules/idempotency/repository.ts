import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { idempotencyKeys } from '../../db/schema/index.js';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

/** All SQL of `Idempotency-Key` records (docs/api-conventions.md, "Retries"). */
export function idempotencyRepository(db: Db) {
  return {
    /** Inserts a claim; null when the owner already has a row for the key. */
    async claim(values: { id: string; owner: string; key: string; requestHash: string; method: string; path: string; leaseUntil: Date; expiresAt: Date }) {
      const [row] = await db.insert(idempotencyKeys).values(values).onConflictDoNothing().returning();
      return row ?? null;
    },
    async find(owner: string, key: string): Promise<IdempotencyRow | null> {
      const [row] = await db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.owner, owner), eq(idempotencyKeys.key, key)));
      return row ?? null;
    },
    async byId(id: string): Promise<IdempotencyRow | null> {
      const [row] = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.id, id));
      return row ?? null;
    },
    /** Takes over an abandoned claim (its lease ran out, its effect never committed); true when this call won. */
    async takeOver(id: string, leaseUntil: Date): Promise<boolean> {
      const rows = await db
        .update(idempotencyKeys)
        .set({ leaseUntil })
        .where(
          and(
            eq(idempotencyKeys.id, id),
            eq(idempotencyKeys.state, 'in_flight'),
            sql`${idempotencyKeys.committedAt} IS NULL`,
            lt(idempotencyKeys.leaseUntil, sql`now()`),
          ),
        )
        .returning({ id: idempotencyKeys.id });
      return rows.length === 1;
    },
    /** Stores the response of a claim as it went out (also over one its service preset in the effect's transaction). */
    async complete(id: string, r: { statusCode: number; contentType: string; body: string }) {
      await db
        .update(idempotencyKeys)
        .set({ state: 'completed', statusCode: r.statusCode, contentType: r.contentType, responseBody: r.body })
        .where(eq(idempotencyKeys.id, id));
    },
    /** Gives a claim up: deleted when nothing was committed, else its lease ends (the response is lost). */
    async release(id: string) {
      await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, id), sql`${idempotencyKeys.committedAt} IS NULL`));
      await db
        .update(idempotencyKeys)
        .set({ leaseUntil: new Date(0) })
        .where(and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.state, 'in_flight')));
    },
    async deleteRow(id: string) {
      await db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, id));
    },
    /** Removes records past their 24 hours. */
    async purgeExpired(limit = 1000): Promise<number> {
      const rows = await db.execute(
        sql`DELETE FROM idempotency_keys WHERE id IN (SELECT id FROM idempotency_keys WHERE expires_at < now() LIMIT ${limit}) RETURNING id`,
      );
      return Array.isArray(rows) ? rows.length : ((rows as { rows?: unknown[] }).rows?.length ?? 0);
    },
  };
}
export type IdempotencyRepository = ReturnType<typeof idempotencyRepository>;
