import { NO_ANSWER, looksLikeInstruction } from '../prompt.js';
import { contextualQuestion } from '../query.js';
import { plainText, sentences, terms, words } from '../text.js';
import type { GenerateInput, GenerationResult, Generator, Source } from '../types.js';

/**
 * The offline default generator: composes the answer from the sentences of the
 * retrieved sources that best support the question, each followed by its
 * `[Source n]` marker. When no sentence covers enough of the question it says
 * plainly that the sources do not answer it (docs/rag.md, "Extractive generator").
 */

export interface ExtractiveOptions {
  /** At most this many sentences in an answer. */
  maxSentences?: number;
  /** Minimum share of the question's (idf-weighted) terms a sentence must cover. */
  minCoverage?: number;
}

interface Candidate {
  source: Source;
  text: string;
  terms: Set<string>;
  coverage: number;
  score: number;
}

const MIN_CHARS = 25;
const MAX_CHARS = 700;

function candidatesOf(sources: Source[]) {
  const out: { source: Source; text: string; terms: Set<string>; context: Set<string> }[] = [];
  for (const source of sources) {
    const context = new Set(terms(`${source.title} ${source.section}`));
    for (const s of sentences(plainText(source.content))) {
      const text = s.replace(/\s+/g, ' ').trim();
      if (text.length < MIN_CHARS || text.length > MAX_CHARS) continue;
      if (/[:?]$/.test(text)) continue; // lead-ins and questions answer nothing
      if (looksLikeInstruction(text)) continue; // text addressed to an assistant is never repeated
      const t = new Set(terms(text));
      if (t.size < 4 || words(text).length < 6) continue; // headings and fragments state nothing
      out.push({ source, text, terms: t, context });
    }
  }
  return out;
}

const jaccard = (a: Set<string>, b: Set<string>) => {
  let inter = 0;
  for (const x of a) if (b.has(x)) inter += 1;
  return inter / (a.size + b.size - inter || 1);
};

/**
 * The answer text for a question over sources (deterministic). `context` (the previous
 * question of a follow-up) adds its terms at half weight: they steer the choice of
 * sentences without being required.
 */
export function composeExtractiveAnswer(question: string, sources: Source[], opts: ExtractiveOptions = {}, context = ''): string {
  const maxSentences = opts.maxSentences ?? 3;
  const minCoverage = opts.minCoverage ?? 0.5;
  const own = [...new Set(terms(question))];
  const qTerms = [...new Set([...own, ...terms(context)])];
  const weight = new Map(qTerms.map((t) => [t, own.includes(t) ? 1 : 0.5]));
  if (sources.length === 0) return `${NO_ANSWER} No sources were retrieved for it.`;
  if (own.length === 0) return `${NO_ANSWER} The question names nothing that can be looked up in them.`;

  const pool = candidatesOf(sources);
  const df = new Map<string, number>();
  for (const c of pool) for (const t of c.terms) df.set(t, (df.get(t) ?? 0) + 1);
  const n = Math.max(1, pool.length);
  // Terms that no sentence holds weigh the most: a question about them is not answered.
  const idf = new Map(qTerms.map((t) => [t, weight.get(t)! * Math.log(1 + n / ((df.get(t) ?? 0) + 0.5))]));
  const total = qTerms.reduce((a, t) => a + idf.get(t)!, 0);

  const scored: Candidate[] = pool.map((c) => {
    let got = 0;
    for (const t of qTerms) {
      if (c.terms.has(t)) got += idf.get(t)!;
      else if (c.context.has(t)) got += 0.5 * idf.get(t)!;
    }
    const cov = total ? got / total : 0;
    return { source: c.source, text: c.text, terms: c.terms, coverage: cov, score: cov * (0.85 + 0.15 * Math.min(1, Math.max(0, c.source.score))) };
  });
  scored.sort((a, b) => b.score - a.score || a.source.sourceNumber - b.source.sourceNumber);

  const chosen: Candidate[] = [];
  for (const c of scored) {
    if (chosen.length >= maxSentences) break;
    if (c.coverage < minCoverage) break;
    if (chosen.length && c.score < 0.6 * chosen[0].score) break;
    if (chosen.some((x) => x.text === c.text || jaccard(x.terms, c.terms) > 0.6)) continue;
    chosen.push(c);
  }

  if (chosen.length === 0) {
    const everywhere = new Set(pool.flatMap((c) => [...c.terms, ...c.context]));
    const missing = [...new Set(words(question).filter((w) => {
      const [t] = terms(w);
      return t !== undefined && !everywhere.has(t);
    }))];
    const why = missing.length
      ? `The retrieved passages do not mention ${missing.slice(0, 5).map((w) => `"${w}"`).join(', ')}.`
      : 'The retrieved passages do not state it: they mention its terms only separately.';
    return `${NO_ANSWER} ${why}`;
  }
  return chosen
    .map((c) => {
      const body = c.text.replace(/[\s.;,]+$/, '');
      const end = /[!?]$/.test(body) ? '' : '.';
      return `${body.charAt(0).toUpperCase()}${body.slice(1)} [Source ${c.source.sourceNumber}]${end}`;
    })
    .join(' ');
}

/** Splits text into stream pieces of a few words, in order (concatenation gives the text back). */
export function pieces(text: string, size = 32): string[] {
  const out: string[] = [];
  let buf = '';
  for (const part of text.split(/(?<=\s)/)) {
    buf += part;
    if (buf.length >= size) {
      out.push(buf);
      buf = '';
    }
  }
  if (buf) out.push(buf);
  return out;
}

export function extractiveGenerator(opts: ExtractiveOptions = {}): Generator {
  const result = (input: GenerateInput): GenerationResult => {
    const contextual = contextualQuestion(input.question, input.history);
    const context = contextual === input.question ? '' : contextual.slice(input.question.trim().length);
    return { text: composeExtractiveAnswer(input.question, input.sources, opts, context), stopReason: 'end_turn', model: null };
  };
  return {
    id: 'extractive',
    model: null,
    async generate(input) {
      input.signal?.throwIfAborted();
      return result(input);
    },
    async *stream(input) {
      input.signal?.throwIfAborted();
      const r = result(input);
      for (const p of pieces(r.text)) {
        input.signal?.throwIfAborted();
        yield p;
      }
      return r;
    },
  };
}
