import { sql } from 'drizzle-orm';
import { boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { newId } from '../../lib/ids.js';
import { users } from './users.js';
import { workspaces } from './workspaces.js';

/** Lifecycle of a questionnaire (docs/questionnaires.md). */
export const QUESTIONNAIRE_STATUSES = ['draft', 'sent', 'in_progress', 'submitted', 'complete'] as const;
export type QuestionnaireStatus = (typeof QUESTIONNAIRE_STATUSES)[number];

/** Answer types of a question. */
export const ANSWER_TYPES = ['yes_no', 'text', 'date', 'number', 'choice'] as const;
export type AnswerType = (typeof ANSWER_TYPES)[number];

/** Values of a `yes_no` answer. */
export const YES_NO_VALUES = ['yes', 'no', 'partial', 'na'] as const;
export type YesNoValue = (typeof YES_NO_VALUES)[number];

/** How a number or date answer turns into points (0..1); docs/questionnaires.md. */
export type ScoringRule =
  /** Linear between `worst` (0 points) and `best` (1 point), clamped. Works in both directions. */
  | { kind: 'range'; best: number; worst: number }
  /** Date in the past: 1 point up to `fullWithinDays` old, 0 from `zeroAfterDays`, linear between; future dates 0. */
  | { kind: 'recency'; fullWithinDays: number; zeroAfterDays: number }
  /** Date in the future (e.g. a certificate's expiry): 1 point from `fullFromDays` ahead, 0 when past, linear between. */
  | { kind: 'validity'; fullFromDays: number };

export interface ChoiceOption {
  value: string;
  label: string;
  /** Points 0..1; null: the option is not scored (like `na`). */
  score: number | null;
}

/** One question, as stored on the questionnaire (a snapshot of the template or custom). */
export interface StoredQuestion {
  id: string;
  sectionId: string;
  text: string;
  help?: string;
  type: AnswerType;
  required: boolean;
  /** Weight inside its section (0 = informational, not scored). */
  weight: number;
  /** DORA articles (`Article <n>`) the question maps to. */
  articles: string[];
  /** Precise references, e.g. `Art. 30(2)(a)`. */
  references: string[];
  /** yes_no: whether `partial` / `na` may be answered. */
  allowPartial?: boolean;
  allowNa?: boolean;
  /** choice: options; `multiple` allows several (points = best option chosen). */
  options?: ChoiceOption[];
  multiple?: boolean;
  /** number: bounds and unit. */
  min?: number;
  max?: number;
  unit?: string;
  scoring?: ScoringRule;
  /** Pre-fill: search query and the terms a passage must show to propose `yes`. */
  prefillQuery?: string;
  evidenceTerms?: string[];
}

export interface StoredSection {
  id: string;
  title: string;
  description?: string;
  /** Weight of the section in the total (0 = not part of the total). */
  weight: number;
  articles: string[];
}

export type AnswerValue = string | number | string[];

export interface SuggestionCitation {
  sourceId: string;
  documentId: string;
  title: string;
  section: string;
  url: string;
  passage: string;
  score: number;
}

/** A pre-filled answer proposal from the vendor's indexed documents; never scored until confirmed. */
export interface Suggestion {
  value: AnswerValue | null;
  rationale: string;
  citations: SuggestionCitation[];
  createdAt: string;
}

/** Frozen per-section results (written when a questionnaire becomes `complete`). */
export interface SectionScore {
  sectionId: string;
  title: string;
  weight: number;
  score: number | null;
  answered: number;
  questions: number;
  scoredQuestions: number;
}

/**
 * A vendor questionnaire of a workspace. Questions and sections are a snapshot
 * (template or custom), editable while `draft`. The vendor's link token is stored
 * hashed; one live token per questionnaire.
 */
export const questionnaires = pgTable(
  'questionnaires',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    /** Template id and version (e.g. `dora-ict-tpp` / `1.0`), or null for custom questions. */
    templateId: text('template_id'),
    templateVersion: text('template_version'),
    sections: jsonb('sections').$type<StoredSection[]>().notNull(),
    questions: jsonb('questions').$type<StoredQuestion[]>().notNull(),
    status: text('status').$type<QuestionnaireStatus>().notNull().default('draft'),
    vendorContactEmail: text('vendor_contact_email'),
    vendorContactName: text('vendor_contact_name'),
    dueDate: date('due_date', { mode: 'string' }),
    /** Whether the vendor sees pre-fill suggestions (with their citations). */
    shareSuggestions: boolean('share_suggestions').notNull().default(false),
    /** Internal review notes; never shown to the vendor. */
    reviewerNotes: text('reviewer_notes'),
    tokenHash: text('token_hash'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    sendCount: integer('send_count').notNull().default(0),
    firstOpenedAt: timestamp('first_opened_at', { withTimezone: true }),
    lastVendorActivityAt: timestamp('last_vendor_activity_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    completedBy: text('completed_by').references(() => users.id, { onDelete: 'set null' }),
    /** Total score 0..100 frozen when complete (null before, or when nothing is scored). */
    score: doublePrecision('score'),
    sectionScores: jsonb('section_scores').$type<SectionScore[]>(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('questionnaires_workspace_idx').on(t.workspaceId, t.createdAt),
    index('questionnaires_complete_idx').on(t.workspaceId, t.completedAt).where(sql`${t.status} = 'complete'`),
    /** Outstanding questionnaires (sent, not complete) per vendor, by due date: the inventory's counts and KPIs. */
    index('questionnaires_outstanding_idx').on(t.workspaceId, t.dueDate).where(sql`${t.status} IN ('sent', 'in_progress', 'submitted')`),
    uniqueIndex('questionnaires_token_uidx').on(t.tokenHash),
  ],
);

/**
 * Answers, one row per question that has anything: the vendor's value and comment,
 * a pre-fill suggestion, and the reviewer's override / score / note.
 */
export const questionnaireAnswers = pgTable(
  'questionnaire_answers',
  {
    questionnaireId: text('questionnaire_id')
      .notNull()
      .references(() => questionnaires.id, { onDelete: 'cascade' }),
    questionId: text('question_id').notNull(),
    value: jsonb('value').$type<AnswerValue>(),
    comment: text('comment'),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    suggestion: jsonb('suggestion').$type<Suggestion>(),
    /** Reviewer's corrected value (same type as the question); scored instead of the vendor's. */
    overrideValue: jsonb('override_value').$type<AnswerValue>(),
    /** Reviewer's points 0..1 (wins over any value). */
    overrideScore: doublePrecision('override_score'),
    reviewerNote: text('reviewer_note'),
    reviewedBy: text('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.questionnaireId, t.questionId] })],
);
