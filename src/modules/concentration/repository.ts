import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { providerAliases } from '../../db/schema/concentration.js';
import { users } from '../../db/schema/users.js';

export type AliasRow = typeof providerAliases.$inferSelect & { createdByName: string | null };
export type AliasInput = Pick<typeof providerAliases.$inferInsert, 'nameKey' | 'name' | 'action' | 'providerKey' | 'providerName'>;

/** SQL of the provider alias overrides; every query filters on the organization. */
export function concentrationRepository(db: Db) {
  return {
    async overrides(orgId: string): Promise<AliasRow[]> {
      const rows = await db
        .select({ row: providerAliases, createdByName: users.name })
        .from(providerAliases)
        .leftJoin(users, eq(users.id, providerAliases.createdBy))
        .where(eq(providerAliases.orgId, orgId))
        .orderBy(asc(providerAliases.providerKey), asc(providerAliases.nameKey));
      return rows.map((r) => ({ ...r.row, createdByName: r.createdByName }));
    },
    /** Stores overrides (one per normalized name: a later one replaces it). */
    async upsert(orgId: string, userId: string, rows: AliasInput[]) {
      if (!rows.length) return;
      await db.transaction(async (tx) => {
        for (const r of rows) {
          await tx
            .insert(providerAliases)
            .values({ ...r, orgId, createdBy: userId })
            .onConflictDoUpdate({
              target: [providerAliases.orgId, providerAliases.nameKey],
              set: { name: r.name, action: r.action, providerKey: r.providerKey, providerName: r.providerName, createdBy: userId, createdAt: new Date() },
            });
        }
      });
    },
    /** Removes an override; false when there was none. */
    async remove(orgId: string, nameKey: string): Promise<boolean> {
      const rows = await db
        .delete(providerAliases)
        .where(and(eq(providerAliases.orgId, orgId), eq(providerAliases.nameKey, nameKey)))
        .returning({ k: providerAliases.nameKey });
      return rows.length > 0;
    },
  };
}
export type ConcentrationRepository = ReturnType<typeof concentrationRepository>;
