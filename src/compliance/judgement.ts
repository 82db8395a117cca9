import type { GapResult } from '../domain/gap.js';
import { terms } from '../rag/text.js';
import { obligationQuery } from './gapAnalysis.js';
import { VENDOR_OBLIGATIONS, type VendorObligation } from './obligations.js';

/**
 * Judgement questions (docs/rag.md, "Judgement questions"): "does GitHub's contract meet DORA
 * Art. 30 termination rights?" asks whether the vendor's documents meet a DORA requirement.
 * It is answered through the obligation engine the assessments use (gapAnalysis.ts): the
 * obligation the question names, read against the workspace's documents, gives the
 * requirement, what the documents commit to, the limitation and a verdict. This file is
 * pure: which obligation a question asks about, and the verdict of the engine's result.
 */

export type Verdict = 'meets' | 'partly' | 'does_not' | 'not_addressed';

export const VERDICT_WORDS: Record<Verdict, string> = {
  meets: 'meets the requirement',
  partly: 'partly meets the requirement',
  does_not: 'does not meet the requirement',
  not_addressed: 'the documents do not address it',
};

/** The question asks whether something is met, enough, adequate (a judgement in so many words). */
const ASKS_JUDGEMENT =
  /\b(meets?|satisf(y|ies|ied)|good enough|enough|adequate|sufficient|compl(y|ies|iant)|respects?|in line with|the way (DORA|Art|Article)|per Art|check (it )?against|bar of|as (DORA|Art\.?|Article)\b[^?]{0,40}\b(requires?|demands?|expects?|asks?|wants?))\b/i;
/** A yes/no question (`does`, `is`, `can we`, `will they`, `…, and do the documents help?`). */
const YES_NO = /(^|[.?!:]\s+|,\s*|\band\s+)(do|does|did|is|are|can|could|will|would|has|have|must|should)\b/i;
/** A DORA article named: `Art. 30(2)(g)`, `Article 28(7)`, `Articles 24/25`. */
const ARTICLE_REF = /\bArt(?:icles?|s?\.)?\s*(\d{1,3})((?:\(\d+\))?(?:\([a-z]\))?(?:\([ivx]+\))?)/gi;
const NAMES_DORA = /\b(DORA|Art(icles?|s?\.)\s*\d|TLPT|threat-led)/i;

/** The article and point references of a question: `30(2)(g)` as `{ article: 30, path: '(2)(g)' }`. */
function refsOf(question: string): { article: number; path: string }[] {
  return [...question.matchAll(ARTICLE_REF)].map((m) => ({ article: Number(m[1]), path: m[2] ?? '' }));
}

/** The point path of an obligation's reference (`Article 30(2)(g)` -> `(2)(g)`; `Article 9(3)(a),(b)` -> `(3)(a)`). */
const pathOf = (o: VendorObligation) => /^Articles?\s+\d+((?:\(\d+\))?(?:\([a-z]\))?(?:\([ivx]+\))?)/.exec(o.ref)?.[1] ?? '';
/** Articles an obligation covers (`Articles 24-25` covers 24 and 25). */
const articlesOf = (o: VendorObligation) => {
  const range = /^Articles\s+(\d+)-(\d+)/.exec(o.ref);
  return range ? [Number(range[1]), Number(range[2])] : [o.article];
};

/** Words of the obligations that name no topic of their own. */
const GENERIC = new Set(
  terms('provider financial entity ICT service services documents contract contractual arrangement customer requirement evidence article'),
);

let index: { o: VendorObligation; terms: Set<string>; title: Set<string> }[] | null = null;
let idf: Map<string, number> | null = null;
function obligationIndex() {
  if (index && idf) return { index, idf };
  index = VENDOR_OBLIGATIONS.map((o) => ({
    o,
    terms: new Set(terms(`${o.title} ${obligationQuery(o)} ${o.requirement}`).filter((t) => !GENERIC.has(t))),
    title: new Set(terms(o.title)),
  }));
  idf = new Map();
  const df = new Map<string, number>();
  for (const { terms: ts } of index) for (const t of ts) df.set(t, (df.get(t) ?? 0) + 1);
  for (const [t, n] of df) idf.set(t, Math.log(1 + index.length / n));
  return { index, idf };
}

export interface ObligationAsked {
  obligation: VendorObligation;
  /** How the obligation was found: the point the question names, or the words it uses. */
  by: 'reference' | 'words';
}

/**
 * The obligation a judgement question asks about, or null when the question is not one:
 * it must name DORA or an article and ask a yes/no question about a requirement being met.
 * The point it names (`Art. 30(2)(g)`) decides; within an article, or without a point, the
 * obligation whose title, elements and requirement share the question's rarest words.
 */
export function obligationAsked(question: string): ObligationAsked | null {
  if (!NAMES_DORA.test(question)) return null;
  // "What does Article 28 require?" asks what the requirement is, not whether it is met.
  if (!ASKS_JUDGEMENT.test(question) && !YES_NO.test(question)) return null;
  const refs = refsOf(question);
  const { index, idf } = obligationIndex();
  const q = new Set(terms(question).filter((t) => !GENERIC.has(t)));
  let best: { o: VendorObligation; score: number; exact: boolean } | null = null;
  for (const { o, terms: ts, title } of index) {
    let words = 0;
    // A word of the obligation's title counts twice: it names what the obligation is about.
    for (const t of q) if (ts.has(t)) words += (idf.get(t) ?? 0) * (title.has(t) ? 2 : 1);
    let ref = 0;
    let exact = false;
    for (const r of refs) {
      if (!articlesOf(o).includes(r.article)) continue;
      const p = pathOf(o);
      if (r.path && p === r.path) {
        ref = Math.max(ref, 10);
        exact = true;
      } else if (r.path && p && (p.startsWith(r.path) || r.path.startsWith(p))) ref = Math.max(ref, 6);
      else if (r.path && p) ref = Math.max(ref, 0.5);
      else ref = Math.max(ref, 3);
    }
    // An article the question names and this obligation is not of: it is not asked.
    if (refs.length && ref === 0) continue;
    const score = ref + words;
    if (!best || score > best.score) best = { o, score, exact };
  }
  if (!best) return null;
  // Without a reference to its point, the question must use the obligation's own words.
  if (!best.exact && best.score < (ASKS_JUDGEMENT.test(question) ? 3 : 4.5)) return null;
  if (!ASKS_JUDGEMENT.test(question) && !best.exact && best.score < 6) return null;
  return { obligation: best.o, by: best.exact ? 'reference' : 'words' };
}

/**
 * The verdict of the engine's result for one obligation: every element met, meets; nothing
 * found, the documents do not address it; otherwise partly, or does not meet when less than
 * half of it is met (elements limited or only partly met count half, as the coverage does).
 */
export function verdictOf(result: Pick<GapResult, 'status' | 'coverage'>): Verdict {
  if (result.status === 'covered') return 'meets';
  if (result.status === 'missing') return 'not_addressed';
  return result.coverage >= 0.5 ? 'partly' : 'does_not';
}
