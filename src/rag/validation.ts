import { CITATION, NO_ANSWER, looksLikeInstruction } from './prompt.js';
import { coverage, figures, round2, sentences, termSet, terms } from './text.js';
import { conceptIn, indexPassage } from './concepts.js';
import { contradictions } from './contradiction.js';
import { isSpecific, readQuestion, weighEvidence } from './evidence.js';
import type { Validation } from '../domain/answers.js';
import type { CitedSource, Source } from '../domain/sources.js';

/**
 * Answer validation, computed from evidence (docs/rag.md, "Validation"):
 * - every `[Source n]` marker must point at a returned source;
 * - every sentence that states something must be supported by the source(s) it cites
 *   (share of its content terms found in them, and every figure found verbatim);
 * - the sources must be relevant to the question (share of its content terms in a source).
 * `confidence` is derived from these measures; every failure is listed in `issues`.
 */

/** Share of a sentence's content terms that its cited sources must hold to support it. */
export const SUPPORT_THRESHOLD = 0.5;
/** Below this share against every source, a sentence is treated as invented. */
export const INVENTED_THRESHOLD = 0.34;
/** Share of the question's content terms one source must hold to count as relevant. */
export const RELEVANCE_THRESHOLD = 0.6;
/** Sentences with fewer content terms state nothing checkable (`In short:`). */
const MIN_CLAIM_TERMS = 3;

const ABSTENTION = [
  new RegExp(NO_ANSWER.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\.$/, ''), 'i'),
  /\b(sources?|documents?|passages?|context|provided (text|material))\b[^.]{0,80}\b(do(es)? not|don['’]t|doesn['’]t|did not|contain no|provide no|make no|say nothing|is silent|are silent)\b/i,
  /\b(no|not enough) (information|mention|details?|evidence)\b[^.]{0,60}\b(sources?|documents?|provided|available)\b/i,
  /\b(is|are) not (mentioned|specified|stated|addressed|covered)\b/i,
];

export function isAbstention(sentence: string): boolean {
  return ABSTENTION.some((p) => p.test(sentence));
}

/** Valid citation numbers of an answer, in order of first appearance. */
export function citedNumbers(answer: string, sourceCount: number): number[] {
  const out: number[] = [];
  for (const m of answer.matchAll(CITATION)) {
    const n = Number(m[1]);
    if (n >= 1 && n <= sourceCount && !out.includes(n)) out.push(n);
  }
  return out;
}

export function citedSourcesOf(answer: string, sources: Source[]): CitedSource[] {
  return citedNumbers(answer, sources.length).flatMap((n) => {
    const s = sources.find((x) => x.sourceNumber === n);
    return s ? [{ sourceNumber: n, title: s.title, url: s.url }] : [];
  });
}

const quote = (s: string) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return `"${flat.length > 80 ? `${flat.slice(0, 77)}...` : flat}"`;
};

interface Claim {
  index: number;
  text: string;
  cited: number[];
  support: number;
  bestAny: number;
  missingFigures: string[];
  unknownFigures: string[];
  supported: boolean;
}

export interface ValidationInput {
  question: string;
  answer: string;
  sources: Source[];
  /** The generator stopped at its token limit. */
  truncated?: boolean;
}

const JUDGEMENT_PARAGRAPH = /^[*_\s]*(Verdict|Not found in the documents)\b/;

/** Below this share of the question's asked concepts in the cited sentences, the answer does not address it. */
export const ADDRESSED_SHARE = 0.5;
/** Confidence caps: below "Medium" (0.4) when the answer does not address the question, below "High" (0.7) when it addresses it in part. */
const LOW_CAP = 0.35;
const MEDIUM_CAP = 0.65;

/**
 * The question's asked concepts (src/rag/evidence.ts: not the words that frame it, not the
 * vendor's names) and which of them the cited sentences hold, in their text or their source's
 * title and headings. A domain concept, figure or name missing counts as missing; a plain word
 * missing only when fewer than half of the plain words are held (it may be a way of asking).
 */
function askedHeld(question: string, sources: Source[], cited: Claim[]): { asked: number; share: number; missing: string[] } {
  if (!cited.length || !question.trim()) return { asked: 0, share: 1, missing: [] };
  const reading = readQuestion(question);
  weighEvidence(reading, sources);
  const asked = reading.concepts.filter((c) => c.role === 'ask' && !c.concept.frame && !c.concept.vendor).map((c) => c.concept);
  if (!asked.length) return { asked: 0, share: 1, missing: [] };
  const citedNums = new Set(cited.flatMap((c) => c.cited));
  const meta = sources
    .filter((s) => citedNums.has(s.sourceNumber))
    .map((s) => `${s.title} ${s.section}`)
    .join(' ');
  const index = indexPassage(meta, '', cited.map((c) => c.text).join(' '));
  const held = asked.filter((c) => conceptIn(c, index) !== null);
  const weight = (c: (typeof asked)[number]) => (isSpecific(c) ? 2 : 1);
  const total = asked.reduce((a, c) => a + weight(c), 0);
  const got = held.reduce((a, c) => a + weight(c), 0);
  const plain = asked.filter((c) => !isSpecific(c));
  const plainHeld = plain.filter((c) => held.includes(c)).length;
  const missing = asked.filter((c) => !held.includes(c) && (isSpecific(c) || plainHeld * 2 < plain.length)).map((c) => c.label.split(' / ')[0]!);
  return { asked: asked.length, share: got / total, missing };
}

export function validateAnswer(input: ValidationInput): Validation {
  const { question, answer, sources } = input;
  const issues: string[] = [];
  const byNumber = new Map(sources.map((s) => [s.sourceNumber, s]));
  const sourceTerms = new Map(sources.map((s) => [s.sourceNumber, termSet(`${s.title} ${s.section} ${s.content}`)]));
  // A figure of a source's title or headings (`DORA Article 30`) is the source's too.
  const sourceFigures = new Map(sources.map((s) => [s.sourceNumber, new Set(figures(`${s.title} ${s.section} ${s.content}`))]));
  const allFigures = new Set([...sourceFigures.values()].flatMap((f) => [...f]));

  // 1. Citation markers point at returned sources.
  const markers = [...answer.matchAll(CITATION)].map((m) => Number(m[1]));
  const invalid = [...new Set(markers.filter((n) => !byNumber.has(n)))];
  for (const n of invalid) {
    issues.push(`[Source ${n}] does not refer to a retrieved source (${sources.length} ${sources.length === 1 ? 'source was' : 'sources were'} returned)`);
  }

  // 2. Per-sentence support by what the sentence cites.
  const units: { text: string; cited: number[] }[] = [];
  // A judgement's verdict and the elements it did not find (their paragraphs) are the
  // obligation engine's reading of the quoted passages (docs/rag.md, "Judgement questions"),
  // not claims quoted from a source.
  const checked = answer
    .split(/\n\s*\n/)
    .filter((p) => !JUDGEMENT_PARAGRAPH.test(p))
    .join('\n\n');
  // Labels are not claims: a paragraph's bold lead (`**Requirement, DORA Article 30(2)(h):**`) and a
  // list item's emphasised lead (`- *Audit rights*:`) name what the quote after them is about.
  const unlabelled = checked.replace(/^\s*\*\*[^*\n]{1,160}:\*\*[ \t]*/gm, '').replace(/^(\s*[-+]\s+)\*[^*\n]{1,200}\*:[ \t]*/gm, '$1');
  for (const raw of sentences(unlabelled.replace(/^\s{0,3}#{1,6}\s+/gm, '').replace(/^\s*(?:[-*+]|\d{1,3}[.)])\s+/gm, ''))) {
    const cited = [...raw.matchAll(CITATION)].map((m) => Number(m[1]));
    const text = raw.replace(CITATION, ' ').replace(/\s+/g, ' ').trim();
    // A question (the heading of a part of a multi-part answer) states nothing.
    if (/\?[*_\s]*$/.test(text)) continue;
    if (!/\p{L}/u.test(text) && units.length) {
      // A sentence made only of markers (`... hours. [Source 2]`) belongs to the previous one.
      units[units.length - 1].cited.push(...cited);
      continue;
    }
    units.push({ text, cited });
  }
  const claims: Claim[] = [];
  let abstained = false;
  units.forEach((u, i) => {
    if (isAbstention(u.text)) {
      abstained = true;
      return;
    }
    const t = terms(u.text);
    if (new Set(t).size < MIN_CLAIM_TERMS) return;
    const cited = [...new Set(u.cited.filter((n) => byNumber.has(n)))];
    const citedTerms = new Set(cited.flatMap((n) => [...sourceTerms.get(n)!]));
    const citedFigures = new Set(cited.flatMap((n) => [...sourceFigures.get(n)!]));
    const support = cited.length ? coverage(t, citedTerms) : 0;
    const bestAny = Math.max(0, ...[...sourceTerms.values()].map((st) => coverage(t, st)));
    const figs = figures(u.text);
    const missingFigures = figs.filter((f) => !citedFigures.has(f));
    const unknownFigures = figs.filter((f) => !allFigures.has(f));
    claims.push({
      index: i + 1,
      text: u.text,
      cited,
      support,
      bestAny,
      missingFigures,
      unknownFigures,
      supported: cited.length > 0 && support >= SUPPORT_THRESHOLD && missingFigures.length === 0,
    });
  });

  for (const c of claims) {
    if (c.cited.length === 0) {
      issues.push(
        c.bestAny >= SUPPORT_THRESHOLD
          ? `Sentence ${c.index} cites no source: ${quote(c.text)}`
          : `Sentence ${c.index} cites no source and is not supported by any retrieved source: ${quote(c.text)}`,
      );
    } else if (!c.supported) {
      const why = c.missingFigures.length
        ? `figures not found in the cited source${c.cited.length > 1 ? 's' : ''}: ${c.missingFigures.join(', ')}`
        : `only ${Math.round(c.support * 100)}% of its terms appear in ${c.cited.map((n) => `[Source ${n}]`).join(', ')}`;
      issues.push(`Sentence ${c.index} is not supported by the sources it cites (${why}): ${quote(c.text)}`);
    }
  }

  // What the question asks, held by the cited sentences (step 4 below reports on it).
  const addressed = askedHeld(
    question,
    sources,
    claims.filter((c) => c.cited.length),
  );
  // 3. Relevance of the sources to the question: the share of its words a source holds, unless the
  // cited sentences hold the concepts it asks about (its words include the frame: "within how many
  // hours must …", "summarise …", which no source needs to repeat).
  const askedAnswered = claims.length > 0 && addressed.asked > 0 && addressed.share >= ADDRESSED_SHARE;
  const qTerms = terms(question);
  const relevanceOf = (n: number) => coverage(qTerms, sourceTerms.get(n)!);
  const citedAll = [...new Set(claims.flatMap((c) => c.cited))];
  const considered = citedAll.length ? citedAll : sources.map((s) => s.sourceNumber);
  const relevance = considered.length ? Math.max(...considered.map(relevanceOf)) : 0;
  const anyRelevant = sources.some((s) => relevanceOf(s.sourceNumber) >= RELEVANCE_THRESHOLD);
  const isRelevant = sources.length > 0 && (relevance >= RELEVANCE_THRESHOLD || askedAnswered);

  if (sources.length === 0) issues.push('No sources were retrieved for this question');
  else if (!anyRelevant && !askedAnswered) issues.push('None of the retrieved sources appears relevant to the question');
  else if (!isRelevant) issues.push('The cited sources do not appear relevant to the question');
  if (abstained) issues.push('The answer states that the retrieved sources do not answer the question');
  if (claims.length === 0 && !abstained && sources.length > 0) issues.push('The answer makes no statement that can be checked against the sources');
  if (input.truncated) issues.push('The answer was cut off at the generation token limit');
  for (const s of sources) {
    if (looksLikeInstruction(s.content)) {
      issues.push(`[Source ${s.sourceNumber}] contains text addressed to the assistant (possible prompt injection); it was treated as data`);
    }
  }

  // 4. What the question asks: held by the cited sentences? (docs/rag.md, "Confidence")
  if (claims.length && addressed.asked > 0) {
    if (addressed.share < ADDRESSED_SHARE) {
      issues.push(
        `The cited passages do not address what the question asks about (${addressed.missing
          .slice(0, 4)
          .map((m) => `"${m}"`)
          .join(', ')} not in them): the answer is not supported as an answer to this question`,
      );
    } else if (addressed.missing.length) {
      issues.push(
        `The cited passages do not mention ${addressed.missing
          .slice(0, 4)
          .map((m) => `"${m}"`)
          .join(', ')} of the question`,
      );
    }
  }
  // 5. Cited passages that contradict one another.
  const disagreements = contradictions(claims.flatMap((c) => (c.cited.length ? [{ text: c.text, source: c.cited[0]! }] : [])));
  for (const d of disagreements) {
    issues.push(`The cited passages disagree on "${d.words}": [Source ${d.denies.source}] denies what [Source ${d.states.source}] states`);
  }

  // 6. Verdicts and confidence.
  const supportedShare = claims.length ? claims.filter((c) => c.supported).length / claims.length : 0;
  const inventedClaims = claims.filter((c) => c.bestAny < INVENTED_THRESHOLD || c.unknownFigures.length > 0);
  const hasHallucinations = invalid.length > 0 || inventedClaims.length > 0;
  const isGrounded = claims.length > 0 && supportedShare >= 0.8 && invalid.length === 0;

  let confidence: number;
  if (sources.length === 0) {
    confidence = 0;
  } else if (claims.length === 0) {
    // Nothing was answered: the confidence that the question is answered stays low.
    confidence = 0.2 * relevance;
  } else {
    const validity = markers.length ? (markers.length - markers.filter((n) => !byNumber.has(n)).length) / markers.length : 0;
    const meanScore = citedAll.length ? citedAll.reduce((a, n) => a + Math.min(1, Math.max(0, byNumber.get(n)!.score)), 0) / citedAll.length : 0;
    confidence = 0.45 * supportedShare + 0.2 * relevance + 0.15 * validity + 0.2 * meanScore;
    if (hasHallucinations) confidence *= 0.6;
    if (abstained) confidence *= 0.7;
  }
  if (input.truncated) confidence *= 0.9;
  // High confidence only when the cited sentences hold what the question asks; an answer
  // quoting passages that do not address it is low confidence, whatever its grounding.
  if (claims.length && addressed.asked > 0) {
    if (addressed.share < ADDRESSED_SHARE) confidence = Math.min(confidence, LOW_CAP);
    else if (addressed.missing.length) confidence = Math.min(confidence, MEDIUM_CAP);
  }
  if (disagreements.length) confidence = Math.min(confidence, MEDIUM_CAP);
  return {
    confidence: round2(Math.min(1, Math.max(0, confidence))),
    isGrounded,
    hasHallucinations,
    isRelevant,
    issues,
  };
}
