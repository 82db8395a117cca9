import type { AnswerValue } from '../../db/schema/questionnaires.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { sha256 } from '../../lib/ids.js';
import { checkAnswerValue, MAX_COMMENT, normalizeValue } from './questions.js';
import type { AnswerRow, QuestionnaireRow, QuestionnairesRepository, VendorAnswerWrite } from './repository.js';
import { answerMap, today, VENDOR_VISIBLE, VENDOR_WRITABLE, type VendorQuestionnaireView, vendorView } from './views.js';

/**
 * The vendor's side (docs/questionnaires.md): the questionnaire opened through the link's token
 * (no account), answers saved as drafts and submitted, and the hooks run after a submission.
 */

/** Published after a vendor submits (notifications hook point). */
export interface QuestionnaireSubmittedEvent {
  questionnaireId: string;
  workspaceId: string;
  title: string;
  submittedAt: Date;
}
export type QuestionnaireSubmittedHook = (event: QuestionnaireSubmittedEvent) => Promise<void>;

export interface VendorAnswerInput {
  questionId: string;
  value?: AnswerValue | null;
  comment?: string | null;
  acceptSuggestion?: boolean;
}

export const linkNotFound = () => notFound('Questionnaire link not found', 'QUESTIONNAIRE_LINK_NOT_FOUND');
export const linkExpired = () => new AppError(410, 'QUESTIONNAIRE_LINK_EXPIRED', 'This questionnaire link has expired: ask your contact for a new one');
const alreadySubmitted = () => conflict('This questionnaire has already been submitted', 'QUESTIONNAIRE_ALREADY_SUBMITTED');

/** The vendor's answers checked against the questions (and, to submit, the required ones); 400 listing every problem. */
function vendorWrites(
  row: QuestionnaireRow,
  existing: Map<string, AnswerRow>,
  input: { answers: VendorAnswerInput[]; submit?: boolean },
  now: Date,
): VendorAnswerWrite[] {
  const byId = new Map(row.questions.map((q) => [q.id, q]));
  const problems: string[] = [];
  const writes: VendorAnswerWrite[] = [];
  const seen = new Set<string>();
  input.answers.forEach((a, i) => {
    const at = `answers.${i}`;
    const q = byId.get(a.questionId);
    if (!q) return problems.push(`${at}.questionId: unknown question ${a.questionId}`);
    if (seen.has(q.id)) return problems.push(`${at}.questionId: ${q.id} appears twice`);
    seen.add(q.id);
    const prev = existing.get(q.id);
    let value = a.value;
    if (a.acceptSuggestion) {
      if (value !== undefined) return problems.push(`${at}: give either value or acceptSuggestion`);
      const s = row.shareSuggestions ? prev?.suggestion : null;
      if (!s || s.value === null) return problems.push(`${at}.acceptSuggestion: question ${q.id} has no suggested value`);
      value = s.value;
    }
    if (value === undefined && a.comment === undefined) return problems.push(`${at}: give value, comment or acceptSuggestion`);
    if (value !== undefined && value !== null) {
      const p = checkAnswerValue(q, value, today(now));
      if (p) return problems.push(`${at}.value: ${p}`);
    }
    const comment = a.comment === undefined ? (prev?.comment ?? null) : a.comment === null ? null : a.comment.trim() || null;
    if (comment && comment.length > MAX_COMMENT) return problems.push(`${at}.comment: must be at most ${MAX_COMMENT} characters`);
    writes.push({
      questionId: q.id,
      value: value === undefined ? (prev?.value ?? null) : value === null ? null : normalizeValue(q, value),
      comment,
    });
  });
  if (problems.length) throw badRequest(problems.join('; '), problems);
  if (input.submit) {
    const after = new Map([...existing].map(([k, v]) => [k, v.value]));
    for (const w of writes) after.set(w.questionId, w.value);
    const missing = row.questions.filter((q) => q.required && (after.get(q.id) === null || after.get(q.id) === undefined));
    if (missing.length) {
      const details = missing.map((q) => `${q.id}: an answer is required before submitting`);
      throw badRequest(`${missing.length} required question(s) unanswered: ${missing.map((q) => q.id).join(', ')}`, details);
    }
  }
  return writes;
}

export function vendorAnswering(deps: {
  repo: QuestionnairesRepository;
  /** Name of the financial entity asking (the organization owning the workspace). */
  requesterName(workspaceId: string): Promise<string | null>;
}) {
  const { repo } = deps;
  const submittedHooks: QuestionnaireSubmittedHook[] = [];

  /** A vendor's token -> its questionnaire (404 unknown, 410 expired). */
  async function byToken(token: string): Promise<QuestionnaireRow> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw linkNotFound();
    const row = await repo.findByTokenHash(sha256(token));
    if (!row || !VENDOR_VISIBLE.includes(row.status)) throw linkNotFound();
    if (!row.tokenExpiresAt || row.tokenExpiresAt <= new Date()) throw linkExpired();
    return row;
  }

  return {
    onSubmitted(h: QuestionnaireSubmittedHook): void {
      submittedHooks.push(h);
    },

    async vendorGet(token: string): Promise<VendorQuestionnaireView> {
      const row = await byToken(token);
      await repo.markOpened(row.id, new Date());
      return vendorView(row, await repo.answers(row.id), await deps.requesterName(row.workspaceId));
    },

    async vendorSave(token: string, input: { answers: VendorAnswerInput[]; submit?: boolean }): Promise<VendorQuestionnaireView> {
      const row = await byToken(token);
      if (!VENDOR_WRITABLE.includes(row.status)) throw alreadySubmitted();
      const now = new Date();
      const writes = vendorWrites(row, answerMap(await repo.answers(row.id)), input, now);
      const saved = await repo.saveVendorAnswers({
        id: row.id,
        tokenHash: row.tokenHash!,
        fromStatuses: VENDOR_WRITABLE,
        status: input.submit ? 'submitted' : 'in_progress',
        answers: writes,
        at: now,
        submitted: !!input.submit,
      });
      if (!saved) {
        const again = await repo.findByTokenHash(row.tokenHash!);
        if (!again) throw linkNotFound();
        throw alreadySubmitted();
      }
      if (input.submit) {
        const event = { questionnaireId: saved.id, workspaceId: saved.workspaceId, title: saved.title, submittedAt: now };
        for (const h of submittedHooks) await h(event).catch(() => {});
      }
      return vendorView(saved, await repo.answers(saved.id), await deps.requesterName(saved.workspaceId));
    },
  };
}
