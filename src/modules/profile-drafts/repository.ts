import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { Scope } from '../../domain/scope.js';
import type { Db } from '../../db/client.js';
import { profileDrafts } from '../../db/schema/index.js';
import type { DraftFieldState, DraftSummary } from '../../domain/profileDrafts.js';

export type ProfileDraftRow = typeof profileDrafts.$inferSelect;

/** SQL of the register drafts (docs/register-drafting.md); every scoped read filters on the workspace. */
export function profileDraftsRepository(db: Db) {
  return {
    async insert(v: { workspaceId: string; createdBy: string; extractor: string }): Promise<ProfileDraftRow> {
      const [row] = await db.insert(profileDrafts).values(v).returning();
      return row!;
    },
    async setJob(id: string, jobId: string) {
      await db.update(profileDrafts).set({ jobId }).where(eq(profileDrafts.id, id));
    },
    /** Unscoped read by id: for the job, which has no caller. */
    async byId(id: string): Promise<ProfileDraftRow | null> {
      const [row] = await db.select().from(profileDrafts).where(eq(profileDrafts.id, id));
      return row ?? null;
    },
    async get(scope: Scope, id: string): Promise<ProfileDraftRow | null> {
      const [row] = await db
        .select()
        .from(profileDrafts)
        .where(and(eq(profileDrafts.workspaceId, scope.workspaceId), eq(profileDrafts.id, id)));
      return row ?? null;
    },
    async list(scope: Scope, offset: number, limit: number): Promise<{ rows: ProfileDraftRow[]; total: number }> {
      const where = eq(profileDrafts.workspaceId, scope.workspaceId);
      const rows = await db
        .select()
        .from(profileDrafts)
        .where(where)
        .orderBy(desc(profileDrafts.createdAt), desc(profileDrafts.id))
        .offset(offset)
        .limit(limit);
      const [c] = await db.select({ n: count() }).from(profileDrafts).where(where);
      return { rows, total: Number(c?.n ?? 0) };
    },
    /** A draft still queued or running for the workspace (one at a time). */
    async active(scope: Scope): Promise<ProfileDraftRow | null> {
      const [row] = await db
        .select()
        .from(profileDrafts)
        .where(and(eq(profileDrafts.workspaceId, scope.workspaceId), inArray(profileDrafts.status, ['pending', 'running'])))
        .limit(1);
      return row ?? null;
    },
    async markRunning(id: string): Promise<boolean> {
      const rows = await db
        .update(profileDrafts)
        .set({ status: 'running', startedAt: new Date(), updatedAt: new Date(), errorMessage: null })
        .where(and(eq(profileDrafts.id, id), inArray(profileDrafts.status, ['pending', 'running', 'failed'])))
        .returning({ id: profileDrafts.id });
      return rows.length > 0;
    },
    async complete(id: string, v: { fields: DraftFieldState[]; summary: DraftSummary }) {
      await db
        .update(profileDrafts)
        .set({ ...v, status: 'completed', completedAt: new Date(), updatedAt: new Date(), errorMessage: null })
        .where(eq(profileDrafts.id, id));
    },
    async fail(id: string, message: string) {
      await db.update(profileDrafts).set({ status: 'failed', errorMessage: message, updatedAt: new Date() }).where(eq(profileDrafts.id, id));
    },
    /**
     * Records decisions on the draft's fields, applied to the locked row: decisions taken at the
     * same time on other fields of the draft (two analysts, two quick clicks) are kept.
     */
    async recordDecisions(scope: Scope, id: string, decisions: Map<string, DraftFieldState['decision']>) {
      await db.transaction(async (tx) => {
        const [row] = await tx
          .select({ fields: profileDrafts.fields })
          .from(profileDrafts)
          .where(and(eq(profileDrafts.workspaceId, scope.workspaceId), eq(profileDrafts.id, id)))
          .for('update');
        if (!row?.fields) return;
        const fields = row.fields.map((f) => (decisions.has(f.field) ? { ...f, decision: decisions.get(f.field)! } : f));
        await tx.update(profileDrafts).set({ fields, updatedAt: new Date() }).where(eq(profileDrafts.id, id));
      });
    },
  };
}
export type ProfileDraftsRepository = ReturnType<typeof profileDraftsRepository>;
