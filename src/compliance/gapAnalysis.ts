import type { ElementResult, GapEvidence, GapResult, GapStatus } from '../domain/gap.js';
import { terms } from '../rag/text.js';
import type { EvidenceElement, VendorObligation } from './obligations.js';
import { quoteAround, splitSentences, type Sentence, type SourceDocument } from './passages.js';

/**
 * The DORA gap analysis engine (docs/assessments.md). Pure: obligations and document
 * sentences (plus, optionally, embedding vectors computed by the caller) in; one result
 * per obligation out, each with its status, its score and the passages it cites.
 */

export interface GapAnalysisOptions {
  /** Minimum relevance of a matching passage for it to count as evidence. */
  minRelevance?: number;
  /** Most passages cited per element. */
  maxEvidencePerElement?: number;
  /** Weight of the lexical score in the relevance (the semantic score gets the rest). */
  lexicalWeight?: number;
  /** Fewest words a passage needs to count as evidence (headings parsed as paragraphs do not). */
  minWords?: number;
}

export const GAP_DEFAULTS: Required<GapAnalysisOptions> = { minRelevance: 0.1, maxEvidencePerElement: 2, lexicalWeight: 0.5, minWords: 7 };

export interface Vectors {
  /** One vector per obligation, in the order of `obligations`. */
  obligations: number[][];
  /** One vector per sentence, in the order of `sentences`. */
  sentences: number[][];
}

const NEGATION = /\b(not|no|never|neither|nor|without|cannot|n't|none)\b[^.;:]{0,40}$/i;

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** Okapi BM25 of every sentence for a query (k1 = 1.2, b = 0.75). */
export class Bm25 {
  private readonly df = new Map<string, number>();
  private readonly avgLen: number;
  private readonly tf: Map<string, number>[];
  constructor(private readonly docs: string[][]) {
    this.tf = docs.map((d) => {
      const m = new Map<string, number>();
      for (const t of d) m.set(t, (m.get(t) ?? 0) + 1);
      for (const t of m.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      return m;
    });
    this.avgLen = docs.reduce((n, d) => n + d.length, 0) / Math.max(1, docs.length);
  }
  scores(query: string[]): number[] {
    const N = this.docs.length;
    const q = [...new Set(query)];
    return this.tf.map((tf, i) => {
      const len = this.docs[i]!.length;
      let s = 0;
      for (const t of q) {
        const f = tf.get(t);
        if (!f) continue;
        const df = this.df.get(t) ?? 0;
        const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
        s += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * len) / (this.avgLen || 1)));
      }
      return s;
    });
  }
}

/** Text an obligation is searched with (lexically and semantically). */
export function obligationQuery(o: VendorObligation): string {
  return `${o.title}. ${o.query}. ${o.elements.map((e) => e.label).join('. ')}`;
}

interface Match {
  /** Sentence indexes quoted (one, or two adjacent). */
  span: number[];
  text: string;
  anchorAt: number;
}

/** Finds where one alternative (all expressions) matches a text; null if not, or if the anchor is negated. */
function matchAlternative(alt: RegExp[], text: string): number | null {
  let anchorAt = -1;
  for (let i = 0; i < alt.length; i++) {
    const m = alt[i]!.exec(text);
    if (!m) return null;
    if (i === 0) anchorAt = m.index;
  }
  if (NEGATION.test(text.slice(Math.max(0, anchorAt - 60), anchorAt))) return null;
  return anchorAt;
}

/** Every sentence (or adjacent pair) matching an element, without duplicates. */
function matchesOf(element: EvidenceElement, sentences: Sentence[], minWords: number): Match[] {
  const out: Match[] = [];
  const long = (t: string) => t.split(' ').length >= minWords;
  for (const s of sentences) {
    let matched = false;
    for (const alt of element.any) {
      const at = matchAlternative(alt, s.text);
      if (at !== null && long(s.text)) {
        out.push({ span: [s.index], text: s.text, anchorAt: at });
        matched = true;
        break;
      }
    }
    if (matched || s.next === null) continue;
    const n = sentences[s.next]!;
    const joined = `${s.text} ${n.text}`;
    for (const alt of element.any) {
      const at = matchAlternative(alt, joined);
      // Only a pair that needs both sentences: single-sentence matches are found on their own.
      if (at !== null && long(joined) && !element.any.some((a) => matchAlternative(a, n.text) !== null)) {
        out.push({ span: [s.index, n.index], text: joined, anchorAt: at });
        break;
      }
    }
  }
  return out;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Classifies every obligation against the documents:
 * - each evidence element is satisfied by the most relevant passage matching it whose
 *   relevance reaches `minRelevance`;
 * - `covered` when every element is satisfied, `partial` when some are, `missing` when none;
 * - `coverage` = satisfied / elements; the evidence cited is the best passages, verbatim.
 *
 * Relevance of a passage to an obligation = lexicalWeight x BM25 (normalised by the best
 * passage of that obligation) + (1 - lexicalWeight) x cosine similarity of the embedder's
 * vectors (when given; otherwise lexical only).
 */
export function analyzeGaps(
  obligations: VendorObligation[],
  sentences: Sentence[],
  opts: GapAnalysisOptions & { vectors?: Vectors; doraText?: (o: VendorObligation) => string } = {},
): GapResult[] {
  const o = { ...GAP_DEFAULTS, ...opts };
  const bm25 = new Bm25(sentences.map((s) => [...s.terms, ...terms(s.section)]));
  return obligations.map((ob, oi) => {
    const lex = bm25.scores(terms(obligationQuery(ob)));
    const maxLex = Math.max(0, ...lex);
    const relevance = (span: number[]) => {
      let best = 0;
      for (const i of span) {
        const l = maxLex > 0 ? lex[i]! / maxLex : 0;
        const sem = opts.vectors ? Math.max(0, cosine(opts.vectors.obligations[oi]!, opts.vectors.sentences[i]!)) : null;
        const rel = sem === null ? l : o.lexicalWeight * l + (1 - o.lexicalWeight) * sem;
        if (rel > best) best = rel;
      }
      return best;
    };
    const elements: ElementResult[] = [];
    const evidence: GapEvidence[] = [];
    for (const el of ob.elements) {
      const ranked = matchesOf(el, sentences, o.minWords)
        .map((m) => ({ m, rel: relevance(m.span) }))
        .filter((x) => x.rel >= o.minRelevance)
        .sort((a, b) => b.rel - a.rel || a.m.text.length - b.m.text.length);
      elements.push({ id: el.id, label: el.label, satisfied: ranked.length > 0 });
      for (const { m, rel } of ranked.slice(0, o.maxEvidencePerElement)) {
        const first = sentences[m.span[0]!]!;
        const { quote, truncated } = quoteAround(m.text, m.anchorAt);
        if (evidence.some((e) => e.documentId === first.documentId && e.quote === quote)) continue;
        evidence.push({
          documentId: first.documentId,
          filename: first.filename,
          documentTitle: first.title,
          section: first.section,
          ...(first.page !== undefined ? { page: first.page } : {}),
          quote,
          truncated,
          element: el.id,
          relevance: round3(rel),
        });
      }
    }
    const found = elements.filter((e) => e.satisfied).length;
    const coverage = elements.length ? found / elements.length : 0;
    const status: GapStatus = found === elements.length ? 'covered' : found > 0 ? 'partial' : 'missing';
    const missingLabels = elements.filter((e) => !e.satisfied).map((e) => e.label.toLowerCase());
    const rationale =
      status === 'covered'
        ? `All ${elements.length} evidence elements found in the documents.`
        : status === 'partial'
          ? `${found} of ${elements.length} evidence elements found; not found: ${missingLabels.join('; ')}.`
          : `No evidence found in the documents for: ${missingLabels.join('; ')}.`;
    return {
      obligationId: ob.id,
      article: `Article ${ob.article}`,
      ref: ob.ref,
      title: ob.title,
      requirement: ob.requirement,
      doraText: opts.doraText?.(ob) ?? '',
      status,
      coverage: round3(coverage),
      weight: ob.weight,
      key: ob.key,
      elements,
      evidence,
      rationale,
    };
  });
}

export interface AnalysisInput {
  obligations: VendorObligation[];
  documents: SourceDocument[];
  /** The project's embedder (rag/embedders); omitted: lexical relevance only. */
  embedder?: { embed(texts: string[], opts?: { kind?: 'query' | 'document' }): Promise<number[][]> };
  doraText?: (o: VendorObligation) => string;
  options?: GapAnalysisOptions;
}

/** Splits the documents, embeds obligations and sentences, and runs `analyzeGaps`. */
export async function runGapAnalysis(input: AnalysisInput): Promise<{ results: GapResult[]; sentenceCount: number }> {
  const sentences = splitSentences(input.documents);
  let vectors: Vectors | undefined;
  if (input.embedder && sentences.length) {
    const obligationVecs = await input.embedder.embed(input.obligations.map(obligationQuery), { kind: 'query' });
    const sentenceVecs = await input.embedder.embed(
      sentences.map((s) => (s.section ? `${s.section}: ${s.text}` : s.text)),
      { kind: 'document' },
    );
    vectors = { obligations: obligationVecs, sentences: sentenceVecs };
  }
  const results = analyzeGaps(input.obligations, sentences, { ...input.options, vectors, doraText: input.doraText });
  return { results, sentenceCount: sentences.length };
}
