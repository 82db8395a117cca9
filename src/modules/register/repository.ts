import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { businessFunctions, fxRates, registerAudit, registerEntitySettings } from '../../db/schema/register.js';
import { users } from '../../db/schema/users.js';
import type { EntitySettings } from '../../domain/register.js';

export type FunctionRow = typeof businessFunctions.$inferSelect;
export type FxRateRow = typeof fxRates.$inferSelect;
export type AuditRow = typeof registerAudit.$inferSelect & { changedByName: string | null };
/** One audited change (the repository writes it in the same transaction as the change). */
export interface AuditInput {
  kind: 'entity' | 'function' | 'fx_rate';
  subject: string;
  field: string;
  oldValue: string | null;
  newValue: string | null;
}

/** SQL of the register's own records (entity settings, functions, exchange rates, audit); every query filters on the organization. */
export function registerRepository(db: Db) {
  type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
  const audit = async (tx: Tx, orgId: string, userId: string, entries: AuditInput[]) => {
    if (entries.length) await tx.insert(registerAudit).values(entries.map((e) => ({ ...e, orgId, changedBy: userId })));
  };

  return {
    async entitySettings(orgId: string) {
      const [row] = await db.select().from(registerEntitySettings).where(eq(registerEntitySettings.orgId, orgId));
      return row ?? null;
    },
    /**
     * Replaces the stored settings with what `next` computes from the locked current values, and
     * audits the changes it returns, in one transaction.
     */
    async updateEntitySettings(
      orgId: string,
      userId: string,
      next: (current: Partial<EntitySettings>) => { values: Partial<EntitySettings>; changes: AuditInput[] },
    ) {
      return db.transaction(async (tx) => {
        await tx.insert(registerEntitySettings).values({ orgId }).onConflictDoNothing();
        const [cur] = await tx.select().from(registerEntitySettings).where(eq(registerEntitySettings.orgId, orgId)).for('update');
        const { values, changes } = next(cur?.values ?? {});
        const [row] = await tx
          .update(registerEntitySettings)
          .set({ values, ...(changes.length ? { updatedAt: new Date() } : {}) })
          .where(eq(registerEntitySettings.orgId, orgId))
          .returning();
        await audit(tx, orgId, userId, changes);
        return row!;
      });
    },

    /** The organization's functions in creation order (all, or one page: `offset`, `limit`), and how many there are. */
    async functions(orgId: string, page?: { offset: number; limit: number }): Promise<FunctionRow[]> {
      const q = db.select().from(businessFunctions).where(eq(businessFunctions.orgId, orgId)).orderBy(businessFunctions.createdAt, businessFunctions.code);
      return page ? q.offset(page.offset).limit(page.limit) : q;
    },
    async countFunctions(orgId: string): Promise<number> {
      const [c] = await db.select({ n: count() }).from(businessFunctions).where(eq(businessFunctions.orgId, orgId));
      return Number(c?.n ?? 0);
    },
    async functionById(orgId: string, id: string): Promise<FunctionRow | null> {
      const [row] = await db
        .select()
        .from(businessFunctions)
        .where(and(eq(businessFunctions.orgId, orgId), eq(businessFunctions.id, id)));
      return row ?? null;
    },
    /** Inserts a function with the next free code (F1, F2, …) of the organization. */
    async insertFunction(
      orgId: string,
      userId: string,
      values: Omit<typeof businessFunctions.$inferInsert, 'orgId' | 'code' | 'createdBy'>,
      changes: (code: string) => AuditInput[],
    ) {
      return db.transaction(async (tx) => {
        const codes = await tx.select({ code: businessFunctions.code }).from(businessFunctions).where(eq(businessFunctions.orgId, orgId)).for('update');
        const n = Math.max(0, ...codes.map((c) => Number(/^F(\d+)$/.exec(c.code)?.[1] ?? 0))) + 1;
        const [row] = await tx
          .insert(businessFunctions)
          .values({ ...values, orgId, code: `F${n}`, createdBy: userId })
          .returning();
        await audit(tx, orgId, userId, changes(row!.code));
        return row!;
      });
    },
    async updateFunction(orgId: string, userId: string, id: string, next: (cur: FunctionRow) => { values: Partial<FunctionRow>; changes: AuditInput[] }) {
      return db.transaction(async (tx) => {
        const [cur] = await tx
          .select()
          .from(businessFunctions)
          .where(and(eq(businessFunctions.orgId, orgId), eq(businessFunctions.id, id)))
          .for('update');
        if (!cur) return null;
        const { values, changes } = next(cur);
        const [row] = await tx
          .update(businessFunctions)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(businessFunctions.id, id))
          .returning();
        await audit(tx, orgId, userId, changes);
        return row!;
      });
    },
    async deleteFunction(orgId: string, userId: string, id: string, changes: (cur: FunctionRow) => AuditInput[]): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [cur] = await tx
          .delete(businessFunctions)
          .where(and(eq(businessFunctions.orgId, orgId), eq(businessFunctions.id, id)))
          .returning();
        if (!cur) return false;
        await audit(tx, orgId, userId, changes(cur));
        return true;
      });
    },

    /** Rates into a base currency (all, or one page), newest date first per currency, and how many there are. */
    async rates(orgId: string, baseCurrency: string, page?: { offset: number; limit: number }): Promise<FxRateRow[]> {
      const q = db
        .select()
        .from(fxRates)
        .where(and(eq(fxRates.orgId, orgId), eq(fxRates.baseCurrency, baseCurrency)))
        .orderBy(fxRates.currency, desc(fxRates.rateDate));
      return page ? q.offset(page.offset).limit(page.limit) : q;
    },
    async countRates(orgId: string, baseCurrency: string): Promise<number> {
      const [c] = await db
        .select({ n: count() })
        .from(fxRates)
        .where(and(eq(fxRates.orgId, orgId), eq(fxRates.baseCurrency, baseCurrency)));
      return Number(c?.n ?? 0);
    },
    /** Records (or replaces) a rate; audits the old and new value. */
    async upsertRate(orgId: string, userId: string, r: { baseCurrency: string; currency: string; rateDate: string; rate: number }) {
      return db.transaction(async (tx) => {
        const key = and(eq(fxRates.orgId, orgId), eq(fxRates.baseCurrency, r.baseCurrency), eq(fxRates.currency, r.currency), eq(fxRates.rateDate, r.rateDate));
        const [cur] = await tx.select().from(fxRates).where(key).for('update');
        const [row] = cur
          ? await tx.update(fxRates).set({ rate: r.rate, updatedBy: userId, updatedAt: new Date() }).where(key).returning()
          : await tx
              .insert(fxRates)
              .values({ ...r, orgId, updatedBy: userId })
              .returning();
        if (!cur || cur.rate !== r.rate)
          await audit(tx, orgId, userId, [
            {
              kind: 'fx_rate',
              subject: `${r.currency} ${r.rateDate}`,
              field: `rate in ${r.baseCurrency}`,
              oldValue: cur ? String(cur.rate) : null,
              newValue: String(r.rate),
            },
          ]);
        return row!;
      });
    },
    async deleteRate(orgId: string, userId: string, r: { baseCurrency: string; currency: string; rateDate: string }): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [cur] = await tx
          .delete(fxRates)
          .where(and(eq(fxRates.orgId, orgId), eq(fxRates.baseCurrency, r.baseCurrency), eq(fxRates.currency, r.currency), eq(fxRates.rateDate, r.rateDate)))
          .returning();
        if (!cur) return false;
        await audit(tx, orgId, userId, [
          { kind: 'fx_rate', subject: `${r.currency} ${r.rateDate}`, field: `rate in ${r.baseCurrency}`, oldValue: String(cur.rate), newValue: null },
        ]);
        return true;
      });
    },

    /** A page of the audit, newest first, with the name of who made each change. */
    async audit(orgId: string, offset: number, limit: number, kind?: string): Promise<{ rows: AuditRow[]; total: number }> {
      const where = kind ? and(eq(registerAudit.orgId, orgId), eq(registerAudit.kind, kind)) : eq(registerAudit.orgId, orgId);
      const rows = await db
        .select({ a: registerAudit, name: users.name })
        .from(registerAudit)
        .leftJoin(users, eq(users.id, registerAudit.changedBy))
        .where(where)
        .orderBy(desc(registerAudit.changedAt), desc(registerAudit.id))
        .offset(offset)
        .limit(limit);
      const [c] = await db.select({ n: count() }).from(registerAudit).where(where);
      return { rows: rows.map((r) => ({ ...r.a, changedByName: r.name })), total: Number(c?.n ?? 0) };
    },
  };
}
export type RegisterRepository = ReturnType<typeof registerRepository>;
