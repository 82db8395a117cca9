import type { Config } from '../../config.js';
import type { QuestionnaireStatus, StoredQuestion, Suggestion } from '../../db/schema/questionnaires.js';
import type { Scope } from '../../domain/scope.js';
import { AppError, badRequest, conflict } from '../../lib/errors.js';
import { newSecret, sha256 } from '../../lib/ids.js';
import type { Mailer } from '../../lib/mailer.js';
import type { Retriever } from '../../rag/types.js';
import { prefillQuery, suggestAnswer } from './prefill.js';
import { composeQuestions, type QuestionInput, type SectionInput } from './questions.js';
import type { AnswerRow, QuestionnaireRow, QuestionnairesRepository } from './repository.js';
import type { QuestionnaireDetail } from './views.js';

/**
 * A questionnaire's way out to the vendor: creating it (from a template and/or custom
 * questions), pre-filling it from the workspace's documents and sending the vendor its link
 * by e-mail (docs/questionnaires.md).
 */

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

/** Counts of one pre-fill run. */
export interface PrefillResult {
  questions: number;
  suggestions: number;
  withValue: number;
}

const prefillUnavailable = () => new AppError(503, 'PREFILL_UNAVAILABLE', 'Pre-fill is not available: document retrieval is not configured');
const contactRequired = () =>
  badRequest('vendorContact.email: is required to send the questionnaire', ['vendorContact.email: is required to send the questionnaire']);

const SENDABLE: readonly QuestionnaireStatus[] = ['draft', 'sent', 'in_progress'];

/** Passages retrieved per question for pre-fill (the shared DORA corpus competes for them and is dropped). */
const PREFILL_SEARCH_LIMIT = 8;
const PREFILL_CONCURRENCY = 4;

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

export function questionnaireLifecycle(deps: {
  repo: QuestionnairesRepository;
  mailer: Mailer;
  config: Pick<Config, 'publicUrl' | 'questionnaireTokenTtlSec'>;
  requesterName(workspaceId: string): Promise<string | null>;
  retrieval?: () => Retriever | undefined;
  /** A questionnaire of the workspace (404 otherwise). */
  load(scope: Scope, id: string): Promise<QuestionnaireRow>;
  /** The analyst's view with the claims check. */
  view(row: QuestionnaireRow, answers?: AnswerRow[]): Promise<QuestionnaireDetail>;
}) {
  const { repo, mailer, config, load, view } = deps;

  async function send(scope: Scope, id: string): Promise<QuestionnaireDetail> {
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
  async function runPrefill(scope: Scope, row: QuestionnaireRow): Promise<PrefillResult> {
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

  return {
    send,

    async create(scope: Scope, input: CreateInput): Promise<{ questionnaire: QuestionnaireDetail; prefill: PrefillResult | null }> {
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
      const prefillResult = input.prefill ? await runPrefill(scope, row) : null;
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

    async prefill(scope: Scope, id: string): Promise<{ questionnaire: QuestionnaireDetail; prefill: PrefillResult }> {
      const row = await load(scope, id);
      if (row.status === 'submitted' || row.status === 'complete') {
        throw conflict(`A ${row.status} questionnaire cannot be pre-filled`, 'QUESTIONNAIRE_NOT_EDITABLE');
      }
      const result = await runPrefill(scope, row);
      return { questionnaire: await view(await load(scope, id)), prefill: result };
    },
  };
}
