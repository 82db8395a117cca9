import { verdictOf, type Verdict } from '../../compliance/judgement.js';
import { VENDOR_OBLIGATIONS, type VendorObligation } from '../../compliance/obligations.js';
import type { StoredQuestion } from '../../db/schema/questionnaires.js';
import type { EvidenceRole, GapResult } from '../../domain/gap.js';
import type { AnswerRow } from './repository.js';

/**
 * Vendor claims checked against the vendor's documents (docs/questionnaires.md, "Claims
 * checked against the documents"): a yes/no question's DORA references name the obligations
 * it asks about; the obligation engine of the assessments reads each of them against the
 * workspace's documents (src/modules/rag/judgement.ts, once per version of the documents).
 * A vendor's `yes` is flagged when the engine reads any of them as only partly met (a
 * limitation, a contrary clause, a partial commitment) or not found. Pure functions.
 */

/** One passage shown beside a flagged answer. */
export interface ClaimPassage {
  documentId: string;
  document: string;
  section: string;
  quote: string;
  role: EvidenceRole;
  /** The element of the obligation the passage is about. */
  element: string;
}

/** The reading of one obligation a flagged answer asks about. */
export interface ClaimObligation {
  id: string;
  ref: string;
  title: string;
  verdict: Verdict;
  /** What limits it, in words (the engine's notes on its limited or partly met elements), or what is missing. */
  limitations: string[];
  passages: ClaimPassage[];
}

export interface ClaimFlag {
  /** The vendor's answer that the documents contradict or limit. */
  answer: 'yes';
  /** The weakest verdict of the obligations. */
  verdict: Exclude<Verdict, 'meets'>;
  obligations: ClaimObligation[];
}

const MAX_PASSAGES = 3;

/** `Art. 30(3)(e)(i)` -> `{ article: 30, path: '(3)(e)(i)' }`. */
function parseRef(ref: string): { article: number; path: string } | null {
  const m = /^Art(?:icles?|\.)?\s*(\d{1,3})((?:\(\d+\))?(?:\([a-z]\))?(?:\([ivx]+\))?)/i.exec(ref.trim());
  return m ? { article: Number(m[1]), path: m[2] ?? '' } : null;
}
const pathOf = (o: VendorObligation) => /^Articles?\s+\d+((?:\(\d+\))?(?:\([a-z]\))?(?:\([ivx]+\))?)/.exec(o.ref)?.[1] ?? '';
const articlesOf = (o: VendorObligation) => {
  const range = /^Articles\s+(\d+)-(\d+)/.exec(o.ref);
  if (!range) return [o.article];
  const out: number[] = [];
  for (let a = Number(range[1]); a <= Number(range[2]); a++) out.push(a);
  return out;
};

/**
 * The obligations a question asks about, from its references: a point (`Art. 30(2)(g)`) names
 * the obligation of that point, or of the point it belongs to (`Art. 30(3)(e)(i)` is read as
 * Article 30(3)(e)); an article without a point (`Art. 10`) names its obligation when it has only one.
 */
export function obligationsOf(q: Pick<StoredQuestion, 'references'>): VendorObligation[] {
  const out = new Map<string, VendorObligation>();
  for (const ref of q.references ?? []) {
    const r = parseRef(ref);
    if (!r) continue;
    const ofArticle = VENDOR_OBLIGATIONS.filter((o) => articlesOf(o).includes(r.article));
    if (!r.path) {
      if (ofArticle.length === 1) out.set(ofArticle[0]!.id, ofArticle[0]!);
      continue;
    }
    for (const o of ofArticle) {
      const p = pathOf(o);
      if (p && (r.path === p || r.path.startsWith(p) || p.startsWith(r.path))) out.set(o.id, o);
    }
  }
  return [...out.values()];
}

const RANK: Record<Verdict, number> = { meets: 3, partly: 2, does_not: 1, not_addressed: 0 };
const ROLE_ORDER: Record<EvidenceRole, number> = { limitation: 0, contrary: 1, partial: 2, evidence: 3 };

/** Two quotes of one clause: the middle of the shorter is in the longer (windows of the same sentences). */
export function sameClause(a: string, b: string): boolean {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
  const [short, long] = [norm(a), norm(b)].sort((x, y) => x.length - y.length) as [string, string];
  if (short.length <= 60) return long.includes(short);
  const mid = Math.floor(short.length / 2);
  return long.includes(short.slice(mid - 30, mid + 30));
}

function obligationReading(o: VendorObligation, result: GapResult): ClaimObligation {
  const verdict = verdictOf(result);
  const limitations: string[] = [];
  for (const e of result.elements) {
    const level = e.level ?? (e.satisfied ? 'met' : 'none');
    if (level === 'met') continue;
    const text = level === 'none' ? `${e.label}: not found in the documents` : `${e.label}: ${e.note ?? (level === 'limited' ? 'limited' : 'only partly met')}`;
    if (!limitations.includes(text)) limitations.push(text);
  }
  const kept: GapResult['evidence'] = [];
  for (const { e } of [...result.evidence]
    .map((e, i) => ({ e, i }))
    .sort((a, b) => ROLE_ORDER[a.e.role ?? 'evidence'] - ROLE_ORDER[b.e.role ?? 'evidence'] || a.i - b.i)) {
    // The engine reads a sentence alone and with its neighbour: the same clause is shown once.
    if (!kept.some((k) => k.documentId === e.documentId && sameClause(k.quote, e.quote))) kept.push(e);
  }
  const passages = kept.slice(0, MAX_PASSAGES).map((e) => ({
    documentId: e.documentId,
    document: e.documentTitle ?? e.filename,
    section: e.section,
    quote: e.quote,
    role: e.role ?? 'evidence',
    element: e.element,
  }));
  return { id: o.id, ref: o.ref, title: o.title, verdict, limitations, passages };
}

/**
 * The flag of one answer: only a vendor's `yes` to a yes/no question is a claim to check; it is
 * flagged when an obligation it asks about is not met in full by the documents (the engine's
 * results by obligation id; an obligation with no result is not read and flags nothing).
 */
export function claimFlag(q: StoredQuestion, answer: AnswerRow | undefined, results: Map<string, GapResult>): ClaimFlag | null {
  if (q.type !== 'yes_no' || answer?.value !== 'yes') return null;
  const read = obligationsOf(q)
    .map((o) => ({ o, r: results.get(o.id) }))
    .filter((x): x is { o: VendorObligation; r: GapResult } => !!x.r)
    .map((x) => obligationReading(x.o, x.r))
    .filter((x) => x.verdict !== 'meets');
  if (!read.length) return null;
  const weakest = read.reduce((a, b) => (RANK[b.verdict] < RANK[a.verdict] ? b : a));
  return { answer: 'yes', verdict: weakest.verdict as ClaimFlag['verdict'], obligations: read };
}

/** Flags of every answer, by question id (flagged answers only). */
export function claimFlags(questions: StoredQuestion[], answers: Map<string, AnswerRow>, results: Map<string, GapResult>): Map<string, ClaimFlag> {
  const out = new Map<string, ClaimFlag>();
  for (const q of questions) {
    const f = claimFlag(q, answers.get(q.id), results);
    if (f) out.set(q.id, f);
  }
  return out;
}
