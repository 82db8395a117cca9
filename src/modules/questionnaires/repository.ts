import { and, asc, count, desc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import { type Db, withIdempotencyMark } from '../../db/client.js';
import type { Scope } from '../../domain/scope.js';
import { questionnaireAnswers, questionnaires } from '../../db/schema/index.js';
import type { AnswerValue, QuestionnaireStatus, SectionScore, Suggestion } from '../../db/schema/questionnaires.js';

export type QuestionnaireRow = typeof questionnaires.$inferSelect;
export type QuestionnaireInsert = typeof questionnaires.$inferInsert;
export type AnswerRow = typeof questionnaireAnswers.$inferSelect;

export const SORT_FIELDS = ['createdAt', 'updatedAt', 'title', 'status', 'dueDate', 'sentAt', 'submittedAt', 'completedAt'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** A vendor's answer to store: `value: null` clears the answer. */
export interface VendorAnswerWrite {
  questionId: string;
  value: AnswerValue | null;
  comment: string | null;
}

/** A reviewer's change to one answer: undefined leaves a field as it is, null clears it. */
export interface ReviewWrite {
  questionId: string;
  overrideValue?: AnswerValue | null;
  overrideScore?: number | null;
  note?: string | null;
}

/** All SQL of questionnaires and their answers. Every query is scoped by workspace or token hash. */
export function questionnairesRepository(db: Db) {
  const inWorkspace = (scope: Scope, id: string) => and(eq(questionnaires.workspaceId, scope.workspaceId), eq(questionnaires.id, id));

  return {
    async insert(values: QuestionnaireInsert): Promise<QuestionnaireRow> {
      // With an Idempotency-Key claim, marked in the same commit (src/db/client.ts).
      const [row] = await withIdempotencyMark(db, (tx) => tx.insert(questionnaires).values(values).returning());
      return row!;
    },

    async find(scope: Scope, id: string): Promise<QuestionnaireRow | null> {
      const [row] = await db.select().from(questionnaires).where(inWorkspace(scope, id));
      return row ?? null;
    },

    async findByTokenHash(tokenHash: string): Promise<QuestionnaireRow | null> {
      const [row] = await db.select().from(questionnaires).where(eq(questionnaires.tokenHash, tokenHash));
      return row ?? null;
    },

    async list(scope: Scope, opts: { status?: QuestionnaireStatus; sort: SortField; desc: boolean; limit: number; offset: number }) {
      const where = and(eq(questionnaires.workspaceId, scope.workspaceId), opts.status ? eq(questionnaires.status, opts.status) : undefined);
      const col = questionnaires[opts.sort];
      const order: SQL[] = [opts.desc ? sql`${col} desc nulls last` : sql`${col} asc nulls last`, opts.desc ? desc(questionnaires.id) : asc(questionnaires.id)];
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(questionnaires)
          .where(where)
          .orderBy(...order)
          .limit(opts.limit)
          .offset(opts.offset),
        db.select({ n: count() }).from(questionnaires).where(where),
      ]);
      return { rows, total: Number(total?.n ?? 0) };
    },

    /** Updates a questionnaire of the workspace; with `fromStatuses`, only while in one of them. */
    async update(
      scope: Scope,
      id: string,
      values: Partial<QuestionnaireInsert>,
      fromStatuses?: readonly QuestionnaireStatus[],
    ): Promise<QuestionnaireRow | null> {
      const [row] = await db
        .update(questionnaires)
        .set({ ...values, updatedAt: new Date() })
        .where(and(inWorkspace(scope, id), fromStatuses ? inArray(questionnaires.status, [...fromStatuses]) : undefined))
        .returning();
      return row ?? null;
    },

    async delete(scope: Scope, id: string): Promise<boolean> {
      const rows = await db.delete(questionnaires).where(inWorkspace(scope, id)).returning({ id: questionnaires.id });
      return rows.length > 0;
    },

    async answers(questionnaireId: string): Promise<AnswerRow[]> {
      return db.select().from(questionnaireAnswers).where(eq(questionnaireAnswers.questionnaireId, questionnaireId));
    },

    async answersOf(questionnaireIds: string[]): Promise<AnswerRow[]> {
      if (!questionnaireIds.length) return [];
      return db.select().from(questionnaireAnswers).where(inArray(questionnaireAnswers.questionnaireId, questionnaireIds));
    },

    /** The vendor's first look at the link (sets `first_opened_at` once). */
    async markOpened(id: string, at: Date): Promise<void> {
      await db
        .update(questionnaires)
        .set({ firstOpenedAt: sql`coalesce(${questionnaires.firstOpenedAt}, ${at.toISOString()}::timestamptz)`, lastVendorActivityAt: at })
        .where(eq(questionnaires.id, id));
    },

    /**
     * Saves the vendor's answers and moves the questionnaire (still holding `tokenHash`
     * and in one of `fromStatuses`) to `status`, in one transaction. Returns null when
     * the questionnaire moved on meanwhile (nothing is written then).
     */
    async saveVendorAnswers(input: {
      id: string;
      tokenHash: string;
      fromStatuses: readonly QuestionnaireStatus[];
      status: QuestionnaireStatus;
      answers: VendorAnswerWrite[];
      at: Date;
      submitted: boolean;
    }): Promise<QuestionnaireRow | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(questionnaires)
          .set({
            status: input.status,
            lastVendorActivityAt: input.at,
            firstOpenedAt: sql`coalesce(${questionnaires.firstOpenedAt}, ${input.at.toISOString()}::timestamptz)`,
            updatedAt: input.at,
            ...(input.submitted ? { submittedAt: input.at } : {}),
          })
          .where(and(eq(questionnaires.id, input.id), eq(questionnaires.tokenHash, input.tokenHash), inArray(questionnaires.status, [...input.fromStatuses])))
          .returning();
        if (!row) return null;
        if (input.answers.length) {
          // One multi-row upsert; `excluded` is the row that was proposed for insertion.
          await tx
            .insert(questionnaireAnswers)
            .values(
              input.answers.map((a) => ({
                questionnaireId: input.id,
                questionId: a.questionId,
                value: a.value,
                comment: a.comment,
                answeredAt: a.value === null && a.comment === null ? null : input.at,
                updatedAt: input.at,
              })),
            )
            .onConflictDoUpdate({
              target: [questionnaireAnswers.questionnaireId, questionnaireAnswers.questionId],
              set: { value: sql`excluded.value`, comment: sql`excluded.comment`, answeredAt: sql`excluded.answered_at`, updatedAt: sql`excluded.updated_at` },
            });
        }
        return row;
      });
    },

    /** Stores pre-fill suggestions (replacing earlier ones of the same questions). */
    async saveSuggestions(questionnaireId: string, suggestions: { questionId: string; suggestion: Suggestion | null }[], at: Date): Promise<void> {
      if (!suggestions.length) return;
      await db
        .insert(questionnaireAnswers)
        .values(suggestions.map((s) => ({ questionnaireId, questionId: s.questionId, suggestion: s.suggestion, updatedAt: at })))
        .onConflictDoUpdate({
          target: [questionnaireAnswers.questionnaireId, questionnaireAnswers.questionId],
          set: { suggestion: sql`excluded.suggestion`, updatedAt: sql`excluded.updated_at` },
        });
    },

    /**
     * Applies questionnaire changes and reviewer changes to answers in one
     * transaction, guarded by the expected status. Null when the status moved on.
     */
    async review(
      scope: Scope,
      input: {
        id: string;
        fromStatuses: readonly QuestionnaireStatus[];
        values: Partial<QuestionnaireInsert>;
        reviews: ReviewWrite[];
        reviewerId: string;
        at: Date;
      },
    ): Promise<QuestionnaireRow | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(questionnaires)
          .set({ ...input.values, updatedAt: input.at })
          .where(and(inWorkspace(scope, input.id), inArray(questionnaires.status, [...input.fromStatuses])))
          .returning();
        if (!row) return null;
        for (const r of input.reviews) {
          const set: Partial<typeof questionnaireAnswers.$inferInsert> = { reviewedBy: input.reviewerId, reviewedAt: input.at, updatedAt: input.at };
          if (r.overrideValue !== undefined) set.overrideValue = r.overrideValue;
          if (r.overrideScore !== undefined) set.overrideScore = r.overrideScore;
          if (r.note !== undefined) set.reviewerNote = r.note;
          await tx
            .insert(questionnaireAnswers)
            .values({ questionnaireId: input.id, questionId: r.questionId, ...set })
            .onConflictDoUpdate({ target: [questionnaireAnswers.questionnaireId, questionnaireAnswers.questionId], set });
        }
        return row;
      });
    },

    /** Drops answer rows of questions that no longer exist (questions edited while draft). */
    async pruneAnswers(questionnaireId: string, keepQuestionIds: string[]): Promise<void> {
      const where = keepQuestionIds.length
        ? and(eq(questionnaireAnswers.questionnaireId, questionnaireId), notInArray(questionnaireAnswers.questionId, keepQuestionIds))
        : eq(questionnaireAnswers.questionnaireId, questionnaireId);
      await db.delete(questionnaireAnswers).where(where);
    },

    /** The newest `complete` questionnaire of each workspace, in one query (register export). */
    async latestCompleteMany(workspaceIds: string[]): Promise<Pick<QuestionnaireRow, 'id' | 'workspaceId' | 'title' | 'score' | 'completedAt'>[]> {
      if (!workspaceIds.length) return [];
      return db
        .selectDistinctOn([questionnaires.workspaceId], {
          id: questionnaires.id,
          workspaceId: questionnaires.workspaceId,
          title: questionnaires.title,
          score: questionnaires.score,
          completedAt: questionnaires.completedAt,
        })
        .from(questionnaires)
        .where(and(inArray(questionnaires.workspaceId, workspaceIds), eq(questionnaires.status, 'complete')))
        .orderBy(questionnaires.workspaceId, desc(questionnaires.completedAt), desc(questionnaires.id));
    },

    /** The newest `complete` questionnaire of a workspace (for the register export). */
    async latestComplete(workspaceId: string): Promise<Pick<QuestionnaireRow, 'id' | 'title' | 'score' | 'completedAt' | 'sectionScores'> | null> {
      const [row] = await db
        .select({
          id: questionnaires.id,
          title: questionnaires.title,
          score: questionnaires.score,
          completedAt: questionnaires.completedAt,
          sectionScores: questionnaires.sectionScores,
        })
        .from(questionnaires)
        .where(and(eq(questionnaires.workspaceId, workspaceId), eq(questionnaires.status, 'complete')))
        .orderBy(desc(questionnaires.completedAt), desc(questionnaires.id))
        .limit(1);
      return row ?? null;
    },
  };
}
export type QuestionnairesRepository = ReturnType<typeof questionnairesRepository>;
export type { SectionScore };
