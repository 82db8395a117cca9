import { and, count, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { type Db, withIdempotencyMark } from '../../db/client.js';
import { apiKeys } from '../../db/schema/index.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** All SQL of organization API keys (docs/api-keys.md). */
export function apiKeysRepository(db: Db) {
  const byHash = db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.keyHash, sql.placeholder('hash')))
    .prepare('api_key_by_hash');
  return {
    async insert(values: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
      // With an Idempotency-Key claim, marked in the same commit (src/db/client.ts).
      const [row] = await withIdempotencyMark(db, (tx) => tx.insert(apiKeys).values(values).returning());
      return row!;
    },
    async byHash(hash: string): Promise<ApiKeyRow | null> {
      const [row] = await byHash.execute({ hash });
      return row ?? null;
    },
    async page(orgId: string, q: { limit: number; offset: number }): Promise<{ rows: ApiKeyRow[]; total: number }> {
      const rows = await db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.orgId, orgId))
        .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
        .limit(q.limit)
        .offset(q.offset);
      const [{ n }] = await db.select({ n: count() }).from(apiKeys).where(eq(apiKeys.orgId, orgId));
      return { rows, total: Number(n) };
    },
    /** Revokes a key of the organization; null when there is none, the row when it was (or already is) revoked. */
    async revoke(orgId: string, id: string): Promise<ApiKeyRow | null> {
      const [row] = await db
        .update(apiKeys)
        .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
        .where(and(eq(apiKeys.orgId, orgId), eq(apiKeys.id, id)))
        .returning();
      return row ?? null;
    },
    /** Records a use, at most once a minute per key (a write per request would be one per request). */
    async touch(id: string): Promise<void> {
      await db
        .update(apiKeys)
        .set({ lastUsedAt: new Date() })
        .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - interval '60 seconds'`))));
    },
  };
}
export type ApiKeysRepository = ReturnType<typeof apiKeysRepository>;
