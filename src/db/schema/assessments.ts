import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { GapResult } from '../../domain/gap.js';
import type { Block } from '../../domain/blocks.js';
import { newId } from '../../lib/ids.js';
import { users } from './users.js';
import { workspaces } from './workspaces.js';

/** `pending` (queued) -> `running` -> `completed` | `failed` (docs/assessments.md). */
export const ASSESSMENT_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type AssessmentStatus = (typeof ASSESSMENT_STATUSES)[number];

export const RISK_RATINGS = ['low', 'medium', 'high', 'critical'] as const;
export type RiskRating = (typeof RISK_RATINGS)[number];

export interface AssessmentSummary {
  obligations: number;
  covered: number;
  partial: number;
  missing: number;
  documents: number;
  sentences: number;
  /** Key obligations without any evidence. */
  missingKey: string[];
  /** Why the risk rating is what it is. */
  riskReasons: string[];
  embedder: string | null;
  /** Who read the clauses: `offline`, or the model with how many of the verdicts passed its checks ("anthropic (28 of 30)"). */
  verdicts?: string;
  /** The engine's own score and rating, kept once an analyst's verdict changes them. */
  engineScore?: number;
  engineRiskRating?: RiskRating;
  /** Results whose status is the analyst's. */
  analystVerdicts?: number;
}

/**
 * A DORA gap assessment of a vendor workspace: uploaded documents, analysed by a job
 * into one result per obligation (`results`), a score (0-100) and a risk rating.
 */
export const assessments = pgTable(
  'assessments',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    framework: text('framework').notNull().default('DORA'),
    status: text('status').$type<AssessmentStatus>().notNull().default('pending'),
    score: integer('score'),
    riskRating: text('risk_rating').$type<RiskRating>(),
    summary: jsonb('summary').$type<AssessmentSummary>(),
    results: jsonb('results').$type<GapResult[]>(),
    errorMessage: text('error_message'),
    jobId: text('job_id'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** Signed off (docs/assessments.md): read-only from then on. */
    signedOffAt: timestamp('signed_off_at', { withTimezone: true }),
    signedOffBy: text('signed_off_by').references(() => users.id, { onDelete: 'set null' }),
    signOffNote: text('sign_off_note'),
  },
  (t) => [
    index('assessments_workspace_idx').on(t.workspaceId, t.createdAt),
    index('assessments_latest_complete_idx').on(t.workspaceId, t.status, t.completedAt),
    /** Signed-off assessments per vendor, newest first: the inventory's "without a signed-off assessment" filter and KPI. */
    index('assessments_signed_off_idx').on(t.workspaceId, t.signedOffAt).where(sql`${t.signedOffAt} IS NOT NULL`),
  ],
);

/** The documents of an assessment: what the parser extracted (the bytes are not kept). */
export const assessmentDocuments = pgTable(
  'assessment_documents',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    assessmentId: text('assessment_id')
      .notNull()
      .references(() => assessments.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    filename: text('filename').notNull(),
    format: text('format').notNull(),
    mimeType: text('mime_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    title: text('title'),
    pageCount: integer('page_count').notNull().default(1),
    charCount: integer('char_count').notNull(),
    blocks: jsonb('blocks').$type<Block[]>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('assessment_documents_assessment_idx').on(t.assessmentId, t.position)],
);

/** What an analyst did on an assessment: a verdict set or cleared, a comment, the sign-off. */
export const ASSESSMENT_REVIEW_KINDS = ['verdict', 'clear', 'comment', 'sign_off'] as const;
export type AssessmentReviewKind = (typeof ASSESSMENT_REVIEW_KINDS)[number];

/**
 * The review trail of an assessment (docs/assessments.md, "The analyst's verdict"): every
 * verdict, cleared verdict, comment and the sign-off, with who and when. Append-only.
 */
export const assessmentReviews = pgTable(
  'assessment_reviews',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    assessmentId: text('assessment_id')
      .notNull()
      .references(() => assessments.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Null for the sign-off. */
    obligationId: text('obligation_id'),
    kind: text('kind').$type<AssessmentReviewKind>().notNull(),
    /** The verdict set (`verdict`), the status restored (`clear`). */
    status: text('status'),
    /** For a verdict the engine's status it replaced. */
    previousStatus: text('previous_status'),
    text: text('text').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('assessment_reviews_assessment_idx').on(t.assessmentId, t.createdAt)],
);
