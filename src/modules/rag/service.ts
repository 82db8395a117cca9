import { performance } from 'node:perf_hooks';
import type { Config } from '../../config.js';
import type { AssistantMetadata, Validation } from '../../domain/answers.js';
import type { Scope } from '../../domain/scope.js';
import type { CitedSource, MessageSource, QueryLogSource, Source } from '../../domain/sources.js';
import { ok } from '../../lib/envelope.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { idempotentEffectCommitted, presetIdempotentResponse } from '../../lib/idempotencyContext.js';
import { isDatabaseUnavailable } from '../../db/errors.js';
import { GenerationAborted, isAbort } from '../../rag/generators/index.js';
import { type QuestionPart, questionParts } from '../../rag/generators/extractive.js';
import { contextualQuestion } from '../../rag/query.js';
import type { Generator, GenerationResult, HistoryTurn, Judgement, RetrievalFilters, Retriever } from '../../rag/types.js';
import type { JudgementService } from './judgement.js';
import { citedSourcesOf, validateAnswer } from '../../rag/validation.js';
import { internalSourceLink } from '../../rag/links.js';
import type { AnalyticsService } from '../analytics/service.js';
import type { ConversationsService } from '../conversations/service.js';

/**
 * Answers questions (docs/rag.md): retrieval -> generation (streamed or not) ->
 * validation -> the exchange stored once in its conversation -> the query logged.
 */

export interface AskInput {
  question: string;
  conversationId?: string;
  filters?: RetrievalFilters;
}

export type Endpoint = 'rag' | 'stream' | 'conversation';

export interface Answer {
  answer: string;
  formattedAnswer: { text: string; format: 'markdown' };
  sources: Source[];
  citedSources: CitedSource[];
  validation: Validation;
  conversationId: string;
  totalTime: number;
}

/** A checked question, ready to answer (errors up to here are plain HTTP errors). */
export interface Prepared {
  scope: Scope;
  endpoint: Endpoint;
  question: string;
  filters?: RetrievalFilters;
  conversationId: string | null;
  /** performance.now() when the request arrived. */
  startedAt: number;
  askedAt: Date;
}

/** What a stream hears, in order. */
export interface AnswerHooks {
  status?(message: string): void;
  sources?(sources: Source[]): void;
  chunk?(text: string): void;
  metadata?(m: {
    confidence: number;
    citedSources: CitedSource[];
    validation: Validation;
    generator: string;
    model: string | null;
    totalTime: number;
    sourceCount: number;
  }): void;
  saved?(s: { conversationId: string; messageId: string }): void;
}

export const STATUS_RETRIEVING = 'Retrieving context';
/** Most sources of a multi-part question. */
export const MAX_PART_SOURCES = 12;
export const STATUS_GENERATING = 'Generating answer';
/** Passages searched for each topic of a summary request. */
export const TOPIC_PASSAGES = 2;

/** Checks what the filter schema cannot: `start` not after `end` (dates are checked by their format). */
export function checkFilters(filters: RetrievalFilters | undefined): RetrievalFilters | undefined {
  const range = filters?.dateRange;
  if (range?.start && range.end && range.start > range.end) {
    throw badRequest('filters.dateRange: start must not be after end', ['filters.dateRange: start must not be after end']);
  }
  return filters;
}

/** The answer as Markdown: markers become links to the sources, then a list of the cited sources. */
export function formatAnswer(answer: string, sources: Source[], cited: CitedSource[]): string {
  const byNumber = new Map(sources.map((s) => [s.sourceNumber, s]));
  const text = answer.replace(/\[Source\s+(\d+)\]/gi, (m, n: string) => {
    const s = byNumber.get(Number(n));
    return s ? `[[Source ${s.sourceNumber}]](${internalSourceLink(s)})` : m;
  });
  if (!cited.length) return text;
  const list = cited.map((c) => {
    const s = byNumber.get(c.sourceNumber)!;
    return `${c.sourceNumber}. [${s.title.replace(/[[\]]/g, '')}](${internalSourceLink(s)})${s.section ? ` — ${s.section}` : ''}`;
  });
  return `${text}\n\n**Sources**\n\n${list.join('\n')}`;
}

const sourceRef = (s: Source): MessageSource => ({
  id: s.id,
  sourceNumber: s.sourceNumber,
  title: s.title,
  url: s.url,
  section: s.section,
  score: s.score,
  documentId: s.documentId,
  dataSourceId: s.dataSourceId,
  page: s.page === null || s.page === undefined ? null : String(s.page),
  // Kept with the message so that a stored answer shows the cited passage as it was retrieved.
  content: s.content,
});

/** Answers to questions over a workspace's sources, plain or streamed. */
export interface RagService {
  /** The answer generator in use (`extractive`, `anthropic`). */
  readonly generatorId: Generator['id'];
  /** Checks the question and its conversation before any answer (or stream) starts. */
  prepare(scope: Scope, endpoint: Endpoint, input: AskInput, startedAt: number): Promise<Prepared>;
  /** Answers a prepared question; `streamed` makes the hooks hear every step, `signal` aborts (nothing stored then). */
  answer(p: Prepared, opts: { streamed: boolean; signal?: AbortSignal; hooks?: AnswerHooks }): Promise<Answer>;
}

export function ragService(deps: {
  retrieval: Retriever;
  generator: Generator;
  conversations: ConversationsService;
  analytics: AnalyticsService;
  config: Config['rag'];
  /** Judgement questions answered through the obligation engine (docs/rag.md); absent: answered as any question. */
  judgement?: JudgementService;
}): RagService {
  const { retrieval, generator, conversations, analytics, config } = deps;
  const elapsed = (p: Prepared) => Math.round(performance.now() - p.startedAt);

  /** The best passages of each topic of a summary request, each passage once (TOPIC_PASSAGES per topic). */
  async function topicPassages(p: Prepared, parts: QuestionPart[]): Promise<Source[]> {
    const out: Source[] = [];
    for (const part of parts) {
      const found = await retrieval.search({
        workspaceId: p.scope.workspaceId,
        query: `${part.context} ${part.text}`,
        filters: p.filters,
        limit: TOPIC_PASSAGES + 2,
      });
      let taken = 0;
      for (const f of found) {
        if (taken >= TOPIC_PASSAGES) break;
        if (out.some((o) => o.id === f.id)) continue;
        out.push(f);
        taken++;
      }
    }
    return out;
  }

  /** Logs the question for analytics; written after the response (AnalyticsService.logQuery). */
  function logQuery(
    p: Prepared,
    entry: {
      status: 'answered' | 'failed' | 'aborted';
      errorCode?: string | null;
      conversationId?: string | null;
      sources?: Source[];
      cited?: number[];
      validation?: Validation;
      result?: GenerationResult;
      firstChunkMs?: number | null;
    },
  ) {
    const sources = entry.sources ?? [];
    const cited = new Set(entry.cited ?? []);
    const logged: QueryLogSource[] = sources.map((s) => ({
      sourceNumber: s.sourceNumber,
      id: s.id,
      documentId: s.documentId,
      dataSourceId: s.dataSourceId,
      title: s.title,
      url: s.url,
      section: s.section,
      score: s.score,
      cited: cited.has(s.sourceNumber),
    }));
    analytics.logQuery({
      workspaceId: p.scope.workspaceId,
      userId: p.scope.userId,
      apiKeyId: p.scope.apiKeyId ?? null,
      conversationId: entry.conversationId ?? p.conversationId,
      endpoint: p.endpoint,
      question: p.question,
      status: entry.status,
      errorCode: entry.errorCode ?? null,
      generator: generator.id,
      model: entry.result?.model ?? generator.model,
      latencyMs: elapsed(p),
      firstChunkMs: entry.firstChunkMs ?? null,
      confidence: entry.validation?.confidence ?? null,
      isGrounded: entry.validation?.isGrounded ?? null,
      hasHallucinations: entry.validation?.hasHallucinations ?? null,
      isRelevant: entry.validation?.isRelevant ?? null,
      sourceCount: sources.length,
      citedCount: cited.size,
      sources: logged,
      inputTokens: entry.result?.usage?.inputTokens ?? null,
      outputTokens: entry.result?.usage?.outputTokens ?? null,
    });
  }

  return {
    generatorId: generator.id,

    async prepare(scope, endpoint, input, startedAt) {
      const question = input.question.trim();
      if (!question) throw badRequest('question: must not be blank', ['question: must not be blank']);
      const filters = checkFilters(input.filters);
      let conversationId: string | null = null;
      if (input.conversationId !== undefined) {
        conversationId = (await conversations.forQuestion(scope, input.conversationId)).id;
      }
      return { scope, endpoint, question, filters, conversationId, startedAt, askedAt: new Date() };
    },

    /**
     * Answers a prepared question. With `streamed`, the generator streams and the hooks
     * hear every step; `signal` aborts (the exchange is then not stored).
     */
    async answer(p, opts) {
      const hooks = opts.hooks ?? {};
      const signal = opts.signal;
      let sources: Source[] = [];
      let firstChunkMs: number | null = null;
      let result: GenerationResult | undefined;
      // A stream's first events go out before the work starts, even on embedded PGlite,
      // whose queries can keep the event loop from reaching its I/O phase.
      const flush = () => (opts.streamed ? new Promise<void>((resolve) => setImmediate(resolve)) : Promise.resolve());
      try {
        hooks.status?.(STATUS_RETRIEVING);
        await flush();
        const history: HistoryTurn[] = p.conversationId ? await conversations.history(p.scope, p.conversationId, config.historyMessages) : [];
        const query = contextualQuestion(p.question, history);
        // A multi-part question (or a summary by topic) gets two more passages per part, up to
        // MAX_PART_SOURCES: each part needs its own passage, which the whole question ranks lower.
        const asked = questionParts(p.question);
        const parts = asked.length;
        const limit = parts >= 2 ? Math.max(config.topK, Math.min(config.topK + 2 * parts, MAX_PART_SOURCES)) : config.topK;
        const found = await retrieval.search({ workspaceId: p.scope.workspaceId, query, filters: p.filters, limit });
        // A summary by topic ("… Corporate Terms on term, termination, liability and governing law"): each topic's
        // best passages, searched with the request's scene, before the rest of the whole request's.
        const byTopic = parts >= 2 && asked.every((x) => x.topic) ? await topicPassages(p, asked) : [];
        const merged = [...byTopic, ...found.filter((f) => !byTopic.some((t) => t.id === f.id))];
        sources = merged.slice(0, Math.max(limit, byTopic.length)).map((s, i) => ({ ...s, sourceNumber: i + 1 }));
        // A judgement question ("does GitHub's contract meet Art. 30 termination rights?"): the
        // obligation engine's reading, and the passages that decided it after the retrieved ones.
        let judgement: Judgement | undefined;
        if (deps.judgement) {
          const j = await deps.judgement.judge(p.scope, p.question, sources);
          if (j) {
            judgement = j.judgement;
            sources = [...sources, ...j.sources];
          } else {
            // "What is X": Article 3's definition of X, when retrieval did not return it.
            const definition = await deps.judgement.definition(p.question, sources);
            if (definition) sources = [...sources, definition];
            // "Which subprocessors …": the table after a retrieved passage of its document.
            sources = [...sources, ...(await deps.judgement.tableRows(p.question, sources))];
            // A list cut over passages: the passages holding its other points.
            sources = [...sources, ...(await deps.judgement.listParts(sources))];
          }
        }
        if (signal?.aborted) throw new GenerationAborted();
        hooks.sources?.(sources);
        hooks.status?.(STATUS_GENERATING);
        await flush();

        const input = { question: p.question, sources, history, signal, judgement };
        if (opts.streamed) {
          const it = generator.stream(input);
          for (;;) {
            const step = await it.next();
            if (step.done) {
              result = step.value;
              break;
            }
            if (firstChunkMs === null) firstChunkMs = elapsed(p);
            hooks.chunk?.(step.value);
          }
        } else {
          result = await generator.generate(input);
        }
        if (signal?.aborted) throw new GenerationAborted();

        const text = result.text.trim() ? result.text : 'The answer generator returned no text.';
        const validation = validateAnswer({ question: query, answer: text, sources, truncated: result.stopReason === 'max_tokens' });
        const citedSources = citedSourcesOf(text, sources);
        const totalTime = elapsed(p);
        hooks.metadata?.({
          confidence: validation.confidence,
          citedSources,
          validation,
          generator: generator.id,
          model: result.model,
          totalTime,
          sourceCount: sources.length,
        });

        const metadata: AssistantMetadata = {
          confidence: validation.confidence,
          sources: sources.map(sourceRef),
          citedSources,
          validation,
          generator: generator.id,
          model: result.model,
          totalTime,
        };
        // The answer is known before it is stored: with an Idempotency-Key, it is kept in the
        // exchange's own transaction, so a retry after a lost commit acknowledgement gets it.
        const conversationId = p.conversationId ?? newId();
        // (A stream's events are kept as they went out, when it ends: src/plugins/idempotency.ts.)
        if (!opts.streamed)
          presetIdempotentResponse(
            200,
            ok({
              answer: text,
              formattedAnswer: { text: formatAnswer(text, sources, citedSources), format: 'markdown' },
              sources,
              citedSources,
              validation,
              conversationId,
              totalTime,
            }),
          );
        let saved: { conversationId: string; assistantMessageId: string | null };
        try {
          saved = await conversations.saveExchange(p.scope, {
            conversationId: p.conversationId,
            newConversationId: conversationId,
            question: p.question,
            askedAt: p.askedAt,
            answer: text,
            answeredAt: new Date(),
            metadata,
          });
        } catch (err) {
          // The connection was lost around the commit: with an Idempotency-Key the answer
          // committed with the exchange is known after the reconnection, and is what the
          // client gets (and what is logged).
          if (!isDatabaseUnavailable(err) || !(await idempotentEffectCommitted())) throw err;
          saved = { conversationId, assistantMessageId: null };
        }
        if (saved.assistantMessageId) hooks.saved?.({ conversationId: saved.conversationId, messageId: saved.assistantMessageId });
        logQuery(p, {
          status: 'answered',
          conversationId: saved.conversationId,
          sources,
          cited: citedSources.map((c) => c.sourceNumber),
          validation,
          result,
          firstChunkMs,
        });
        return {
          answer: text,
          formattedAnswer: { text: formatAnswer(text, sources, citedSources), format: 'markdown' },
          sources,
          citedSources,
          validation,
          conversationId: saved.conversationId,
          totalTime,
        };
      } catch (err) {
        const aborted = isAbort(err, signal) || signal?.aborted === true;
        logQuery(p, {
          status: aborted ? 'aborted' : 'failed',
          // What the client is told: a lost database is 503 DATABASE_UNAVAILABLE (src/plugins/errors.ts).
          errorCode: aborted ? 'CLIENT_CLOSED' : isDatabaseUnavailable(err) ? 'DATABASE_UNAVAILABLE' : err instanceof AppError ? err.code : 'INTERNAL_ERROR',
          sources,
          result,
          firstChunkMs,
        });
        throw aborted ? new GenerationAborted() : err;
      }
    },
  };
}
