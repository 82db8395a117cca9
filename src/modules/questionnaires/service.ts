import { TEMPLATES } from '../../compliance/questionnaire-template.js';
import type { Config } from '../../config.js';
import type {
  AnswerValue,
  QuestionnaireStatus,
  SectionScore,
  StoredQuestion,
  StoredSection,
  Suggestion,
} from '../../db/schema/questionnaires.js';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { newSecret, sha256 } from '../../lib/ids.js';
import type { Mailer } from '../../lib/mailer.js';
import type { Retriever } from '../../rag/types.js';
import { prefillQuery, suggestAnswer } from './prefill.js';
import { buildQuestions, checkAnswerValue, MAX_COMMENT, normalizeValue, type QuestionInput, type SectionInput } from './questions.js';
import type { AnswerRow, QuestionnaireRow, QuestionnairesRepository, ReviewWrite, SortField, VendorAnswerWrite } from './repository.js';
import { scoreQuestionnaire, type ScoredAnswer, type ScoreResult } from './scoring.js';
import { pagination } from '../../domain/paging.js';

/** The caller's workspace (what the workspace plugin resolved). */
export interface QuestionnaireScope {
  id: string;
  orgId: string;
  name: string;
}

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
export const linkExpired = () =>
  new AppError(410, 'QUESTIONNAIRE_LINK_EXPIRED', 'This questionnaire link has expired: ask your contact for a new one');
const alreadySubmitted = () => conflict('This questionnaire has already been submitted', 'QUESTIONNAIRE_ALREADY_SUBMITTED');

/** Status moves through PATCH (the others happen by sending, answering and submitting). */
const PATCH_TRANSITIONS: Record<QuestionnaireStatus, QuestionnaireStatus[]> = {
  draft: [],
  sent: [],
  in_progress: [],
  submitted: ['complete', 'in_progress'],
  complete: ['submitted'],
};
const SENDABLE: readonly QuestionnaireStatus[] = ['draft', 'sent', 'in_progress'];
const VENDOR_WRITABLE: readonly QuestionnaireStatus[] = ['sent', 'in_progress'];
/** Statuses in which the vendor's link opens (read-only once submitted). */
const VENDOR_VISIBLE: readonly QuestionnaireStatus[] = ['sent', 'in_progress', 'submitted', 'complete'];

/** Passages retrieved per question for pre-fill (the shared DORA corpus competes for them and is dropped). */
const PREFILL_SEARCH_LIMIT = 8;
const PREFILL_CONCURRENCY = 4;

const today = (at = new Date()) => at.toISOString().slice(0, 10);
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

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

type Deps = {
  repo: QuestionnairesRepository;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'questionnaireTokenTtlSec'>;
  /** Name of the financial entity asking (the organization owning the workspace). */
  requesterName(workspaceId: string): Promise<string | null>;
  /** Retrieval over the workspace's indexed documents (pre-fill); absent: pre-fill unavailable. */
  retrieval?: () => Retriever | undefined;
};

export function questionnairesService(deps: Deps) {
  const { repo, mailer, config } = deps;
  const submittedHooks: QuestionnaireSubmittedHook[] = [];

  function answerMap(rows: AnswerRow[]): Map<string, AnswerRow> {
    return new Map(rows.map((r) => [r.questionId, r]));
  }

  /** Date that date answers are scored against: the submission date once submitted. */
  function scoringDate(row: QuestionnaireRow): string {
    return today(row.submittedAt ?? new Date());
  }

  function score(row: QuestionnaireRow, answers: Map<string, ScoredAnswer>): ScoreResult {
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

  function summary(row: QuestionnaireRow, answers: AnswerRow[]) {
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

  function detailOf(row: QuestionnaireRow, answers: AnswerRow[]) {
    const map = answerMap(answers);
    const s = score(row, map);
    const points = new Map(s.questions.map((r) => [r.questionId, r]));
    return {
      ...summary(row, answers),
      description: row.description,
      shareSuggestions: row.shareSuggestions,
      reviewerNotes: row.reviewerNotes,
      link: linkState(row),
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
          answer: a && (a.value !== null || a.comment !== null) ? { value: a.value, comment: a.comment, answeredAt: iso(a.answeredAt) } : null,
          suggestion: a?.suggestion ?? null,
          review: a && (a.overrideValue !== null || a.overrideScore !== null || a.reviewerNote !== null)
            ? { overrideValue: a.overrideValue, overrideScore: a.overrideScore, note: a.reviewerNote, reviewedBy: a.reviewedBy, reviewedAt: iso(a.reviewedAt) }
            : null,
          points: r?.points ?? null,
          basis: r?.basis ?? 'unscored',
        };
      }),
    };
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

  async function load(scope: QuestionnaireScope, id: string): Promise<QuestionnaireRow> {
    const row = await repo.find(scope.id, id);
    if (!row) throw questionnaireNotFound();
    return row;
  }

  async function detail(scope: QuestionnaireScope, id: string) {
    const row = await load(scope, id);
    return detailOf(row, await repo.answers(row.id));
  }

  /** Questions of a template (optionally a subset of its sections) plus custom ones. */
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

  function vendorLink(token: string) {
    return `${config.publicUrl.replace(/\/+$/, '')}/vendor-questionnaire?token=${encodeURIComponent(token)}`;
  }

  async function sendMail(row: QuestionnaireRow, token: string, expiresAt: Date) {
    const requester = (await deps.requesterName(row.workspaceId)) ?? 'A financial entity';
    const link = vendorLink(token);
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
    await mailer.send({ to: row.vendorContactEmail!, subject: `Questionnaire from ${requester}: ${row.title}`, text: lines.join('\n') });
  }

  /** Issues a new link (the old one stops working) and e-mails it; restores the row when mail fails. */
  async function send(scope: QuestionnaireScope, id: string) {
    const row = await load(scope, id);
    if (!SENDABLE.includes(row.status)) {
      throw conflict(`A ${row.status} questionnaire cannot be sent: move it back to in_progress first`, 'QUESTIONNAIRE_NOT_SENDABLE');
    }
    if (!row.vendorContactEmail) throw badRequest('vendorContact.email: is required to send the questionnaire', ['vendorContact.email: is required to send the questionnaire']);
    const token = newSecret(32);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + config.questionnaireTokenTtlSec * 1000);
    const updated = await repo.update(
      scope.id,
      id,
      { status: row.status === 'draft' ? 'sent' : row.status, tokenHash: sha256(token), tokenExpiresAt: expiresAt, sentAt: now, sendCount: row.sendCount + 1 },
      [row.status],
    );
    if (!updated) throw conflict('The questionnaire changed meanwhile: retry', 'QUESTIONNAIRE_CHANGED');
    try {
      await sendMail(updated, token, expiresAt);
    } catch (err) {
      await repo.update(scope.id, id, { status: row.status, tokenHash: row.tokenHash, tokenExpiresAt: row.tokenExpiresAt, sentAt: row.sentAt, sendCount: row.sendCount });
      throw new AppError(502, 'MAIL_DELIVERY_FAILED', `The questionnaire e-mail could not be sent (${(err as Error).message}); nothing was changed`);
    }
    return detailOf(updated, await repo.answers(id));
  }

  /** Runs pre-fill over the questions; keeps vendor answers untouched. */
  async function prefill(scope: QuestionnaireScope, row: QuestionnaireRow) {
    const retriever = deps.retrieval?.();
    if (!retriever) throw new AppError(503, 'PREFILL_UNAVAILABLE', 'Pre-fill is not available: document retrieval is not configured');
    const now = new Date();
    const out: { questionId: string; suggestion: Suggestion | null }[] = new Array(row.questions.length);
    // A few searches at a time (PostgreSQL runs them on pooled connections; PGlite queues them).
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < row.questions.length; i = next++) {
        const q = row.questions[i]!;
        if (q.type !== 'text' && q.type !== 'yes_no' && q.type !== 'number' && !q.prefillQuery) {
          out[i] = { questionId: q.id, suggestion: null };
          continue;
        }
        const sources = await retriever.search({ workspaceId: scope.id, query: prefillQuery(q), limit: PREFILL_SEARCH_LIMIT });
        out[i] = { questionId: q.id, suggestion: suggestAnswer(q, sources, scope.id, now) };
      }
    };
    await Promise.all(Array.from({ length: PREFILL_CONCURRENCY }, worker));
    await repo.saveSuggestions(row.id, out, now);
    return {
      questions: row.questions.length,
      suggestions: out.filter((s) => s.suggestion).length,
      withValue: out.filter((s) => s.suggestion?.value !== null && s.suggestion?.value !== undefined).length,
    };
  }

  /** A vendor's token -> its questionnaire (404 unknown, 410 expired). */
  async function byToken(token: string): Promise<QuestionnaireRow> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw linkNotFound();
    const row = await repo.findByTokenHash(sha256(token));
    if (!row || !VENDOR_VISIBLE.includes(row.status)) throw linkNotFound();
    if (!row.tokenExpiresAt || row.tokenExpiresAt <= new Date()) throw linkExpired();
    return row;
  }

  function vendorView(row: QuestionnaireRow, answers: AnswerRow[], requester: string | null) {
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
          answer: a && (a.value !== null || a.comment !== null) ? { value: a.value, comment: a.comment, answeredAt: iso(a.answeredAt) } : null,
          suggestion: sug
            ? { value: sug.value, rationale: sug.rationale, citations: sug.citations.map((c) => ({ title: c.title, passage: c.passage })) }
            : null,
        };
      }),
    };
  }

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

  return {
    /** Registers a hook run after a vendor submits (notifications). */
    onSubmitted(h: QuestionnaireSubmittedHook) {
      submittedHooks.push(h);
    },

    /** Available templates (id, version, title, sections with question counts). */
    templates() {
      return Object.values(TEMPLATES).map((t) => ({
        id: t.id,
        version: t.version,
        title: t.title,
        description: t.description,
        questionCount: t.questions.length,
        sections: t.sections.map((s) => ({ ...s, questionCount: t.questions.filter((q) => q.sectionId === s.id).length })),
        questions: t.questions.map((q) => ({ ...publicQuestion(q), weight: q.weight, ...(q.scoring ? { scoring: q.scoring } : {}), options: q.options })),
      }));
    },

    async list(scope: QuestionnaireScope, query: { page: number; limit: number; status?: QuestionnaireStatus; sort: string }) {
      const desc = query.sort.startsWith('-');
      const sort = (desc ? query.sort.slice(1) : query.sort) as SortField;
      const { rows, total } = await repo.list(scope.id, { status: query.status, sort, desc, limit: query.limit, offset: (query.page - 1) * query.limit });
      const answers = await repo.answersOf(rows.map((r) => r.id));
      const byQ = new Map<string, AnswerRow[]>();
      for (const a of answers) byQ.set(a.questionnaireId, [...(byQ.get(a.questionnaireId) ?? []), a]);
      return {
        questionnaires: rows.map((r) => summary(r, byQ.get(r.id) ?? [])),
        pagination: pagination(query, total),
      };
    },

    async create(scope: QuestionnaireScope, userId: string, input: CreateInput) {
      const { template, sections, questions } = composeQuestions(input);
      if (input.send && !input.vendorContact) {
        throw badRequest('vendorContact.email: is required to send the questionnaire', ['vendorContact.email: is required to send the questionnaire']);
      }
      if (input.prefill && !deps.retrieval?.()) throw new AppError(503, 'PREFILL_UNAVAILABLE', 'Pre-fill is not available: document retrieval is not configured');
      const title = input.title?.trim() || template?.title;
      if (!title) throw badRequest('title: is required for custom questionnaires', ['title: is required for custom questionnaires']);
      const row = await repo.insert({
        workspaceId: scope.id,
        title,
        description: input.description ?? (input.title ? null : template?.description ?? null),
        templateId: template?.id ?? null,
        templateVersion: template?.version ?? null,
        sections,
        questions,
        vendorContactEmail: input.vendorContact?.email.toLowerCase() ?? null,
        vendorContactName: input.vendorContact?.name?.trim() || null,
        dueDate: input.dueDate ?? null,
        shareSuggestions: input.shareSuggestions ?? false,
        createdBy: userId,
      });
      const prefillResult = input.prefill ? await prefill(scope, row) : null;
      if (input.send) {
        try {
          return { questionnaire: await send(scope, row.id), prefill: prefillResult };
        } catch (err) {
          if (err instanceof AppError && err.statusCode === 502) {
            throw new AppError(502, 'MAIL_DELIVERY_FAILED', `Questionnaire ${row.id} was created as a draft but the e-mail could not be sent: retry with POST /questionnaires/${row.id}/send`);
          }
          throw err;
        }
      }
      return { questionnaire: detailOf(row, await repo.answers(row.id)), prefill: prefillResult };
    },

    detail,
    send,

    async prefill(scope: QuestionnaireScope, id: string) {
      const row = await load(scope, id);
      if (row.status === 'submitted' || row.status === 'complete') {
        throw conflict(`A ${row.status} questionnaire cannot be pre-filled`, 'QUESTIONNAIRE_NOT_EDITABLE');
      }
      const result = await prefill(scope, row);
      return { questionnaire: await detail(scope, id), prefill: result };
    },

    async update(scope: QuestionnaireScope, userId: string, id: string, input: UpdateInput) {
      const row = await load(scope, id);
      const answersRows = await repo.answers(id);
      const answers = answerMap(answersRows);
      const values: Parameters<QuestionnairesRepository['update']>[2] = {};
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
        if (row.status !== 'draft') throw conflict(`Questions can be changed only while the questionnaire is a draft (it is ${row.status})`, 'QUESTIONNAIRE_NOT_EDITABLE');
        const composed = composeQuestions({ template: input.template, templateSections: input.templateSections, sections: input.sections, questions: input.questions });
        values.sections = composed.sections;
        values.questions = composed.questions;
        values.templateId = composed.template?.id ?? null;
        values.templateVersion = composed.template?.version ?? null;
      }

      let reviews: ReviewWrite[] = [];
      if (input.reviews?.length) {
        if (row.status !== 'submitted') throw conflict(`Answers can be reviewed only while the questionnaire is submitted (it is ${row.status})`, 'QUESTIONNAIRE_NOT_IN_REVIEW');
        reviews = checkReviews(row, answers, input.reviews);
      }

      const target = input.status;
      if (target !== undefined && target !== row.status) {
        if (!PATCH_TRANSITIONS[row.status].includes(target)) {
          throw conflict(`Cannot move a questionnaire from ${row.status} to ${target}${target === 'sent' ? ': use POST /questionnaires/:id/send' : ''}`, 'INVALID_STATUS_TRANSITION');
        }
        values.status = target;
        if (target === 'complete') {
          // Freeze the score with the reviews of this request applied.
          const merged = new Map<string, ScoredAnswer>([...answers].map(([k, a]) => [k, { value: a.value, overrideValue: a.overrideValue, overrideScore: a.overrideScore }]));
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

      const updated = await repo.review({ workspaceId: scope.id, id, fromStatuses: [row.status], values, reviews, reviewerId: userId, at: new Date() });
      if (!updated) throw conflict('The questionnaire changed meanwhile (the vendor may have just submitted): reload and retry', 'QUESTIONNAIRE_CHANGED');
      if (editsQuestions) await repo.pruneAnswers(id, updated.questions.map((q) => q.id));
      return detailOf(updated, await repo.answers(id));
    },

    async remove(scope: QuestionnaireScope, id: string) {
      if (!(await repo.delete(scope.id, id))) throw questionnaireNotFound();
    },

    /** The vendor's view through the link (marks the first opening). */
    async vendorGet(token: string) {
      const row = await byToken(token);
      await repo.markOpened(row.id, new Date());
      return vendorView(row, await repo.answers(row.id), await deps.requesterName(row.workspaceId));
    },

    /**
     * Saves the vendor's answers (merge: only the given questions change; `value: null`
     * clears) and, with `submit`, submits. Atomic: on any problem nothing is saved.
     */
    async vendorSave(token: string, input: { answers: VendorAnswerInput[]; submit?: boolean }) {
      const row = await byToken(token);
      if (!VENDOR_WRITABLE.includes(row.status)) throw alreadySubmitted();
      const existing = answerMap(await repo.answers(row.id));
      const byId = new Map(row.questions.map((q) => [q.id, q]));
      const problems: string[] = [];
      const writes: VendorAnswerWrite[] = [];
      const seen = new Set<string>();
      const now = new Date();
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
        const comment = a.comment === undefined ? prev?.comment ?? null : a.comment === null ? null : a.comment.trim() || null;
        if (comment && comment.length > MAX_COMMENT) return problems.push(`${at}.comment: must be at most ${MAX_COMMENT} characters`);
        writes.push({
          questionId: q.id,
          value: value === undefined ? prev?.value ?? null : value === null ? null : normalizeValue(q, value),
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

    /**
     * For the register export: the newest questionnaire of the workspace in status
     * `complete`, with its frozen total score (0-100; null only when nothing in it
     * was scored), or null.
     */
    async latestComplete(workspaceId: string): Promise<{ id: string; title: string; score: number | null; completedAt: Date } | null> {
      const row = await repo.latestComplete(workspaceId);
      if (!row || !row.completedAt) return null;
      return { id: row.id, title: row.title, score: row.score, completedAt: row.completedAt };
    },

    /** `latestComplete` of many workspaces in one query: workspace id -> questionnaire (register export). */
    async latestCompleteMany(workspaceIds: string[]): Promise<Map<string, { id: string; title: string; score: number | null; completedAt: Date }>> {
      const rows = await repo.latestCompleteMany(workspaceIds);
      return new Map(rows.filter((r) => r.completedAt).map((r) => [r.workspaceId, { id: r.id, title: r.title, score: r.score, completedAt: r.completedAt! }]));
    },
  };
}
export type QuestionnairesService = ReturnType<typeof questionnairesService>;
