import type { AnswerValue, QuestionnaireStatus } from '../../db/schema/questionnaires.js';
import type { Scope } from '../../domain/scope.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { checkAnswerValue, composeQuestions, normalizeValue, type QuestionInput, type SectionInput } from './questions.js';
import type { AnswerRow, QuestionnaireInsert, QuestionnaireRow, QuestionnairesRepository, ReviewWrite } from './repository.js';
import type { ScoredAnswer } from './scoring.js';
import { answerMap, type ClaimsCheck, type QuestionnaireDetail, score, today } from './views.js';

/**
 * The analyst's edit of a questionnaire (PATCH): its fields, its questions while a draft, the
 * reviews of a submitted questionnaire's answers, and the status moves to `complete` (which
 * freezes the score) and back (docs/questionnaires.md).
 */

export interface UpdateInput {
  title?: string;
  description?: string | null;
  dueDate?: string | null;
  vendorContact?: { email: string; name?: string } | null;
  shareSuggestions?: boolean;
  reviewerNotes?: string | null;
  template?: string;
  templateSections?: string[];
  sections?: SectionInput[];
  questions?: QuestionInput[];
  reviews?: { questionId: string; overrideValue?: AnswerValue | null; overrideScore?: number | null; note?: string | null; acceptSuggestion?: boolean }[];
  status?: QuestionnaireStatus;
}

/** Status moves through PATCH (the others happen by sending, answering and submitting). */
const PATCH_TRANSITIONS: Record<QuestionnaireStatus, QuestionnaireStatus[]> = {
  draft: [],
  sent: [],
  in_progress: [],
  submitted: ['complete', 'in_progress'],
  complete: ['submitted'],
};

const reviewerNoteRequired = (flagged: number) =>
  badRequest(`reviewerNotes: a reviewer note is required to complete a questionnaire with ${flagged} flagged answer(s)`, [
    `reviewerNotes: is required to complete: ${flagged} answer(s) are contradicted or limited by the vendor's documents`,
  ]);

/** Reviewer changes checked against the questions and answers; 400 listing every problem. */
function checkReviews(row: QuestionnaireRow, answers: Map<string, AnswerRow>, reviews: NonNullable<UpdateInput['reviews']>): ReviewWrite[] {
  const problems: string[] = [];
  const byId = new Map(row.questions.map((q) => [q.id, q]));
  const seen = new Set<string>();
  const out: ReviewWrite[] = [];
  reviews.forEach((r, i) => {
    const at = `reviews.${i}`;
    const q = byId.get(r.questionId);
    if (!q) return problems.push(`${at}.questionId: unknown question ${r.questionId}`);
    if (seen.has(r.questionId)) return problems.push(`${at}.questionId: ${r.questionId} appears twice`);
    seen.add(r.questionId);
    const w: ReviewWrite = { questionId: q.id };
    let value = r.overrideValue;
    if (r.acceptSuggestion) {
      if (value !== undefined) return problems.push(`${at}: give either overrideValue or acceptSuggestion`);
      const s = answers.get(q.id)?.suggestion;
      if (!s || s.value === null) return problems.push(`${at}.acceptSuggestion: question ${q.id} has no suggested value`);
      value = s.value;
    }
    if (value !== undefined && value !== null) {
      const p = checkAnswerValue(q, value, today(row.submittedAt ?? new Date()));
      if (p) return problems.push(`${at}.overrideValue: ${p}`);
      w.overrideValue = normalizeValue(q, value);
    } else if (value === null) w.overrideValue = null;
    if (r.overrideScore !== undefined) {
      if (r.overrideScore !== null && !(q.weight > 0)) return problems.push(`${at}.overrideScore: question ${q.id} is not scored (weight 0)`);
      w.overrideScore = r.overrideScore;
    }
    if (r.note !== undefined) w.note = r.note === null ? null : r.note.trim() || null;
    out.push(w);
  });
  if (problems.length) throw badRequest(problems.join('; '), problems);
  return out;
}

/** The score frozen at completion: the stored answers with this request's reviews applied. */
function frozenScore(row: QuestionnaireRow, answers: Map<string, AnswerRow>, reviews: ReviewWrite[]) {
  const merged = new Map<string, ScoredAnswer>(
    [...answers].map(([k, a]) => [k, { value: a.value, overrideValue: a.overrideValue, overrideScore: a.overrideScore }]),
  );
  for (const r of reviews) {
    const cur = merged.get(r.questionId) ?? {};
    merged.set(r.questionId, {
      ...cur,
      ...(r.overrideValue !== undefined ? { overrideValue: r.overrideValue } : {}),
      ...(r.overrideScore !== undefined ? { overrideScore: r.overrideScore } : {}),
    });
  }
  return score(row, merged);
}

/**
 * The write of a PATCH: changed fields, questions (draft only), reviews (submitted only)
 * and a status move; completing freezes the score with this request's reviews applied.
 */
function patchOf(row: QuestionnaireRow, answers: Map<string, AnswerRow>, input: UpdateInput, userId: string) {
  const values: Partial<QuestionnaireInsert> = {};
  if (input.title !== undefined) values.title = input.title.trim();
  if (input.description !== undefined) values.description = input.description;
  if (input.dueDate !== undefined) values.dueDate = input.dueDate;
  if (input.vendorContact !== undefined) {
    values.vendorContactEmail = input.vendorContact?.email.toLowerCase() ?? null;
    values.vendorContactName = input.vendorContact?.name?.trim() || null;
  }
  if (input.shareSuggestions !== undefined) values.shareSuggestions = input.shareSuggestions;
  if (input.reviewerNotes !== undefined) values.reviewerNotes = input.reviewerNotes;

  const editsQuestions = input.questions !== undefined || input.sections !== undefined || input.template !== undefined || input.templateSections !== undefined;
  if (editsQuestions) {
    if (row.status !== 'draft')
      throw conflict(`Questions can be changed only while the questionnaire is a draft (it is ${row.status})`, 'QUESTIONNAIRE_NOT_EDITABLE');
    const composed = composeQuestions({
      template: input.template,
      templateSections: input.templateSections,
      sections: input.sections,
      questions: input.questions,
    });
    values.sections = composed.sections;
    values.questions = composed.questions;
    values.templateId = composed.template?.id ?? null;
    values.templateVersion = composed.template?.version ?? null;
  }

  let reviews: ReviewWrite[] = [];
  if (input.reviews?.length) {
    if (row.status !== 'submitted')
      throw conflict(`Answers can be reviewed only while the questionnaire is submitted (it is ${row.status})`, 'QUESTIONNAIRE_NOT_IN_REVIEW');
    reviews = checkReviews(row, answers, input.reviews);
  }

  const target = input.status;
  if (target !== undefined && target !== row.status) {
    if (!PATCH_TRANSITIONS[row.status].includes(target)) {
      throw conflict(
        `Cannot move a questionnaire from ${row.status} to ${target}${target === 'sent' ? ': use POST /questionnaires/:id/send' : ''}`,
        'INVALID_STATUS_TRANSITION',
      );
    }
    values.status = target;
    if (target === 'complete') {
      const s = frozenScore(row, answers, reviews);
      values.score = s.total;
      values.sectionScores = s.sections;
      values.completedAt = new Date();
      values.completedBy = userId;
    } else {
      values.score = null;
      values.sectionScores = null;
      values.completedAt = null;
      values.completedBy = null;
    }
  }
  return { values, reviews, editsQuestions };
}

export function questionnaireReview(deps: {
  repo: QuestionnairesRepository;
  /** A questionnaire of the workspace (404 otherwise). */
  load(scope: Scope, id: string): Promise<QuestionnaireRow>;
  /** The vendor's `yes` answers checked against the workspace's documents. */
  claimsOf(row: QuestionnaireRow, answers: Map<string, AnswerRow>): Promise<ClaimsCheck>;
  /** The analyst's view with the claims check. */
  view(row: QuestionnaireRow, answers?: AnswerRow[]): Promise<QuestionnaireDetail>;
}) {
  const { repo, load, claimsOf, view } = deps;
  return {
    async update(scope: Scope, id: string, input: UpdateInput): Promise<QuestionnaireDetail> {
      const row = await load(scope, id);
      const answers = answerMap(await repo.answers(id));
      if (input.status === 'complete' && row.status !== 'complete') {
        // Completing over flagged answers takes the reviewer's note (this request's, else the stored one).
        const note = input.reviewerNotes !== undefined ? input.reviewerNotes : row.reviewerNotes;
        if (!note?.trim()) {
          const { flags } = await claimsOf(row, answers);
          if (flags.size) throw reviewerNoteRequired(flags.size);
        }
      }
      const { values, reviews, editsQuestions } = patchOf(row, answers, input, scope.userId);
      const updated = await repo.review(scope, { id, fromStatuses: [row.status], values, reviews, reviewerId: scope.userId, at: new Date() });
      if (!updated) throw conflict('The questionnaire changed meanwhile (the vendor may have just submitted): reload and retry', 'QUESTIONNAIRE_CHANGED');
      if (editsQuestions)
        await repo.pruneAnswers(
          id,
          updated.questions.map((q) => q.id),
        );
      return view(updated);
    },
  };
}
