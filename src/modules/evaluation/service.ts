import { performance } from 'node:perf_hooks';
import type { Scope } from '../../domain/scope.js';
import { AppError, badRequest } from '../../lib/errors.js';
import { EmbedderError, type Embedder } from '../../rag/embedders/index.js';
import { evaluateExternally, type ExternalConfig } from './external.js';
import { averages, builtinMetrics, type BuiltinDetails, type Metrics, type Sample } from './metrics.js';

/**
 * POST /ragas/evaluate (docs/evaluation.md): scores question/answer/contexts samples,
 * given by the client or produced by running questions through the answer service,
 * with an external evaluation service when one is configured, else built-in metrics.
 */

export const MAX_SAMPLES = 20;
export const MAX_QUESTIONS = 10;

/** Answers one question as POST /rag would (the answer service). */
export type AskFn = (scope: Scope, question: string) => Promise<{ answer: string; contexts: string[]; conversationId: string }>;

export interface EvaluateInput {
  question?: string;
  answer?: string;
  contexts?: string[];
  groundTruth?: string;
  samples?: Sample[];
  questions?: string[];
  groundTruths?: string[];
  evaluator?: 'auto' | 'builtin' | 'external';
}

export interface EvaluatedSample {
  index: number;
  question: string;
  /** Present when the sample came from running a question (what was evaluated). */
  answer?: string;
  contexts?: string[];
  conversationId?: string;
  metrics: Metrics;
  /** Built-in evaluator only: how the figures came about. */
  details?: BuiltinDetails;
}

/** The result of an evaluation: which evaluator scored, the averages and every sample. */
export interface EvaluationResult {
  evaluator: 'external' | 'builtin';
  sampleCount: number;
  averages: Metrics;
  samples: EvaluatedSample[];
  durationMs: number;
}

/** Scores question/answer/contexts samples, with an external evaluation service or the built-in metrics. */
export interface EvaluationService {
  /** Whether an external evaluation service is configured. */
  readonly externalConfigured: boolean;
  /** Scores the samples given, or those produced by answering the questions given (400 naming a malformed body). */
  evaluate(scope: Scope, input: EvaluateInput, opts?: { requestId?: string }): Promise<EvaluationResult>;
}

const SINGLE_FIELDS = ['question', 'answer', 'contexts', 'groundTruth'] as const;

/** Which of the three body shapes was given; 400 naming the problem otherwise. */
function samplesOf(input: EvaluateInput): { mode: 'samples' | 'questions'; samples?: Sample[]; questions?: string[] } {
  const single = SINGLE_FIELDS.some((f) => input[f] !== undefined);
  const modes = [single, input.samples !== undefined, input.questions !== undefined].filter(Boolean).length;
  if (modes === 0) {
    throw badRequest('give one sample (question, answer, contexts), samples (an array of them) or questions (answered through /rag first)', [
      'body: one of question+answer+contexts, samples or questions is required',
    ]);
  }
  if (modes > 1) {
    throw badRequest('give only one of: one sample (question, answer, contexts), samples, or questions', [
      'body: question+answer+contexts, samples and questions are exclusive',
    ]);
  }
  if (single) {
    const missing = (['question', 'answer', 'contexts'] as const).filter((f) => input[f] === undefined);
    if (missing.length) {
      const details = missing.map((f) => `${f}: is required`);
      throw badRequest(details.join('; '), details);
    }
    return {
      mode: 'samples',
      samples: [{ question: input.question!, answer: input.answer!, contexts: input.contexts!, groundTruth: input.groundTruth ?? null }],
    };
  }
  if (input.samples) {
    return { mode: 'samples', samples: input.samples.map((s) => ({ ...s, groundTruth: s.groundTruth ?? null })) };
  }
  if (input.groundTruths && input.groundTruths.length !== input.questions!.length) {
    throw badRequest('groundTruths: must have one entry per question', ['groundTruths: must have one entry per question']);
  }
  return { mode: 'questions', questions: input.questions };
}

function checkBlank(samples: Sample[] | undefined, questions: string[] | undefined) {
  const details: string[] = [];
  samples?.forEach((s, i) => {
    if (!s.question.trim()) details.push(`samples.${i}.question: must not be blank`);
  });
  questions?.forEach((q, i) => {
    if (!q.trim()) details.push(`questions.${i}: must not be blank`);
  });
  if (details.length) {
    // A single sample reports its field without the index.
    const shown = samples?.length === 1 && details.length === 1 && details[0].startsWith('samples.0.') ? [details[0].replace('samples.0.', '')] : details;
    throw badRequest(shown.join('; '), shown);
  }
}

export function evaluationService(deps: { embedder: Embedder; external?: ExternalConfig; ask?: AskFn }): EvaluationService {
  return {
    externalConfigured: Boolean(deps.external?.url),

    async evaluate(scope, input, opts = {}) {
      const started = performance.now();
      const given = samplesOf(input);
      checkBlank(given.samples, given.questions);
      const choice = input.evaluator ?? 'auto';
      if (choice === 'external' && !deps.external?.url) {
        throw badRequest('evaluator: external is not configured on this server (RAGAS_URL)', [
          'evaluator: external is not configured on this server (RAGAS_URL)',
        ]);
      }
      const useExternal = choice === 'external' || (choice === 'auto' && Boolean(deps.external?.url));

      // Samples from questions: each answered exactly as POST /rag answers it.
      let samples: Sample[];
      const produced: { answer: string; contexts: string[]; conversationId: string }[] = [];
      if (given.mode === 'questions') {
        if (!deps.ask) throw new AppError(503, 'RAG_UNAVAILABLE', 'Answering questions is not available on this server');
        samples = [];
        for (const [i, question] of given.questions!.entries()) {
          const r = await deps.ask(scope, question.trim());
          produced.push(r);
          samples.push({ question: question.trim(), answer: r.answer, contexts: r.contexts, groundTruth: input.groundTruths?.[i] ?? null });
        }
      } else {
        samples = given.samples!;
      }

      let metrics: Metrics[];
      let details: BuiltinDetails[] | undefined;
      if (useExternal) {
        metrics = await evaluateExternally(deps.external!, samples, { requestId: opts.requestId });
      } else {
        let rows;
        try {
          rows = await builtinMetrics(samples, deps.embedder);
        } catch (err) {
          if (err instanceof EmbedderError) throw new AppError(502, 'EMBEDDER_ERROR', 'Evaluation failed: the embedding provider could not embed the samples');
          throw err;
        }
        metrics = rows.map((r) => r.metrics);
        details = rows.map((r) => r.details);
      }

      const out: EvaluatedSample[] = samples.map((s, i) => ({
        index: i,
        question: s.question,
        ...(given.mode === 'questions' ? { answer: produced[i].answer, contexts: produced[i].contexts, conversationId: produced[i].conversationId } : {}),
        metrics: metrics[i],
        ...(details ? { details: details[i] } : {}),
      }));
      return {
        evaluator: useExternal ? ('external' as const) : ('builtin' as const),
        sampleCount: out.length,
        averages: averages(metrics),
        samples: out,
        durationMs: Math.round(performance.now() - started),
      };
    },
  };
}
