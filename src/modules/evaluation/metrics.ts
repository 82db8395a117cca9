import type { Embedder } from '../../rag/embedders/index.js';
import { CITATION } from '../../rag/prompt.js';
import { coverage, figures, sentences, terms } from '../../rag/text.js';
import { isAbstention } from '../../rag/validation.js';

/**
 * Built-in evaluation metrics (docs/evaluation.md), in the spirit of Ragas but computed
 * without a language model: lexical support (Porter stems, stop words removed, figures
 * matched verbatim) and the project's embedder. Every metric is in 0..1, or null when it
 * cannot be computed for the sample.
 */

export interface Sample {
  question: string;
  answer: string;
  contexts: string[];
  groundTruth?: string | null;
}

export interface Metrics {
  faithfulness: number | null;
  answerRelevancy: number | null;
  contextPrecision: number | null;
  contextRecall: number | null;
}
export const METRIC_NAMES = ['faithfulness', 'answerRelevancy', 'contextPrecision', 'contextRecall'] as const;

export interface BuiltinDetails {
  /** Checkable statements of the answer and how many of them the contexts support. */
  claims: number;
  supportedClaims: number;
  /** Up to 5 statements of the answer that no context supports. */
  unsupportedClaims: string[];
  /** Whether each context (in rank order) is relevant to the question. */
  relevantContexts: boolean[];
  /** Sentences of the ground truth and how many of them the contexts support (null without ground truth). */
  groundTruthSentences: number | null;
  supportedGroundTruthSentences: number | null;
  /** The two parts of answer relevancy. */
  answerSimilarity: number;
  questionCoverage: number;
}

/** Share of a statement's content terms the contexts must hold (and all its figures) to support it. */
export const SUPPORT_THRESHOLD = 0.5;
/** Share of the question's content terms a context must hold to count as relevant. */
export const RELEVANCE_THRESHOLD = 0.5;

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Statements of a text: its sentences, without citation markers or list bullets, that carry content. */
export function statements(text: string): string[] {
  const cleaned = text.replace(/^\s{0,3}#{1,6}\s+/gm, '').replace(/^\s*(?:[-*+•]|\d{1,3}[.)])\s+/gm, '');
  const out: string[] = [];
  for (const raw of sentences(cleaned)) {
    const s = raw.replace(CITATION, ' ').replace(/\s+/g, ' ').trim();
    if (!/\p{L}|\p{N}/u.test(s)) continue;
    // A statement carries at least two content terms, or a figure.
    if (new Set(terms(s)).size >= 2 || figures(s).length > 0) out.push(s);
  }
  return out;
}

interface Evidence {
  terms: Set<string>;
  figures: Set<string>;
}

function evidenceOf(texts: string[]): Evidence {
  const t = new Set<string>();
  const f = new Set<string>();
  for (const c of texts) {
    for (const x of terms(c)) t.add(x);
    for (const x of figures(c)) f.add(x);
  }
  return { terms: t, figures: f };
}

/** A statement is supported when enough of its content terms, and every figure, are in the evidence. */
export function supports(e: Evidence, statement: string): boolean {
  const t = terms(statement.replace(CITATION, ' '));
  if (t.length === 0) return false;
  if (coverage(t, e.terms) < SUPPORT_THRESHOLD) return false;
  return figures(statement.replace(CITATION, ' ')).every((f) => e.figures.has(f));
}

/**
 * Rank-weighted precision (average precision): the mean of precision@k over the ranks k
 * that hold a relevant context; 0 when none is relevant.
 */
export function averagePrecision(relevant: boolean[]): number {
  let hits = 0;
  let sum = 0;
  relevant.forEach((r, i) => {
    if (!r) return;
    hits += 1;
    sum += hits / (i + 1);
  });
  return hits === 0 ? 0 : sum / hits;
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Computes the four metrics of each sample (one embedder call for all answers and questions). */
export async function builtinMetrics(samples: Sample[], embedder: Embedder): Promise<{ metrics: Metrics; details: BuiltinDetails }[]> {
  const texts = samples.flatMap((s) => [s.question, s.answer.replace(CITATION, ' ')]);
  const vectors = await embedder.embed(texts);
  return samples.map((s, i) => {
    const evidence = evidenceOf(s.contexts);

    // Faithfulness: share of the answer's statements supported by the contexts.
    const claims = statements(s.answer).filter((c) => !isAbstention(c));
    const unsupported = claims.filter((c) => !supports(evidence, c));
    const faithfulness = claims.length ? (claims.length - unsupported.length) / claims.length : null;

    // Answer relevancy: mean of the embedding similarity of answer and question and of
    // the share of the question's content terms the answer addresses; 0 for an empty or
    // noncommittal answer ("the sources do not say").
    const qTerms = terms(s.question);
    const answerTerms = new Set(terms(s.answer));
    const similarity = Math.max(0, cosine(vectors[2 * i], vectors[2 * i + 1]));
    const questionCoverage = qTerms.length ? coverage(qTerms, answerTerms) : 0;
    const noncommittal =
      !s.answer.trim() || (claims.length === 0 && statements(s.answer).some(isAbstention)) || (claims.length === 0 && answerTerms.size === 0);
    const answerRelevancy = noncommittal ? 0 : (similarity + questionCoverage) / 2;

    // Context precision: rank-weighted share of contexts relevant to the question.
    const relevantContexts = s.contexts.map((c) => qTerms.length > 0 && coverage(qTerms, new Set(terms(c))) >= RELEVANCE_THRESHOLD);
    const contextPrecision = s.contexts.length ? averagePrecision(relevantContexts) : null;

    // Context recall: share of the ground truth's statements supported by the contexts.
    let contextRecall: number | null = null;
    let gtTotal: number | null = null;
    let gtSupported: number | null = null;
    if (s.groundTruth && s.groundTruth.trim()) {
      const gt = statements(s.groundTruth);
      gtTotal = gt.length;
      gtSupported = gt.filter((g) => supports(evidence, g)).length;
      contextRecall = gt.length ? gtSupported / gt.length : null;
    }

    return {
      metrics: {
        faithfulness: faithfulness === null ? null : round3(faithfulness),
        answerRelevancy: round3(answerRelevancy),
        contextPrecision: contextPrecision === null ? null : round3(contextPrecision),
        contextRecall: contextRecall === null ? null : round3(contextRecall),
      },
      details: {
        claims: claims.length,
        supportedClaims: claims.length - unsupported.length,
        unsupportedClaims: unsupported.slice(0, 5).map((c) => (c.length > 200 ? `${c.slice(0, 197)}...` : c)),
        relevantContexts,
        groundTruthSentences: gtTotal,
        supportedGroundTruthSentences: gtSupported,
        answerSimilarity: round3(similarity),
        questionCoverage: round3(questionCoverage),
      },
    };
  });
}

/** Mean of each metric over the samples where it is not null (null when it is null everywhere). */
export function averages(rows: Metrics[]): Metrics {
  const out = {} as Metrics;
  for (const name of METRIC_NAMES) {
    const vals = rows.map((r) => r[name]).filter((v): v is number => typeof v === 'number');
    out[name] = vals.length ? round3(vals.reduce((a, b) => a + b, 0) / vals.length) : null;
  }
  return out;
}
