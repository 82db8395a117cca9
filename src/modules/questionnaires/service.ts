import type { Config } from '../../config.js';
import type { QuestionnaireStatus } from '../../db/schema/questionnaires.js';
import type { GapResult } from '../../domain/gap.js';
import { pagination } from '../../domain/paging.js';
import type { Scope } from '../../domain/scope.js';
import { notFound } from '../../lib/errors.js';
import type { Mailer } from '../../lib/mailer.js';
import type { Retriever } from '../../rag/types.js';
import { claimFlags } from './claims.js';
import { type CreateInput, type PrefillResult, questionnaireLifecycle } from './lifecycle.js';
import type { AnswerRow, QuestionnaireRow, QuestionnairesRepository, SortField } from './repository.js';
import { questionnaireReview, type UpdateInput } from './review.js';
import { type QuestionnaireSubmittedHook, type VendorAnswerInput, vendorAnswering } from './vendor.js';
import {
  answerMap,
  type ClaimsCheck,
  detailView,
  type QuestionnaireDetail,
  type QuestionnaireSummary,
  summaryView,
  type TemplateView,
  templatesView,
  type VendorQuestionnaireView,
} from './views.js';

/**
 * The questionnaires service: the surface the routes and other modules call, the analyst's
 * reading (list, detail, the claims check) and deletion. Its concerns live beside it: creating,
 * pre-filling and sending (lifecycle.ts), the analyst's edit and review (review.ts), the vendor's
 * side through the link (vendor.ts), the views (views.ts), scoring (scoring.ts), custom questions
 * (questions.ts), pre-fill suggestions (prefill.ts) and the claims check (claims.ts).
 */

export type { CreateInput, PrefillResult } from './lifecycle.js';
export type { UpdateInput } from './review.js';
export type { QuestionnaireSubmittedEvent, QuestionnaireSubmittedHook, VendorAnswerInput } from './vendor.js';
export { linkExpired, linkNotFound } from './vendor.js';

export const questionnaireNotFound = () => notFound('Questionnaire not found', 'QUESTIONNAIRE_NOT_FOUND');

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

export function questionnairesService(deps: Deps): QuestionnairesService {
  const { repo } = deps;

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

  const lifecycle = questionnaireLifecycle({ ...deps, load, view });
  const review = questionnaireReview({ repo, load, claimsOf, view });
  const vendor = vendorAnswering(deps);

  return {
    onSubmitted: vendor.onSubmitted,

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

    create: lifecycle.create,

    async detail(scope, id) {
      return view(await load(scope, id));
    },

    send: lifecycle.send,
    prefill: lifecycle.prefill,
    update: review.update,

    async remove(scope, id) {
      if (!(await repo.delete(scope, id))) throw questionnaireNotFound();
    },

    vendorGet: vendor.vendorGet,
    vendorSave: vendor.vendorSave,

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
