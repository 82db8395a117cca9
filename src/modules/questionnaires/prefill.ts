import type { AnswerValue, StoredQuestion, Suggestion, SuggestionCitation } from '../../db/schema/questionnaires.js';
import { plainText, sentences } from '../../rag/text.js';
import type { Source } from '../../domain/sources.js';

/**
 * Pre-fill (docs/questionnaires.md): for each question, passages of the vendor
 * workspace's own indexed documents (never the shared DORA corpus) are searched and
 * an answer is proposed with its citations. A proposal is only a suggestion: it is
 * never scored and never submitted until the vendor or a reviewer confirms it.
 *
 * - A passage is *evidence* when it mentions at least `EVIDENCE_SHARE` of the
 *   question's evidence terms (word-prefix match, case- and hyphen-insensitive), and
 *   *related* (cited, without a proposed value) from `RELATED_SHARE`.
 * - yes_no: `yes` when a passage is evidence; nothing is proposed from the absence
 *   of evidence (never `no`).
 * - number: a figure with the question's unit (`99.9 %`, `72 hours`, `30 days`)
 *   standing close to an evidence term in the evidence, when one figure is strictly
 *   the most frequent.
 * - text: the sentences of the best passage that share the most terms with the
 *   question (at most 2, 600 characters).
 * - date and choice: no value; the citations are given for the person answering.
 */
export const EVIDENCE_SHARE = 0.6;
/** A passage is cited at all only when it mentions at least this share of the terms. */
export const RELATED_SHARE = 0.5;
export const MAX_CITATIONS = 3;
const PASSAGE_CHARS = 500;

const flat = (s: string) => plainText(s).replace(/\s+/g, ' ').trim();
const normalize = (s: string) => s.toLowerCase().replace(/(\w)-(\w)/g, '$1$2');

function mentions(text: string, term: string): boolean {
  const escaped = term.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^a-z0-9])${escaped}`).test(text);
}

/** Share of the evidence terms a text mentions. */
export function evidenceShare(terms: string[], text: string): number {
  if (!terms.length) return 0;
  const t = normalize(text);
  return terms.filter((term) => mentions(t, normalize(term))).length / terms.length;
}

const UNIT_PATTERNS: Record<string, RegExp> = {
  '%': /(\d{1,3}(?:\.\d+)?)\s?%/g,
  hours: /(\d{1,4})\s?(?:hours?|hrs?)\b/g,
  days: /(\d{1,4})\s?(?:calendar |business |working )?days?\b/g,
  months: /(\d{1,3})\s?months?\b/g,
};

/** Characters between a figure and an evidence term for the figure to be about it. */
const FIGURE_WINDOW = 40;

/**
 * The figure for a number question: the figures followed by the question's unit that
 * stand within FIGURE_WINDOW characters of an evidence term, counted once per distinct
 * sentence of the evidence; the most frequent one when it is strictly more frequent
 * than any other, within min..max.
 */
function figureFor(q: StoredQuestion, texts: string[], terms: string[]): number | null {
  const re = q.unit ? UNIT_PATTERNS[q.unit] : undefined;
  if (!re) return null;
  const counts = new Map<number, number>();
  const seen = new Set<string>();
  for (const t of texts) {
    for (const s of sentences(plainText(t))) {
      const key = s.replace(/\s+/g, ' ').trim();
      if (seen.has(key)) continue;
      seen.add(key);
      for (const m of key.matchAll(re)) {
        const v = Number(m[1]);
        if ((q.min !== undefined && v < q.min) || (q.max !== undefined && v > q.max)) continue;
        const start = m.index ?? 0;
        const around = key.slice(Math.max(0, start - FIGURE_WINDOW), start + m[0].length + FIGURE_WINDOW);
        if (terms.length && evidenceShare(terms, around) === 0) continue;
        counts.set(v, (counts.get(v) ?? 0) + 1);
      }
    }
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  if (!ranked.length || (ranked[1] && ranked[1][1] === ranked[0]![1])) return null;
  return ranked[0]![0];
}

/** The passage of a source closest to the question: its best window of sentences. */
function passageOf(source: Source, terms: string[]): string {
  const text = flat(source.content);
  if (text.length <= PASSAGE_CHARS) return text;
  const ss = sentences(plainText(source.content)).map((s) => s.replace(/\s+/g, ' ').trim());
  let best = 0;
  let bestScore = -1;
  ss.forEach((s, i) => {
    const score = evidenceShare(terms, s);
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  let out = ss[best] ?? text.slice(0, PASSAGE_CHARS);
  for (let j = best + 1; j < ss.length && out.length + ss[j]!.length < PASSAGE_CHARS; j++) out += ` ${ss[j]}`;
  return out.length > PASSAGE_CHARS ? `${out.slice(0, PASSAGE_CHARS - 1)}…` : out;
}

function citation(source: Source, terms: string[]): SuggestionCitation {
  return {
    sourceId: source.id,
    documentId: source.documentId,
    title: source.title,
    section: source.section,
    url: source.url,
    passage: passageOf(source, terms),
    score: source.score,
  };
}

/** Terms to look for in a passage: the question's evidence terms, else the words of its query. */
function termsOf(q: StoredQuestion): string[] {
  if (q.evidenceTerms?.length) return q.evidenceTerms;
  const query = q.prefillQuery ?? q.text;
  return [...new Set(query.toLowerCase().match(/[a-z0-9]{4,}/g) ?? [])].slice(0, 8);
}

/** The query sent to retrieval for a question. */
export function prefillQuery(q: StoredQuestion): string {
  return q.prefillQuery ?? q.text;
}

/**
 * Proposes an answer to one question from retrieved sources. `workspaceId` keeps
 * only the vendor workspace's own passages. Returns null when nothing relevant.
 */
export function suggestAnswer(q: StoredQuestion, sources: Source[], workspaceId: string, now: Date): Suggestion | null {
  const own = sources.filter((s) => s.workspaceId === workspaceId);
  if (!own.length) return null;
  const terms = termsOf(q);
  const ranked = own
    .map((s) => ({ s, share: evidenceShare(terms, flat(s.content)) }))
    .filter((x) => x.share >= RELATED_SHARE)
    .sort((a, b) => b.share - a.share || b.s.score - a.s.score);
  if (!ranked.length) return null;
  const evidence = ranked.filter((x) => x.share >= EVIDENCE_SHARE);
  const cited = (evidence.length ? evidence : ranked).slice(0, MAX_CITATIONS);
  const citations = cited.map((x) => citation(x.s, terms));
  let value: AnswerValue | null = null;
  let rationale: string;
  switch (q.type) {
    case 'yes_no':
      if (evidence.length) {
        value = 'yes';
        rationale = `The vendor's documents address this (${citations.length} passage${citations.length > 1 ? 's' : ''} cited); confirm that the contract covers it.`;
      } else rationale = 'Related passages were found, but none clearly addresses the question; no answer is proposed.';
      break;
    case 'number': {
      const v = evidence.length
        ? figureFor(
            q,
            evidence.map((x) => x.s.content),
            terms,
          )
        : null;
      value = v;
      rationale =
        v === null
          ? 'Related passages were found; no single figure could be read from them.'
          : `Figure read from the cited passage${citations.length > 1 ? 's' : ''}; confirm it.`;
      break;
    }
    case 'text': {
      const best = citations[0]!;
      const ss = sentences(best.passage)
        .sort((a, b) => evidenceShare(terms, b) - evidenceShare(terms, a))
        .slice(0, 2);
      const text = ss.join(' ').slice(0, 600).trim();
      value = text || null;
      rationale = "Sentences quoted from the vendor's documents; edit them into an answer.";
      break;
    }
    default:
      rationale = 'Passages that may help to answer are cited; no value is proposed for this answer type.';
  }
  return { value, rationale, citations, createdAt: now.toISOString() };
}
