import {
  asksFrequency,
  conceptIn,
  defines,
  doraArticleOf,
  indexPassage,
  statesFrequency,
  type Concept,
  type PassageIndex,
  type QuestionAnalysis,
} from './concepts.js';

/**
 * Second stage of retrieval (docs/retrieval.md, "Rerank and selection"): the fused
 * candidates of both scopes (the workspace's documents and the shared DORA corpus) are
 * scored by how much of the question's concepts they hold, weighted by how specific each
 * concept is among the candidates, with the fusion rank as a prior; then the sources are
 * chosen so that a document repeats only when nothing else is as relevant, and so that
 * each scope gets its share when the question names it.
 */

export type Scope = 'workspace' | 'corpus';

export interface Candidate {
  id: string;
  documentId: string;
  scope: Scope;
  title: string;
  section: string;
  content: string;
  /** Reciprocal-rank-fusion score within its scope. */
  rrf: number;
}

export interface Scored<C extends Candidate = Candidate> {
  candidate: C;
  /** Weighted share of the question's concepts the passage holds (0..1). */
  coverage: number;
  /** Coverage blended with the fusion prior (0..1): the order of the sources. */
  score: number;
  /** Keys of the concepts it holds. */
  matched: Set<string>;
}

export interface ConceptWeights {
  /** Concept key -> weight (0 for none). */
  weights: Map<string, number>;
  /** Concept keys found in no candidate. */
  missing: Set<string>;
  /** Passages the weights were computed over. */
  poolSize: number;
}

/** A concept found only in a passage's title or headings counts this much. */
const META_CREDIT = 1;
/** Weight of a word that only frames the question (or names the vendor), relative to the mean weight. */
const LIGHT_WEIGHT = 0.2;
/** Share of the score that the fusion prior contributes. */
const PRIOR = 0.2;
/** Added to the score of a passage that defines a concept of a question asking what it is. */
const DEFINITION_BONUS = 0.25;
/** Added to the score of a passage that states a frequency (`at least yearly`) for a "how often" question. */
const FREQUENCY_BONUS = 0.1;
/** Each earlier source from the same document multiplies a candidate's score by this. */
const REPEAT_PENALTY = 0.6;

const cache = new Map<string, PassageIndex>();
const CACHE_MAX = 20_000;

/** The concept index of a chunk, cached by id (a chunk's text never changes under its id). */
export function passageIndexOf(c: Pick<Candidate, 'id' | 'title' | 'section' | 'content'>): PassageIndex {
  const key = `${c.id}:${c.content.length}`;
  let p = cache.get(key);
  if (!p) {
    p = indexPassage(c.title, c.section, c.content);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, p);
  }
  return p;
}

/**
 * Weights of the question's concepts over a pool of passages: inverse document frequency
 * (a concept most passages hold tells little apart); a concept no passage holds gets the
 * mean weight (it counts against every passage, but never more than a typical concept),
 * and so does the vendor's name (held by every passage of its workspace); words that
 * frame the question a fifth of the mean.
 */
export function conceptWeights(concepts: Concept[], held: ('text' | 'meta' | null)[][], vendor: Set<string> = new Set()): ConceptWeights {
  const n = held.length;
  const idf = new Map<string, number>();
  const missing = new Set<string>();
  const isLight = (c: Concept) => c.frame || vendor.has(c.key);
  concepts.forEach((c, k) => {
    const df = held.reduce((a, row) => a + (row[k] ? 1 : 0), 0);
    if (df === 0) missing.add(c.key);
    else idf.set(c.key, Math.log(1 + n / (df + 0.5)));
  });
  const present = concepts.filter((c) => !isLight(c) && idf.has(c.key)).map((c) => idf.get(c.key)!);
  const mean = present.length ? present.reduce((a, b) => a + b, 0) / present.length : Math.log(1 + n / 1.5);
  const weights = new Map<string, number>();
  for (const c of concepts) {
    if (c.frame) weights.set(c.key, LIGHT_WEIGHT * mean);
    else if (vendor.has(c.key) || missing.has(c.key)) weights.set(c.key, mean);
    else weights.set(c.key, idf.get(c.key)!);
  }
  return { weights, missing, poolSize: n };
}

/** Weighted share of the concepts a passage holds (`held`: where it holds each concept). */
export function coverageOf(concepts: Concept[], w: ConceptWeights, held: ('text' | 'meta' | null)[]): { coverage: number; matched: Set<string> } {
  let total = 0;
  let got = 0;
  const matched = new Set<string>();
  concepts.forEach((c, k) => {
    const weight = w.weights.get(c.key) ?? 0;
    total += weight;
    const where = held[k];
    if (!where) return;
    matched.add(c.key);
    got += where === 'text' ? weight : META_CREDIT * weight;
  });
  return { coverage: total ? got / total : 0, matched };
}

/** Capitalised words of the question (or words with digits, `37signals`) outside the vocabulary. */
const properNames = (analysis: QuestionAnalysis) =>
  analysis.concepts.filter((c) => !c.entry && !c.frame && !c.figure && /^(\p{Lu}|\p{N}+\p{L})/u.test(c.label));

export interface Named {
  dora: boolean;
  vendor: boolean;
  /** The vendor is named by one of its proper names (not only "the vendor"). */
  vendorByName?: boolean;
  /** Documents of the DORA articles the question names (`Article 28`): their passages may repeat. */
  articleDocuments?: Set<string>;
}

/** The number of the DORA article a corpus passage belongs to. */
const articleOf = (c: Candidate) => (c.scope === 'corpus' ? doraArticleOf(c.title) : undefined);

export interface Reranked<C extends Candidate> {
  scored: Scored<C>[];
  weights: ConceptWeights;
  /**
   * The scopes the question names: DORA (the regulation, an article); the vendor ("the
   * vendor", or one of its proper names held by the workspace's passages and by none of
   * the corpus's: "GitHub", "37signals").
   */
  named: Named;
  /** Concepts that are the vendor's names. */
  vendorNames: Set<string>;
}

/**
 * Ties broken by what the passage says, never by its id: ids are random, so the same
 * documents would otherwise answer differently on each installation, or after a re-index.
 */
function byText(a: Candidate, b: Candidate): number {
  if (a.title !== b.title) return a.title < b.title ? -1 : 1;
  if (a.section !== b.section) return a.section < b.section ? -1 : 1;
  if (a.content !== b.content) return a.content < b.content ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function rerank<C extends Candidate>(analysis: QuestionAnalysis, candidates: C[]): Reranked<C> {
  const { concepts } = analysis;
  const indexes = candidates.map(passageIndexOf);
  const held = indexes.map((p) => concepts.map((k) => conceptIn(k, p)));
  const vendorNames = new Set<string>();
  for (const c of properNames(analysis)) {
    const k = concepts.indexOf(c);
    const inScope = (s: Scope) => candidates.some((x, i) => x.scope === s && held[i]![k]);
    if (inScope('workspace') && !inScope('corpus')) vendorNames.add(c.key);
  }
  const strongVendor = vendorNames.size > 0;
  for (const c of concepts) if (c.vendor) vendorNames.add(c.key);
  // The workspace is the vendor's: its passages hold the vendor's name even where they do not repeat it.
  concepts.forEach((c, k) => {
    if (!vendorNames.has(c.key)) return;
    candidates.forEach((x, i) => {
      if (x.scope === 'workspace' && !held[i]![k]) held[i]![k] = 'text';
    });
  });
  // "Article 28": held by that article's own passages; another passage's "referred to in
  // Article 28(4)" is about its own obligation, not Article 28's.
  const articleDocuments = new Set<string>();
  concepts.forEach((c, k) => {
    if (!c.figure || !analysis.articles.has(c.label)) return;
    candidates.forEach((x, i) => {
      const own = articleOf(x) === c.label;
      held[i]![k] = own ? 'text' : null;
      if (own) articleDocuments.add(x.documentId);
    });
  });
  const weights = conceptWeights(concepts, held, vendorNames);
  // The fusion prior: a candidate's RRF relative to the best of its scope.
  const best = new Map<Scope, number>();
  for (const c of candidates) best.set(c.scope, Math.max(best.get(c.scope) ?? 0, c.rrf));
  const howOften = asksFrequency(analysis.question);
  const scored = candidates.map((candidate, i) => {
    const { coverage, matched } = coverageOf(concepts, weights, held[i]!);
    const prior = candidate.rrf / (best.get(candidate.scope) || 1);
    const definition = analysis.asksDefinition && concepts.some((k) => !k.frame && !vendorNames.has(k.key) && defines(k, indexes[i]!)) ? DEFINITION_BONUS : 0;
    // A "how often" question: the passage stating a frequency holds what is asked.
    const frequency = howOften && statesFrequency(candidate.content) ? FREQUENCY_BONUS : 0;
    return { candidate, coverage, matched, score: Math.min(1, (1 - PRIOR) * coverage + PRIOR * prior + definition + frequency) };
  });
  scored.sort((a, b) => b.score - a.score || byText(a.candidate, b.candidate));
  return { scored, weights, named: { dora: analysis.namesDora, vendor: vendorNames.size > 0, vendorByName: strongVendor, articleDocuments }, vendorNames };
}

/**
 * Chooses `limit` sources: greedily the best score, where every source already taken
 * from the same document multiplies a candidate's score by REPEAT_PENALTY (a document
 * repeats only when nothing else is as relevant; an article the question names repeats freely). When the question names both scopes
 * (a comparison), the best two of each scope come first.
 */
export function select<C extends Candidate>(scored: Scored<C>[], named: Named, limit: number): Scored<C>[] {
  const pool = scored.map((s) => ({ s, base: s.score }));
  const chosen: Scored<C>[] = [];
  const perDoc = new Map<string, number>();
  const take = (allowed: (c: C) => boolean, upTo: number) => {
    while (chosen.length < upTo) {
      let best: (typeof pool)[number] | null = null;
      let bestValue = -1;
      for (const p of pool) {
        if (chosen.includes(p.s) || !allowed(p.s.candidate)) continue;
        const doc = p.s.candidate.documentId;
        const value = named.articleDocuments?.has(doc) ? p.base : p.base * REPEAT_PENALTY ** (perDoc.get(doc) ?? 0);
        if (value > bestValue) {
          best = p;
          bestValue = value;
        }
      }
      if (!best) return;
      chosen.push(best.s);
      perDoc.set(best.s.candidate.documentId, (perDoc.get(best.s.candidate.documentId) ?? 0) + 1);
    }
  };
  if (named.dora && named.vendor) {
    const each = Math.min(2, Math.floor(limit / 2));
    take((c) => c.scope === 'corpus', each);
    take((c) => c.scope === 'workspace', chosen.length + each);
  }
  take(() => true, limit);
  return chosen;
}
