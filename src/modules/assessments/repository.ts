import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Scope } from '../../domain/scope.js';
import {
  assessmentDocuments,
  assessmentReviews,
  assessments,
  users,
  type AssessmentReviewKind,
  type AssessmentStatus,
  type AssessmentSummary,
  type RiskRating,
} from '../../db/schema/index.js';
import type { GapResult } from '../../domain/gap.js';
import type { Block } from '../../domain/blocks.js';

export type AssessmentRow = typeof assessments.$inferSelect;
export type AssessmentDocumentRow = typeof assessmentDocuments.$inferSelect;
export type AssessmentListRow = Omit<AssessmentRow, 'results'>;
export type AssessmentReviewRow = typeof assessmentReviews.$inferSelect & { userName: string | null };
/** What one review step writes: the assessment's new state and the trail entry. */
export interface ReviewChange {
  assessment?: Partial<Pick<AssessmentRow, 'results' | 'score' | 'riskRating' | 'summary' | 'signedOffAt' | 'signedOffBy' | 'signOffNote'>>;
  entry: { obligationId: string | null; kind: AssessmentReviewKind; status?: string | null; previousStatus?: string | null; text: string };
}
export type DocumentMeta = Omit<AssessmentDocumentRow, 'blocks'>;
/** A gap as the register reads it. */
export type RegisterGap = Pick<GapResult, 'ref' | 'title' | 'status' | 'key' | 'elements'>;

export interface NewDocument {
  filename: string;
  format: string;
  mimeType: string;
  sizeBytes: number;
  sha256: string;
  title: string | null;
  pageCount: number;
  charCount: number;
  blocks: Block[];
}

const listColumns = {
  id: assessments.id,
  workspaceId: assessments.workspaceId,
  name: assessments.name,
  framework: assessments.framework,
  status: assessments.status,
  score: assessments.score,
  riskRating: assessments.riskRating,
  summary: assessments.summary,
  errorMessage: assessments.errorMessage,
  jobId: assessments.jobId,
  createdBy: assessments.createdBy,
  createdAt: assessments.createdAt,
  updatedAt: assessments.updatedAt,
  startedAt: assessments.startedAt,
  completedAt: assessments.completedAt,
  signedOffAt: assessments.signedOffAt,
  signedOffBy: assessments.signedOffBy,
  signOffNote: assessments.signOffNote,
};

const documentColumns = {
  id: assessmentDocuments.id,
  assessmentId: assessmentDocuments.assessmentId,
  workspaceId: assessmentDocuments.workspaceId,
  position: assessmentDocuments.position,
  filename: assessmentDocuments.filename,
  format: assessmentDocuments.format,
  mimeType: assessmentDocuments.mimeType,
  sizeBytes: assessmentDocuments.sizeBytes,
  sha256: assessmentDocuments.sha256,
  title: assessmentDocuments.title,
  pageCount: assessmentDocuments.pageCount,
  charCount: assessmentDocuments.charCount,
  createdAt: assessmentDocuments.createdAt,
};

export const SORT_FIELDS = {
  createdAt: assessments.createdAt,
  completedAt: assessments.completedAt,
  name: assessments.name,
  score: assessments.score,
  status: assessments.status,
} as const;
export type SortField = keyof typeof SORT_FIELDS;

/** All SQL of assessments and their documents. Every query is scoped by workspace. */
export function assessmentsRepository(db: Db) {
  return {
    /** The assessment and its documents, in one transaction. */
    async insert(values: { workspaceId: string; name: string; createdBy: string }, docs: NewDocument[]): Promise<AssessmentRow> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(assessments).values(values).returning();
        if (docs.length) {
          await tx.insert(assessmentDocuments).values(docs.map((d, i) => ({ ...d, assessmentId: row!.id, workspaceId: values.workspaceId, position: i })));
        }
        return row!;
      });
    },

    async setJob(id: string, jobId: string) {
      await db.update(assessments).set({ jobId, updatedAt: new Date() }).where(eq(assessments.id, id));
    },

    async list(scope: Scope, q: { page: number; limit: number; status?: AssessmentStatus; sort: SortField; desc: boolean }) {
      const where = and(eq(assessments.workspaceId, scope.workspaceId), q.status ? eq(assessments.status, q.status) : undefined);
      const col = SORT_FIELDS[q.sort];
      const order: SQL[] = [q.desc ? sql`${col} desc nulls last` : sql`${col} asc nulls last`, desc(assessments.id)];
      const rows = await db
        .select(listColumns)
        .from(assessments)
        .where(where)
        .orderBy(...order)
        .limit(q.limit)
        .offset((q.page - 1) * q.limit);
      const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(assessments).where(where);
      return { rows: rows as AssessmentListRow[], total: Number(count?.n ?? 0) };
    },

    async get(scope: Scope, id: string): Promise<AssessmentRow | null> {
      const [row] = await db
        .select()
        .from(assessments)
        .where(and(eq(assessments.workspaceId, scope.workspaceId), eq(assessments.id, id)));
      return row ?? null;
    },

    /** For the job: the assessment without a workspace scope (the job carries the id only). */
    async byId(id: string): Promise<AssessmentRow | null> {
      const [row] = await db.select().from(assessments).where(eq(assessments.id, id));
      return row ?? null;
    },

    async documents(assessmentId: string): Promise<DocumentMeta[]> {
      return db
        .select(documentColumns)
        .from(assessmentDocuments)
        .where(eq(assessmentDocuments.assessmentId, assessmentId))
        .orderBy(asc(assessmentDocuments.position));
    },

    /** One document of an assessment with its extracted text blocks. */
    async document(assessmentId: string, documentId: string): Promise<AssessmentDocumentRow | null> {
      const [row] = await db
        .select()
        .from(assessmentDocuments)
        .where(and(eq(assessmentDocuments.assessmentId, assessmentId), eq(assessmentDocuments.id, documentId)));
      return row ?? null;
    },

    async documentsWithText(assessmentId: string): Promise<AssessmentDocumentRow[]> {
      return db.select().from(assessmentDocuments).where(eq(assessmentDocuments.assessmentId, assessmentId)).orderBy(asc(assessmentDocuments.position));
    },

    /** pending|failed -> running; false when the assessment is gone or already running/completed. */
    async markRunning(id: string): Promise<boolean> {
      const rows = await db
        .update(assessments)
        .set({ status: 'running', startedAt: new Date(), updatedAt: new Date(), errorMessage: null })
        .where(and(eq(assessments.id, id), inArray(assessments.status, ['pending', 'failed', 'running'])))
        .returning({ id: assessments.id });
      return rows.length > 0;
    },

    async complete(id: string, v: { score: number; riskRating: RiskRating; summary: AssessmentSummary; results: GapResult[] }) {
      await db
        .update(assessments)
        .set({ ...v, status: 'completed', completedAt: new Date(), updatedAt: new Date(), errorMessage: null })
        .where(eq(assessments.id, id));
    },

    /**
     * One review step in one transaction: the assessment is read locked (two analysts'
     * verdicts never overwrite each other's results), `change` decides what to write from
     * it (or throws), and the trail entry is appended. Returns the assessment as written.
     */
    async review(
      scope: Scope,
      id: string,
      change: (row: AssessmentRow, user: { id: string; name: string | null }) => ReviewChange,
    ): Promise<{ row: AssessmentRow; entry: AssessmentReviewRow } | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(assessments)
          .where(and(eq(assessments.workspaceId, scope.workspaceId), eq(assessments.id, id)))
          .for('update');
        if (!row) return null;
        const [user] = await tx.select({ name: users.name }).from(users).where(eq(users.id, scope.userId));
        const c = change(row, { id: scope.userId, name: user?.name ?? null });
        const now = new Date();
        let written = row;
        if (c.assessment) {
          const [updated] = await tx
            .update(assessments)
            .set({ ...c.assessment, updatedAt: now })
            .where(eq(assessments.id, id))
            .returning();
          written = updated!;
        }
        const [entry] = await tx
          .insert(assessmentReviews)
          .values({ ...c.entry, assessmentId: id, workspaceId: scope.workspaceId, userId: scope.userId, createdAt: now })
          .returning();
        return { row: written, entry: { ...entry!, userName: user?.name ?? null } };
      });
    },

    /** The review trail of an assessment, oldest first, with the names of who did what (all of it, or one page). */
    async reviews(scope: Scope, id: string, page?: { limit: number; offset: number }): Promise<AssessmentReviewRow[]> {
      const q = db
        .select({ r: assessmentReviews, userName: users.name })
        .from(assessmentReviews)
        .leftJoin(users, eq(users.id, assessmentReviews.userId))
        .where(and(eq(assessmentReviews.workspaceId, scope.workspaceId), eq(assessmentReviews.assessmentId, id)))
        .orderBy(asc(assessmentReviews.createdAt), asc(assessmentReviews.id));
      const rows = page ? await q.limit(page.limit).offset(page.offset) : await q;
      return rows.map((x) => ({ ...x.r, userName: x.userName ?? null }));
    },

    async countReviews(scope: Scope, id: string): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(assessmentReviews)
        .where(and(eq(assessmentReviews.workspaceId, scope.workspaceId), eq(assessmentReviews.assessmentId, id)));
      return Number(row?.n ?? 0);
    },

    /** Names of users (who signed assessments off), by id. */
    async userNames(ids: (string | null)[]): Promise<Map<string, string>> {
      const wanted = [...new Set(ids.filter((x): x is string => !!x))];
      if (!wanted.length) return new Map();
      const rows = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, wanted));
      return new Map(rows.map((r) => [r.id, r.name]));
    },

    async fail(id: string, message: string) {
      await db.update(assessments).set({ status: 'failed', errorMessage: message, updatedAt: new Date() }).where(eq(assessments.id, id));
    },

    async delete(scope: Scope, id: string): Promise<boolean> {
      const rows = await db
        .delete(assessments)
        .where(and(eq(assessments.workspaceId, scope.workspaceId), eq(assessments.id, id)))
        .returning({ id: assessments.id });
      return rows.length > 0;
    },

    /**
     * The latest completed assessment of each workspace with its gaps only (partial or
     * missing results, without evidence), in one query (register export).
     */
    /** Latest completed assessment of each workspace, without its results (portfolio). */
    async latestCompleteMany(workspaceIds: string[]) {
      if (!workspaceIds.length) return [];
      return db
        .selectDistinctOn([assessments.workspaceId], {
          id: assessments.id,
          workspaceId: assessments.workspaceId,
          name: assessments.name,
          score: assessments.score,
          riskRating: assessments.riskRating,
          completedAt: assessments.completedAt,
          summary: assessments.summary,
        })
        .from(assessments)
        .where(and(inArray(assessments.workspaceId, workspaceIds), eq(assessments.status, 'completed')))
        .orderBy(assessments.workspaceId, desc(assessments.completedAt), desc(assessments.id));
    },

    async latestCompleteGaps(workspaceIds: string[]) {
      if (!workspaceIds.length) return [];
      const gaps = sql<
        RegisterGap[]
      >`coalesce((select jsonb_agg(jsonb_build_object('ref', r->'ref', 'title', r->'title', 'status', r->'status', 'key', r->'key', 'elements', r->'elements')) from jsonb_array_elements(${assessments.results}) r where r->>'status' <> 'covered'), '[]'::jsonb)`;
      return db
        .selectDistinctOn([assessments.workspaceId], {
          id: assessments.id,
          workspaceId: assessments.workspaceId,
          name: assessments.name,
          score: assessments.score,
          riskRating: assessments.riskRating,
          completedAt: assessments.completedAt,
          gaps,
        })
        .from(assessments)
        .where(and(inArray(assessments.workspaceId, workspaceIds), eq(assessments.status, 'completed')))
        .orderBy(assessments.workspaceId, desc(assessments.completedAt), desc(assessments.id));
    },
  };
}
export type AssessmentsRepository = ReturnType<typeof assessmentsRepository>;
