import { TEMPLATES } from '../../compliance/questionnaire-template.js';
import type { Config } from '../../config.js';
import type { AnswerValue, QuestionnaireStatus, StoredQuestion, StoredSection, Suggestion } from '../../db/schema/questionnaires.js';
import { pagination } from '../../domain/paging.js';
import type { Scope } from '../../domain/scope.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { newSecret, sha256 } from '../../lib/ids.js';
import type { Mailer } from '../../lib/mailer.js';
import type { Retriever } from '../../rag/types.js';
import type { GapResult } from '../../domain/gap.js';
import { claimFlags } from './claims.js';
import { prefillQuery, suggestAnswer } from './prefill.js';
import { buildQuestions, checkAnswerValue, MAX_COMMENT, normalizeValue, type QuestionInput, type SectionInput } from './questions.js';
import type { AnswerRow, QuestionnaireInsert, QuestionnaireRow, QuestionnairesRepository, ReviewWrite, SortField, VendorAnswerWrite } from './repository.js';
import type { ScoredAnswer } from './scoring.js';
import {
  answerMap,
  detailView,
  score,
  summaryView,
  templatesView,
  today,
  VENDOR_VISIBLE,
  VENDOR_WRITABLE,
  vendorView,
  type ClaimsCheck,
  type QuestionnaireDetail,
  type QuestionnaireSummary,
  type TemplateView,
  type VendorQuestionnaireView,
} from './views.js';

/** Published after a vendor submits (notifications hook point). */
export interface QuestionnaireSubmittedEvent {
  questionnaireId: string;
  workspaceId: string;
  title: string;
  submittedAt: Date;
}
export type QuestionnaireSubmittedHook = (event: QuestionnaireSubmittedEvent) => Promise<void>;

export const questionnaireNotFound = () => notFound('Questionnaire not found', 'QUESTIONNAIRE_NOT_FOUND');
export const linkNotFound = () => notFound('Questionnaire link not found', 'QUESTIONNAIRE_LINK_NOT_FOUND');
export const linkExpired = () => new AppError(410, 'QUESTIONNAIRE_LINK_EXPIRED', 'This questionnaire link has expired: ask your contact for a new one');
const alreadySubmitted = () => conflict('This questionnaire has already been submitted', 'QUESTIONNAIRE_ALREADY_SUBMITTED');
const prefillUnavailable = () => new AppError(503, 'PREFILL_UNAVAILABLE', 'Pre-fill is not available: document retrieval is not configured');
const contactRequired = () =>
  badRequest('vendorContact.email: is required to send the questionnaire', ['vendorContact.email: is required to send the questionnaire']);

/** Status moves through PATCH (the others happen by sending, answering and submitting). */
const PATCH_TRANSITIONS: Record<QuestionnaireStatus, QuestionnaireStatus[]> = {
  draft: [],
  sent: [],
  in_progress: [],
  submitted: ['complete', 'in_progress'],
  complete: ['submitted'],
};
const SENDABLE: readonly QuestionnaireStatus[] = ['draft', 'sent', 'in_progress'];

/** Passages retrieved per question for pre-fill (the shared DORA corpus competes for them and is dropped). */
const PREFILL_SEARCH_LIMIT = 8;
const PREFILL_CONCURRENCY = 4;

export interface CreateInput {
  title?: string;
  description?: string;
  template?: string;
  templateSections?: string[];
  sections?: SectionInput[];
  questions?: QuestionInput[];
  vendorContact?: { email: string; name?: string };
  dueDate?: string;
  shareSuggestions?: boolean;
  prefill?: boolean;
  send?: boolean;
}

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

export interface VendorAnswerInput {
  questionId: string;
  value?: AnswerValue | null;
  comment?: string | null;
  acceptSuggestion?: boolean;
}

/** Counts of one pre-fill run. */
export interface PrefillResult {
  questions: number;
  suggestions: number;
  withValue: number;
}

/** The newest complete questionnaire of a workspace, as the register export reads it. */
export interface CompletedQuestionnaire {
  id: string;
  title: string;
  score: number | null;
  completedAt: Date;
}

/** Questionnaires sent to vendors, answered through a link, reviewed and scored (docs/questionnaires.md). */
export interface QuestionnairesService {
  /** Registers a hook run after a vendor submits (notifications). */
  onSubmitted(h: QuestionnaireSubmittedHook): void;
  /** Available templates (id, version, title, sections with question counts). */
  templates(): TemplateView[];
  /** One page of the workspace's questionnaires, with status, progress and score. */
  list(
    scope: Scope,
    query: { page: number; limit: number; status?: QuestionnaireStatus; sort: string },
  ): Promise<{ questionnaires: QuestionnaireSummary[]; pagination: ReturnType<typeof pagination> }>;
  /** Creates a questionnaire from a template and/or custom questions; optionally pre-fills and sends it. */
  create(scope: Scope, input: CreateInput): Promise<{ questionnaire: QuestionnaireDetail; prefill: PrefillResult | null }>;
  /** A questionnaire with its questions, answers, suggestions, reviews and scoring (404 when not in the workspace). */
  detail(scope: Scope, id: string): Promise<QuestionnaireDetail>;
  /** Issues a new vendor link (the old one stops working) and e-mails it; nothing changes when mail fails. */
  send(scope: Scope, id: string): Promise<QuestionnaireDetail>;
  /** Proposes answers from the workspace's documents (suggestions only; vendor answers untouched). */
  prefill(scope: Scope, id: string): Promise<{ questionnaire: QuestionnaireDetail; prefill: PrefillResult }>;
  /** Edits fields, questions (draft), reviews (submitted) and status, in one guarded write. */
  update(scope: Scope, id: string, input: UpdateInput): Promise<QuestionnaireDetail>;
  /** Deletes a questionnaire, its answers and its link. */
  remove(scope: Scope, id: string): Promise<void>;
  /** The vendor's view through the link (marks the first opening). */
  vendorGet(token: string): Promise<VendorQuestionnaireView>;
  /** Saves the vendor's answers (merge; `value: null` clears) and, with `submit`, submits; atomic. */
  vendorSave(token: string, input: { answers: VendorAnswerInput[]; submit?: boolean }): Promise<VendorQuestionnaireView>;
  /** The newest `complete` questionnaire of a workspace (opaque id) with its frozen score, or null. */
  latestComplete(workspaceId: string): Promise<CompletedQuestionnaire | null>;
  /** `latestComplete` of many workspaces in one query: workspace id -> questionnaire (register export). */
  latestCompleteMany(workspaceIds: string[]): Promise<Map<string, CompletedQuestionnaire>>;
}

/** Questions of a template (optionally a subset of its sections) plus custom ones; 400 listing every problem. */
function composeQuestions(input: { template?: string; templateSections?: string[]; sections?: SectionInput[]; questions?: QuestionInput[] }) {
  const problems: string[] = [];
  let base: { sections: StoredSection[]; questions: StoredQuestion[] } = { sections: [], questions: [] };
  const template = input.template ? TEMPLATES[input.template] : undefined;
  if (input.template && !template) problems.push(`template: unknown template ${input.template} (one of: ${Object.keys(TEMPLATES).join(', ')})`);
  if (template) {
    let sections = template.sections;
    if (input.templateSections) {
      const known = new Set(template.sections.map((s) => s.id));
      input.templateSections.forEach((id, i) => {
        if (!known.has(id)) problems.push(`templateSections.${i}: unknown section ${id} (one of: ${[...known].join(', ')})`);
      });
      sections = template.sections.filter((s) => input.templateSections!.includes(s.id));
    }
    const ids = new Set(sections.map((s) => s.id));
    base = { sections, questions: template.questions.filter((q) => ids.has(q.sectionId)) };
  } else if (input.templateSections) problems.push('templateSections: needs a template');
  const built = buildQuestions(base, input.sections, input.questions);
  problems.push(...built.problems);
  if (problems.length) throw badRequest(problems.join('; '), problems);
  return { template, sections: built.sections, questions: built.questions };
}

/** The e-mail inviting the vendor to answer through its link. */
function vendorMail(row: QuestionnaireRow, requester: string, link: string, expiresAt: Date) {
  const lines = [
    row.vendorContactName ? `Hello ${row.vendorContactName},` : 'Hello,',
    '',
    `${requester} asks you to answer the questionnaire "${row.title}" (${row.questions.length} questions) as part of its ICT third-party risk management under the EU Digital Operational Resilience Act (DORA).`,
    '',
    `Open the questionnaire (no account needed): ${link}`,
    '',
    row.dueDate ? `Please submit your answers by ${row.dueDate}.` : 'Please submit your answers at your earliest convenience.',
    `You can save a draft and come back with the same link until you submit. The link is personal: do not forward it. It expires on ${expiresAt.toISOString().slice(0, 10)}.`,
    '',
    `Questionnaire link: ${link}`,
  ];
  return { to: row.vendorContactEmail!, subject: `Questionnaire from ${requester}: ${row.title}`, text: lines.join('\n') };
}

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

type Deps = {
  repo: QuestionnairesRepository;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'questionnaireTokenTtlSec'>;
  /** Name of the financial entity asking (the organization owning the workspace). */
  requesterName(workspaceId: string): Promise<string | null>;
  /** Retrieval over the workspace's indexed documents (pre-fill); absent: pre-fill unavailable. */
  retrieval?: () => Retriever | undefined;
  /**
   * The obligation engine's reading of a workspace's documents (results by obligation id, read
   * once per version of the documents); absent or empty: answers are not checked against them.
   */
  obligationResults?: (workspaceId: string) => Promise<Map<string, GapResult>>;
};
const reviewerNoteRequired = (flagged: number) =>
  badRequest(`reviewerNotes: a reviewer note is required to complete a questionnaire with ${flagged} flagged answer(s)`, [
    `reviewerNotes: is required to complete: ${flagged} answer(s) are contradicted or limited by the vendor's documents`,
  ]);

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
      // Freeze the score with the reviews of this request applied.
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
      const s = score(row, merged);
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

/** The vendor's link to the questionnaire (the web page that answers through the token). */
function vendorLink(publicUrl: string, token: string) {
  return `${publicUrl.replace(/\/+$/, '')}/vendor-questionnaire?token=${encodeURIComponent(token)}`;
}

/** Counts of a pre-fill run: questions, suggestions made, suggestions with a value. */
function prefillCounts(out: { suggestion: Suggestion | null }[]): PrefillResult {
  return {
    questions: out.length,
    suggestions: out.filter((s) => s.suggestion).length,
    withValue: out.filter((s) => s.suggestion?.value !== null && s.suggestion?.value !== undefined).length,
  };
}

/** Whether pre-fill proposes an answer to the question (closed questions need a pre-fill query). */
const prefillable = (q: StoredQuestion) => q.type === 'text' || q.type === 'yes_no' || q.type === 'number' || !!q.prefillQuery;

export function questionnairesService(deps: Deps): QuestionnairesService {
  const { repo, mailer, config } = deps;
  const submittedHooks: QuestionnaireSubmittedHook[] = [];

  async function load(scope: Scope, id: string): Promise<QuestionnaireRow> {
    const row = await repo.find(scope, id);
    if (!row) throw questionnaireNotFound();
    return row;
  }

  /** The vendor's `yes` answers checked against the workspace's documents (nothing to check: no read). */
  async function claimsOf(row: QuestionnaireRow, answers: Map<string, AnswerRow>): Promise<ClaimsCheck> {
    if (!deps.obligationResults) return { checked: false, flags: new Map() };
    if (![...answers.values()].some((a) => a.value === 'yes')) return { checked: true, flags: new Map() };
    // A failed reading (the embedder unreachable) leaves the answers unchecked rather than the questionnaire unreadable.
    const results = await deps.obligationResults(row.workspaceId).catch(() => new Map<string, GapResult>());
    if (!results.size) return { checked: false, flags: new Map() };
    return { checked: true, flags: claimFlags(row.questions, answers, results) };
  }

  /** The analyst's view with the claims check. */
  async function view(row: QuestionnaireRow, answers?: AnswerRow[]) {
    const list = answers ?? (await repo.answers(row.id));
    return detailView(row, list, await claimsOf(row, answerMap(list)));
  }

  async function detail(scope: Scope, id: string) {
    return view(await load(scope, id));
  }

  async function send(scope: Scope, id: string) {
    const row = await load(scope, id);
    if (!SENDABLE.includes(row.status)) {
      throw conflict(`A ${row.status} questionnaire cannot be sent: move it back to in_progress first`, 'QUESTIONNAIRE_NOT_SENDABLE');
    }
    if (!row.vendorContactEmail) throw contactRequired();
    const token = newSecret(32);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + config.questionnaireTokenTtlSec * 1000);
    const updated = await repo.update(
      scope,
      id,
      { status: row.status === 'draft' ? 'sent' : row.status, tokenHash: sha256(token), tokenExpiresAt: expiresAt, sentAt: now, sendCount: row.sendCount + 1 },
      [row.status],
    );
    if (!updated) throw conflict('The questionnaire changed meanwhile: retry', 'QUESTIONNAIRE_CHANGED');
    try {
      const requester = (await deps.requesterName(updated.workspaceId)) ?? 'A financial entity';
      await mailer.send(vendorMail(updated, requester, vendorLink(config.publicUrl, token), expiresAt));
    } catch (err) {
      await repo.update(scope, id, {
        status: row.status,
        tokenHash: row.tokenHash,
        tokenExpiresAt: row.tokenExpiresAt,
        sentAt: row.sentAt,
        sendCount: row.sendCount,
      });
      throw new AppError(502, 'MAIL_DELIVERY_FAILED', `The questionnaire e-mail could not be sent (${(err as Error).message}); nothing was changed`);
    }
    // The link is shown once, in this response (only its hash is stored): the analyst can copy it.
    const shown = await view(updated);
    return { ...shown, link: { ...shown.link, url: vendorLink(config.publicUrl, token) } };
  }

  /** Runs pre-fill over the questions; keeps vendor answers untouched. */
  async function prefill(scope: Scope, row: QuestionnaireRow): Promise<PrefillResult> {
    const retriever = deps.retrieval?.();
    if (!retriever) throw prefillUnavailable();
    const now = new Date();
    const out: { questionId: string; suggestion: Suggestion | null }[] = new Array(row.questions.length);
    // A few searches at a time (PostgreSQL runs them on pooled connections; PGlite queues them).
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < row.questions.length; i = next++) {
        const q = row.questions[i]!;
        if (!prefillable(q)) {
          out[i] = { questionId: q.id, suggestion: null };
          continue;
        }
        const sources = await retriever.search({ workspaceId: scope.workspaceId, query: prefillQuery(q), limit: PREFILL_SEARCH_LIMIT });
        out[i] = { questionId: q.id, suggestion: suggestAnswer(q, sources, scope.workspaceId, now) };
      }
    };
    await Promise.all(Array.from({ length: PREFILL_CONCURRENCY }, worker));
    await repo.saveSuggestions(row.id, out, now);
    return prefillCounts(out);
  }

  /** A vendor's token -> its questionnaire (404 unknown, 410 expired). */
  async function byToken(token: string): Promise<QuestionnaireRow> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw linkNotFound();
    const row = await repo.findByTokenHash(sha256(token));
    if (!row || !VENDOR_VISIBLE.includes(row.status)) throw linkNotFound();
    if (!row.tokenExpiresAt || row.tokenExpiresAt <= new Date()) throw linkExpired();
    return row;
  }

  return {
    onSubmitted(h) {
      submittedHooks.push(h);
    },

    templates: templatesView,

    async list(scope, query) {
      const desc = query.sort.startsWith('-');
      const sort = (desc ? query.sort.slice(1) : query.sort) as SortField;
      const { rows, total } = await repo.list(scope, { status: query.status, sort, desc, limit: query.limit, offset: (query.page - 1) * query.limit });
      const answers = await repo.answersOf(rows.map((r) => r.id));
      const byQ = new Map<string, AnswerRow[]>();
      for (const a of answers) byQ.set(a.questionnaireId, [...(byQ.get(a.questionnaireId) ?? []), a]);
      return {
        questionnaires: rows.map((r) => summaryView(r, byQ.get(r.id) ?? [])),
        pagination: pagination(query, total),
      };
    },

    async create(scope, input) {
      const { template, sections, questions } = composeQuestions(input);
      if (input.send && !input.vendorContact) throw contactRequired();
      if (input.prefill && !deps.retrieval?.()) throw prefillUnavailable();
      const title = input.title?.trim() || template?.title;
      if (!title) throw badRequest('title: is required for custom questionnaires', ['title: is required for custom questionnaires']);
      const row = await repo.insert({
        workspaceId: scope.workspaceId,
        title,
        description: input.description ?? (input.title ? null : (template?.description ?? null)),
        templateId: template?.id ?? null,
        templateVersion: template?.version ?? null,
        sections,
        questions,
        vendorContactEmail: input.vendorContact?.email.toLowerCase() ?? null,
        vendorContactName: input.vendorContact?.name?.trim() || null,
        dueDate: input.dueDate ?? null,
        shareSuggestions: input.shareSuggestions ?? false,
        createdBy: scope.userId,
      });
      const prefillResult = input.prefill ? await prefill(scope, row) : null;
      if (input.send) {
        try {
          return { questionnaire: await send(scope, row.id), prefill: prefillResult };
        } catch (err) {
          if (err instanceof AppError && err.statusCode === 502) {
            throw new AppError(
              502,
              'MAIL_DELIVERY_FAILED',
              `Questionnaire ${row.id} was created as a draft but the e-mail could not be sent: retry with POST /questionnaires/${row.id}/send`,
            );
          }
          throw err;
        }
      }
      return { questionnaire: await view(row), prefill: prefillResult };
    },

    detail,
    send,

    async prefill(scope, id) {
      const row = await load(scope, id);
      if (row.status === 'submitted' || row.status === 'complete') {
        throw conflict(`A ${row.status} questionnaire cannot be pre-filled`, 'QUESTIONNAIRE_NOT_EDITABLE');
      }
      const result = await prefill(scope, row);
      return { questionnaire: await detail(scope, id), prefill: result };
    },

    async update(scope, id, input) {
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

    async remove(scope, id) {
      if (!(await repo.delete(scope, id))) throw questionnaireNotFound();
    },

    async vendorGet(token) {
      const row = await byToken(token);
      await repo.markOpened(row.id, new Date());
      return vendorView(row, await repo.answers(row.id), await deps.requesterName(row.workspaceId));
    },

    async vendorSave(token, input) {
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

    async latestComplete(workspaceId) {
      const row = await repo.latestComplete(workspaceId);
      if (!row || !row.completedAt) return null;
      return { id: row.id, title: row.title, score: row.score, completedAt: row.completedAt };
    },

    async latestCompleteMany(workspaceIds) {
      const rows = await repo.latestCompleteMany(workspaceIds);
      return new Map(rows.filter((r) => r.completedAt).map((r) => [r.workspaceId, { id: r.id, title: r.title, score: r.score, completedAt: r.completedAt! }]));
    },
  };
}
