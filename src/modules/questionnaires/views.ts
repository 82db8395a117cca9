import { TEMPLATES } from '../../compliance/questionnaire-template.js';
import type { QuestionnaireStatus, SectionScore, StoredQuestion } from '../../db/schema/questionnaires.js';
import type { ClaimFlag } from './claims.js';
import type { AnswerRow, QuestionnaireRow } from './repository.js';
import { scoreQuestionnaire, type ScoredAnswer, type ScoreResult } from './scoring.js';

/**
 * What the API shows of a questionnaire: the analyst's list and detail views, the
 * vendor's view through the link, and the templates. Pure functions of stored rows.
 */

/** Statuses in which the vendor may still write through the link. */
export const VENDOR_WRITABLE: readonly QuestionnaireStatus[] = ['sent', 'in_progress'];
/** Statuses in which the vendor's link opens (read-only once submitted). */
export const VENDOR_VISIBLE: readonly QuestionnaireStatus[] = ['sent', 'in_progress', 'submitted', 'complete'];

/** YYYY-MM-DD of a moment (today by default). */
export const today = (at = new Date()) => at.toISOString().slice(0, 10);
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function answerMap(rows: AnswerRow[]): Map<string, AnswerRow> {
  return new Map(rows.map((r) => [r.questionId, r]));
}

/** Date that date answers are scored against: the submission date once submitted. */
function scoringDate(row: QuestionnaireRow): string {
  return today(row.submittedAt ?? new Date());
}

export function score(row: QuestionnaireRow, answers: Map<string, ScoredAnswer>): ScoreResult {
  return scoreQuestionnaire(row.sections, row.questions, answers, scoringDate(row));
}

function progress(row: QuestionnaireRow, answers: Map<string, AnswerRow>) {
  const has = (id: string) => {
    const v = answers.get(id)?.value;
    return v !== null && v !== undefined;
  };
  const required = row.questions.filter((q) => q.required);
  return {
    questions: row.questions.length,
    answered: row.questions.filter((q) => has(q.id)).length,
    required: required.length,
    requiredAnswered: required.filter((q) => has(q.id)).length,
  };
}

function linkState(row: QuestionnaireRow, now = new Date()) {
  const live = !!row.tokenHash && !!row.tokenExpiresAt && row.tokenExpiresAt > now && VENDOR_VISIBLE.includes(row.status);
  return {
    active: live,
    /** The vendor's link: only in the response of the send that issued it (the token is stored hashed). */
    url: null as string | null,
    writable: live && VENDOR_WRITABLE.includes(row.status),
    expiresAt: iso(row.tokenExpiresAt),
    sentAt: iso(row.sentAt),
    sendCount: row.sendCount,
    firstOpenedAt: iso(row.firstOpenedAt),
    lastVendorActivityAt: iso(row.lastVendorActivityAt),
  };
}

function scoringView(row: QuestionnaireRow, s: ScoreResult) {
  const final = row.status === 'complete' && row.sectionScores !== null;
  return {
    method: s.method,
    final,
    total: final ? row.score : s.total,
    sections: final ? (row.sectionScores as SectionScore[]) : s.sections,
    scoredAt: s.scoredAt,
  };
}

function answerView(a: AnswerRow | undefined) {
  return a && (a.value !== null || a.comment !== null) ? { value: a.value, comment: a.comment, answeredAt: iso(a.answeredAt) } : null;
}

/** What anyone answering may see of a question (no weights, no scoring rules). */
function publicQuestion(q: StoredQuestion) {
  return {
    id: q.id,
    sectionId: q.sectionId,
    text: q.text,
    help: q.help ?? null,
    type: q.type,
    required: q.required,
    articles: q.articles,
    references: q.references,
    ...(q.type === 'yes_no' ? { allowPartial: q.allowPartial !== false, allowNa: q.allowNa !== false } : {}),
    ...(q.type === 'choice' ? { options: (q.options ?? []).map((o) => ({ value: o.value, label: o.label })), multiple: !!q.multiple } : {}),
    ...(q.type === 'number' ? { min: q.min ?? null, max: q.max ?? null, unit: q.unit ?? null } : {}),
  };
}

/** A questionnaire in the analyst's list. */
export function summaryView(row: QuestionnaireRow, answers: AnswerRow[]) {
  const map = answerMap(answers);
  const s = score(row, map);
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    template: row.templateId ? { id: row.templateId, version: row.templateVersion ?? '' } : null,
    vendorContact: row.vendorContactEmail ? { email: row.vendorContactEmail, name: row.vendorContactName } : null,
    dueDate: row.dueDate,
    score: row.status === 'complete' ? row.score : s.total,
    progress: progress(row, map),
    sentAt: iso(row.sentAt),
    submittedAt: iso(row.submittedAt),
    completedAt: iso(row.completedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
export type QuestionnaireSummary = ReturnType<typeof summaryView>;

/** The claims check of a questionnaire: whether the documents were read, and the flags by question id. */
export interface ClaimsCheck {
  checked: boolean;
  flags: Map<string, ClaimFlag>;
}

/**
 * A questionnaire for the analyst: questions with answers, suggestions, reviews and points, and
 * the answers the vendor's documents contradict or limit (`claims`, each question's `claim`).
 */
export function detailView(row: QuestionnaireRow, answers: AnswerRow[], claims: ClaimsCheck = { checked: false, flags: new Map() }) {
  const map = answerMap(answers);
  const s = score(row, map);
  const points = new Map(s.questions.map((r) => [r.questionId, r]));
  return {
    ...summaryView(row, answers),
    description: row.description,
    shareSuggestions: row.shareSuggestions,
    reviewerNotes: row.reviewerNotes,
    link: linkState(row),
    claims: { checked: claims.checked, flagged: claims.flags.size },
    completedBy: row.completedBy,
    createdBy: row.createdBy,
    scoring: scoringView(row, s),
    sections: row.sections,
    questions: row.questions.map((q) => {
      const a = map.get(q.id);
      const r = points.get(q.id);
      return {
        ...publicQuestion(q),
        weight: q.weight,
        ...(q.scoring ? { scoring: q.scoring } : {}),
        options: q.options,
        answer: answerView(a),
        suggestion: a?.suggestion ?? null,
        review:
          a && (a.overrideValue !== null || a.overrideScore !== null || a.reviewerNote !== null)
            ? { overrideValue: a.overrideValue, overrideScore: a.overrideScore, note: a.reviewerNote, reviewedBy: a.reviewedBy, reviewedAt: iso(a.reviewedAt) }
            : null,
        points: r?.points ?? null,
        basis: r?.basis ?? 'unscored',
        claim: claims.flags.get(q.id) ?? null,
      };
    }),
  };
}
export type QuestionnaireDetail = ReturnType<typeof detailView>;

/** The vendor's view through the link: no weights, scores or reviews; suggestions only when shared. */
export function vendorView(row: QuestionnaireRow, answers: AnswerRow[], requester: string | null) {
  const map = answerMap(answers);
  const submitted = row.status === 'submitted' || row.status === 'complete';
  return {
    title: row.title,
    description: row.description,
    requester,
    status: submitted ? ('submitted' as const) : ('open' as const),
    readOnly: submitted,
    dueDate: row.dueDate,
    expiresAt: row.tokenExpiresAt!.toISOString(),
    submittedAt: iso(row.submittedAt),
    progress: progress(row, map),
    sections: row.sections.map((s) => ({ id: s.id, title: s.title, description: s.description ?? null })),
    questions: row.questions.map((q) => {
      const a = map.get(q.id);
      const sug = row.shareSuggestions && !submitted ? a?.suggestion : null;
      return {
        ...publicQuestion(q),
        answer: answerView(a),
        suggestion: sug ? { value: sug.value, rationale: sug.rationale, citations: sug.citations.map((c) => ({ title: c.title, passage: c.passage })) } : null,
      };
    }),
  };
}
export type VendorQuestionnaireView = ReturnType<typeof vendorView>;

/** Every template: sections with question counts, questions with weights and scoring rules. */
export function templatesView() {
  return Object.values(TEMPLATES).map((t) => ({
    id: t.id,
    version: t.version,
    title: t.title,
    description: t.description,
    questionCount: t.questions.length,
    sections: t.sections.map((s) => ({ ...s, questionCount: t.questions.filter((q) => q.sectionId === s.id).length })),
    questions: t.questions.map((q) => ({ ...publicQuestion(q), weight: q.weight, ...(q.scoring ? { scoring: q.scoring } : {}), options: q.options })),
  }));
}
export type TemplateView = ReturnType<typeof templatesView>[number];
