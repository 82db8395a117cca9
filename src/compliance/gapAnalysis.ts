import type { ElementLevel, ElementResult, EvidenceRole, GapEvidence, GapResult, GapStatus } from '../domain/gap.js';
import { otherCustomersSection } from './drafting/text.js';
import { terms } from '../rag/text.js';
import type { EvidenceElement, VendorObligation } from './obligations.js';
import { actors, bindsAsNeeded, dataProtectionOnly, financialAuthority, GENERIC_LIMITS, limitationsOf } from './reading.js';
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

const NEGATION = /\b(not|no|never|neither|nor|without|cannot|n't|none)\b(?! (less|more|later|fewer|longer|shorter|sooner) than\b)[^.;:]{0,40}$/i;
/** A negated subject before the anchor's verb: "no information … can be retrieved", "no data will be returned". */
const NEGATED_SUBJECT = /\bno\b(?! (less|more|later|fewer|longer|shorter|sooner) than\b)[^.;:,]{0,70}\b(can|could|will|may|shall|is|are)( be)?\s+$/i;

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

/**
 * Relevance of passages to each obligation: lexicalWeight x BM25 (normalised by the best
 * sentence of that obligation) + (1 - lexicalWeight) x cosine of the embedder's vectors (when
 * given). `relevanceOf(...)(i)(span)` is the best of the span's sentences for obligation i.
 */
/** Where a sentence's enumerated points begin: "…; and (ii) …", "; (b) …". */
const POINT_BREAK = /;\s*(?:and\s+|or\s+)?\((?:[ivx]{1,4}|[a-z]|\d{1,2})\)\s/gi;

/** The enumerated point of a sentence holding the position `at` (the whole sentence when it has none). */
function pointAt(text: string, at: number): string {
  let start = 0;
  let end = text.length;
  for (const b of text.matchAll(POINT_BREAK)) {
    if (b.index! < at) start = b.index! + 1;
    else {
      end = b.index!;
      break;
    }
  }
  return text.slice(start, end);
}

export function relevanceOf(
  obligations: VendorObligation[],
  sentences: Sentence[],
  opts: { vectors?: Vectors; lexicalWeight?: number } = {},
): (oi: number) => (span: number[]) => number {
  const w = opts.lexicalWeight ?? GAP_DEFAULTS.lexicalWeight;
  const bm25 = new Bm25(sentences.map((s) => [...s.terms, ...terms(s.section)]));
  return (oi) => {
    const lex = bm25.scores(terms(obligationQuery(obligations[oi]!)));
    const maxLex = Math.max(0, ...lex);
    return (span) => {
      let best = 0;
      for (const i of span) {
        const l = maxLex > 0 ? lex[i]! / maxLex : 0;
        const sem = opts.vectors ? Math.max(0, cosine(opts.vectors.obligations[oi]!, opts.vectors.sentences[i]!)) : null;
        const rel = sem === null ? l : w * l + (1 - w) * sem;
        if (rel > best) best = rel;
      }
      return best;
    };
  };
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
  const before = text.slice(Math.max(0, anchorAt - 90), anchorAt);
  if (NEGATION.test(before.slice(-60)) || NEGATED_SUBJECT.test(before)) return null;
  return anchorAt;
}

/** Every sentence (or adjacent pair) matching one of the alternatives, without duplicates. */
function matchesOf(alternatives: RegExp[][], sentences: Sentence[], minWords: number, withSection = false): Match[] {
  const out: Match[] = [];
  // Items of a list ("- Enforced MFA", "- Regular recovery tests") are read from three words, unless the
  // item is one of the document's headings (a table of contents: "- Incident Response" above "## Incident Response").
  const headings = new Set(sentences.flatMap((s) => s.section.split(' > ').map((h) => h.trim().toLowerCase())));
  const itemText = (t: string) => t.replace(/^([-*•]|\d{1,3}[.)]|\(?[a-z]\))\s+/, '');
  const long = (t: string) => {
    const item = itemText(t);
    return item !== t ? t.split(' ').length >= Math.min(3, minWords) && !headings.has(item.trim().toLowerCase()) : t.split(' ').length >= minWords;
  };
  const itemWords = (t: string) => itemText(t).split(' ').length;
  if (withSection) {
    // Read as "<heading path> › <text>": a table row or list item under a heading that says what it is.
    for (const s of sentences) {
      const text = `${s.section} › ${s.text}`;
      const at = alternatives.map((alt) => matchAlternative(alt, text)).find((x) => x !== null);
      if (at !== undefined && at !== null && long(s.text)) out.push({ span: [s.index], text: s.text, anchorAt: Math.max(0, at - s.section.length - 3) });
    }
    return out;
  }
  for (const s of sentences) {
    let matched = false;
    for (const alt of alternatives) {
      const at = matchAlternative(alt, s.text);
      if (at !== null && long(s.text)) {
        out.push({ span: [s.index], text: s.text, anchorAt: at });
        matched = true;
        break;
      }
    }
    if (matched) continue;
    // An item of a list read with its lead-in ("shall notify the Client if:" + "it becomes aware of a breach").
    if (s.lead !== undefined) {
      const l = sentences[s.lead]!;
      const joined = `${l.text} ${s.text}`;
      const at = alternatives.map((alt) => matchAlternative(alt, joined)).find((x) => x !== null);
      if (at !== undefined && at !== null && long(joined) && itemWords(s.text) >= 3 && !alternatives.some((a) => matchAlternative(a, l.text) !== null)) {
        out.push({ span: [l.index, s.index], text: joined, anchorAt: at });
        continue;
      }
    }
    if (s.next === null) continue;
    const n = sentences[s.next]!;
    const joined = `${s.text} ${n.text}`;
    for (const alt of alternatives) {
      const at = matchAlternative(alt, joined);
      // Only a pair that needs both sentences: single-sentence matches are found on their own.
      if (at !== null && long(joined) && !alternatives.some((a) => matchAlternative(a, n.text) !== null)) {
        out.push({ span: [s.index, n.index], text: joined, anchorAt: at });
        break;
      }
    }
  }
  return out;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** A passage found for an element, with what limits it. */
interface Candidate {
  m: Match;
  rel: number;
  /** The limitation, and the sentence it is in (the passage itself or the next sentence of its paragraph). */
  limit: { note: string; sentence: number; text: string; at: number } | null;
}

/** Context every element is read in: the vendor's names (who "GitHub" is in "GitHub will notify"). */
export interface ReadingContext {
  vendorNames: readonly string[];
  /** The obligation is one of the contractual arrangements (VendorObligation.contractual): a policy or web page only limits it. */
  contractual?: boolean;
}

/** Where a commitment the contract must hold is only stated in a policy, web page or report. */
const notInContract = (s: Sentence) =>
  `stated only in ${s.title || s.filename}, a policy, web page or report, not in the contract, DPA or SLA DORA requires it in`;

const LIMIT_WINDOW = 90;
/** Limitations strong enough to qualify a right wherever they are said of it (reading.ts GENERIC_LIMITS notes). */
const STRONG_LIMIT = /satisfied by|only in limited cases|discretion|customer's expense|to be agreed|once a year/;
/** The words around a limitation, for the rationale. */
function around(text: string, at: number): string {
  const start = Math.max(0, text.lastIndexOf(' ', Math.max(0, at - 30)));
  const slice = text.slice(start, start + LIMIT_WINDOW).trim();
  const cut = slice.length < text.length - start ? slice.replace(/\s+\S*$/, '') : slice;
  return `${start > 0 ? '…' : ''}${cut}${start + LIMIT_WINDOW < text.length ? '…' : ''}`;
}

/** A document that lists subprocessors (its file name or title). */
const SUBPROCESSOR_LIST = /sub[-_ ]?(processor|contractor)s?\b/i;
/** An element about subprocessors, subcontracting, where data is or how it is transferred (its patterns). */
const SUBPROCESSOR_ELEMENT = /sub-?\??\(?(processor|contract)|locat|countr|region|hosted|transfer|contractual clauses|SCC|adequacy/i;
/** Prompts of the 2021 SCCs' Annex I.B, which a DPA reproduces with its answers. */
const SCC_FORM = /applied restrictions or safeguards that fully take into consideration the nature of the data/i;

/** A sentence that defines a term: `“Customer Data” means …`, `- "Services" refers to …`. */
const DEFINITION =
  /^[\s\-*•(\w)]{0,6}[“"'‘*]{1,3}[^”"'’*]{2,60}[”"'’*]{1,3}\s+(means|shall mean|refers to|has the meaning)\b|^[\s\-*•(\w)]{0,6}[“"‘][^”"’]{2,60}[”"’]\s*:\s/i;

/** A heading of advice to the customer about its own account. */
/**
 * A statement of what data is used for ("for the purpose of … account management, technical support, security patches,
 * fraud prevention") names a control in passing: it evidences no control of the ICT risk framework.
 */
const PURPOSE_OF_USE =
  /\bpurposes? such as\b|\blegitimate (business )?(interests?|purposes?)\b|\b(collect|use|process|disclose|share)\b[^.;]{0,30}\b(personal )?(data|information)\b[^.;]{0,20}\b(for|to)\b[^.;]{0,40}\bpurposes?\b/i;
const CUSTOMER_ADVICE =
  /^(setting up|set up|how to|enabling|tips\b|securing your|protecting your|best practices)|\byour (own )?(account|password|credentials)\b/i;

/** A privacy policy or notice: how the vendor processes personal data as controller (its website, its customers' contacts). */
const PRIVACY_NOTICE = /\bprivacy[ _-]?(policy|notice|statement)?\b|\bprivacy\.\w+$/i;

/**
 * Reads one element against the documents (docs/assessments.md, "How a clause is read"):
 * - candidates are the passages matching one of its alternatives, relevant enough, not
 *   negated, and binding the right party (a provider's commitment, or a customer's right);
 * - a candidate is limited by limiting language in it or in the next sentence of its
 *   paragraph (generic and the element's own), by a data-protection-only scope where the
 *   element asks more, by a data-protection authority where a financial one is asked, or by
 *   being about a host or subprocessor where the provider's own is asked;
 * - `met` when a candidate has no limitation, `limited` when all have one, `partial` when only
 *   the element's partial evidence is found, `none` otherwise; a contrary clause anywhere in
 *   the documents turns `met` into `limited`.
 */
function readElement(
  el: EvidenceElement,
  sentences: Sentence[],
  relevance: (span: number[]) => number,
  o: Required<GapAnalysisOptions>,
  ctx: ReadingContext,
): { level: ElementLevel; note?: string; best: Candidate[]; extra: { sentence: number; text: string; at: number; role: EvidenceRole }[] } {
  const bound = el.bound ?? 'provider';
  // The element's own limits first: where a clause has both, the specific one ("only backups or passwords are said to be
  // encrypted") says more to the analyst than a generic one.
  const rules = [...(el.limits ?? []), ...(el.genericLimits === false ? [] : GENERIC_LIMITS)];
  const candidates: Candidate[] = [];
  /** Passages about another company's controls (`ownOnly`): they do not evidence the element. */
  const others: Candidate[] = [];
  // A definition evidences only an element that asks for one (its pattern reads "… means").
  const takesDefinitions = el.any.some((alt) => alt.some((re) => /means/.test(re.source)));
  // A subprocessor list describes the subprocessors' services ("SMS provider for 2 Factor
  // Authentication"): it evidences only an element about subprocessors or where data is.
  const takesSubprocessorLists = el.any.some((alt) => alt.some((re) => SUBPROCESSOR_ELEMENT.test(re.source)));
  const matches = [
    ...matchesOf(el.any, sentences, o.minWords).map((m) => ({ m, bySection: false })),
    ...(el.sectionAny ? matchesOf(el.sectionAny, sentences, 1, true).map((m) => ({ m, bySection: true })) : []),
  ];
  for (const { m, bySection } of matches) {
    const rel = relevance(m.span);
    if (rel < o.minRelevance && !bySection) continue;
    if (el.exclude?.some((x) => x.test(m.text))) continue;
    // A definition ("“Customer Data” means …") says what a word means, not what anyone commits
    // to: it evidences only an element that asks for one (a description of the services).
    if (!takesDefinitions && DEFINITION.test(m.text)) continue;
    const first = sentences[m.span[0]!]!;
    // Terms for another region's customers or for consumers ("PRC Service Region Terms", "EEA Consumer Terms") do not bind
    // the provider towards an EU financial entity.
    if (otherCustomersSection(first.section)) continue;
    if (!takesSubprocessorLists && SUBPROCESSOR_LIST.test(`${first.filename} ${first.title ?? ''}`)) continue;
    // A question ("How can a customer … transfer it to another provider?", an FAQ's heading) asks, it commits to nothing.
    if (/\?\s*$/.test(m.text)) continue;
    // The 2021 SCCs' annex prompts are the form's wording, not the provider's ("Sensitive data transferred (if applicable) and applied restrictions …").
    if (SCC_FORM.test(m.text)) continue;
    if (!ctx.contractual && PURPOSE_OF_USE.test(m.text)) continue;
    // A list item is bound by its lead-in ("You will not:" + "- conduct penetration tests ..."; "Customer warrants that:" + "(iii) ...").
    const lead = m.span.length === 1 && first.lead !== undefined ? sentences[first.lead]! : null;
    const bindText = lead && !actors(m.text, ctx.vendorNames).length ? `${lead.text} ${m.text}` : m.text;
    if (!bindsAsNeeded(bindText, bound, ctx.vendorNames)) continue;
    // A negated lead-in ("The Managed Service does not provide:"), or the lead-in of the list its own lead-in is an item of
    // (a nested list read flat: "does not provide:" › "- For managed infrastructure:" › "- …").
    const outer = lead?.lead !== undefined ? sentences[lead.lead]! : null;
    if ([lead, outer].some((l) => l && /\b(not|never|no)\b[^.:]{0,40}:\s*$/i.test(l.text)) && bound !== 'customer') continue;
    // A section that instructs the customer ("Setting up two-factor auth", "How to secure your account") is advice on
    // the customer's own account, not a control of the provider's.
    if (bound === 'provider' && CUSTOMER_ADVICE.test(first.section.split(' > ').at(-1)?.trim() ?? '')) continue;
    // A host's or subprocessor's certificate or service level is not the provider's own, however
    // it is worded (a list item read with its lead-in: "Underlying Amazon AWS complies with:" +
    // "- ISO 27001 Certification"): kept only to say so.
    if (el.ownOnly?.re.test(lead ? `${lead.text} ${m.text}` : m.text)) {
      others.push({ m, rel, limit: { note: el.ownOnly.note, sentence: m.span[0]!, text: m.text, at: m.anchorAt } });
      continue;
    }
    let limit: Candidate['limit'] = null;
    const own = limitationsOf(m.text, rules)[0];
    if (own) limit = { note: own.note, sentence: m.span[0]!, text: m.text, at: own.at };
    const nextIdx = sentences[m.span.at(-1)!]!.next;
    if (!limit && nextIdx !== null && el.limitsFollow !== false) {
      const n = sentences[nextIdx]!;
      const l = limitationsOf(n.text, rules)[0];
      if (l) limit = { note: l.note, sentence: nextIdx, text: n.text, at: l.at };
    }
    if (!limit && el.dataProtectionScope && dataProtectionOnly(m.text, first.section, el.wholeDataCounts === true)) {
      limit = { note: el.dataProtectionScope, sentence: m.span[0]!, text: m.text, at: m.anchorAt };
    }
    if (!limit && el.privacyNoticeScope && PRIVACY_NOTICE.test(`${first.filename} ${first.title ?? ''}`)) {
      limit = { note: el.privacyNoticeScope, sentence: m.span[0]!, text: m.text, at: m.anchorAt };
    }
    if (!limit && el.authority === 'financial' && !financialAuthority(m.text)) {
      limit = {
        note: el.authorityNote ?? 'a data-protection authority, not the financial supervisors (competent authorities)',
        sentence: m.span[0]!,
        text: m.text,
        at: m.anchorAt,
      };
    }
    if (!limit && ctx.contractual && !first.contractual) {
      limit = { note: notInContract(first), sentence: m.span[0]!, text: m.text, at: m.anchorAt };
    }
    candidates.push({ m, rel, limit });
  }
  // A heading-like fragment ("(e) Governing Law and Dispute Resolution.") evidences the element as well as the clause
  // under it, but the clause is what an analyst wants quoted: fragments come last.
  const fragment = (c: Candidate) => c.m.text.split(/\s+/).length < 8 && !/\b(is|are|shall|will|must|may|be|means|governs?|appl(y|ies))\b/i.test(c.m.text);
  const byRel = (a: Candidate, b: Candidate) => Number(fragment(a)) - Number(fragment(b)) || b.rel - a.rel || a.m.text.length - b.m.text.length;
  const clean = candidates.filter((c) => !c.limit).sort(byRel);
  const limited = candidates.filter((c) => c.limit).sort(byRel);
  // Clauses about the same right that limit it, whoever they bind ("Customer agrees that audit
  // rights will be satisfied by these reports"): they qualify the right wherever they are.
  // Where the documents give the right nowhere else, a limiting clause that is only the provider's own right
  // ("We may at our absolute discretion … terminate") gives the customer nothing to limit.
  const providersOwnRight = (text: string) => {
    const list = actors(text, ctx.vendorNames);
    return list.some((a) => a.party === 'provider' && a.modality === 'right') && list.every((a) => a.party === 'provider');
  };
  const limiters: Candidate[] = [];
  if (el.bound === 'customer') {
    for (const m of matchesOf(el.any, sentences, o.minWords)) {
      if (candidates.some((c) => c.m.span[0] === m.span[0])) continue;
      const rel = relevance(m.span);
      if (rel < o.minRelevance) continue;
      if (!candidates.length && providersOwnRight(m.text)) continue;
      const l = limitationsOf(m.text, rules).find((x) => STRONG_LIMIT.test(x.note));
      if (l) limiters.push({ m, rel, limit: { note: l.note, sentence: m.span[0]!, text: m.text, at: l.at } });
    }
  }
  if (clean.length && !limiters.length) {
    // A clause pointing the other way, anywhere in the documents, keeps the element from being met.
    for (const c of el.against ?? []) {
      for (const s of sentences) {
        const m = c.re.exec(s.text);
        if (m && /\b(never|not)\s+$/i.test(s.text.slice(Math.max(0, m.index - 12), m.index))) continue;
        // The exception may follow in the next sentence ("… may amend this Agreement at any time. GitHub will notify
        // Customer of material changes … at least 30 days prior").
        // An exception in another enumerated point of the sentence ("(i) either party may terminate at any time …;
        // and (ii) the Client may terminate with thirty (30) days' notice") is not this clause's.
        if (m && (c.unless?.test(pointAt(s.text, m.index)) || (s.next !== null && c.unless?.test(sentences[s.next]!.text)))) continue;
        if (m && s.text.split(' ').length >= o.minWords && bindsAsNeeded(s.text, c.bound ?? 'any', ctx.vendorNames)) {
          return { level: 'limited', note: c.note, best: clean.slice(0, 1), extra: [{ sentence: s.index, text: s.text, at: m.index, role: 'contrary' }] };
        }
      }
    }
    return { level: 'met', best: clean.slice(0, o.maxEvidencePerElement), extra: [] };
  }
  if (limited.length || limiters.length) {
    // The limitations that decide, strongest first (the provider's own words limiting the right
    // before a data-protection scope or an authority), at most two different ones.
    const strength = (c: Candidate) => (STRONG_LIMIT.test(c.limit!.note) ? 0 : 1);
    const all = [...limiters, ...limited].sort((a, b) => strength(a) - strength(b) || byRel(a, b));
    const chosen: Candidate[] = [];
    for (const c of all) if (chosen.length < 2 && !chosen.some((x) => x.limit!.note === c.limit!.note)) chosen.push(c);
    const best = clean.length ? clean.slice(0, 1) : limited.slice(0, 1);
    const extra = chosen
      .filter((c) => !best.some((b) => b.m.span[0] === c.limit!.sentence))
      .map((c) => ({ sentence: c.limit!.sentence, text: c.limit!.text, at: c.limit!.at, role: 'limitation' as const }));
    return { level: 'limited', note: chosen.map((c) => `${c.limit!.note} (“${around(c.limit!.text, c.limit!.at)}”)`).join('; '), best, extra };
  }
  if (el.partial) {
    const weak = matchesOf(el.partial.any, sentences, o.minWords)
      .map((m) => ({ m, rel: relevance(m.span), limit: null }))
      .filter((c) => c.rel >= o.minRelevance * 0.5 && bindsAsNeeded(c.m.text, el.partial!.bound ?? bound, ctx.vendorNames) && !el.ownOnly?.re.test(c.m.text))
      .sort(byRel);
    if (weak.length) return { level: 'partial', note: el.partial.note, best: weak.slice(0, 1), extra: [] };
  }
  const other = others.sort(byRel)[0];
  if (other) {
    const l = other.limit!;
    return {
      level: 'none',
      note: `${l.note} (“${around(l.text, l.at)}”)`,
      best: [],
      extra: [{ sentence: l.sentence, text: l.text, at: l.at, role: 'limitation' }],
    };
  }
  return { level: 'none', best: [], extra: [] };
}

const LEVEL_COVERAGE: Record<ElementLevel, number> = { met: 1, limited: 0.5, partial: 0.5, none: 0 };

/** The one-sentence why of a status (API, dashboard, Word report). */
function rationaleOf(status: GapStatus, elements: ElementResult[]): string {
  const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
  if (status === 'covered') return `Covered: the documents commit to ${elements.map((e) => lower(e.label)).join('; ')}.`;
  // An element found only as another company's (a host's certificate) says so.
  const noneLabel = (e: ElementResult) => `${lower(e.label)}${e.note ? ` (only ${e.note})` : ''}`;
  if (status === 'missing') return `Missing: the documents do not show ${elements.map(noneLabel).join('; ')}.`;
  const parts: string[] = [];
  for (const e of elements) {
    if (e.level === 'limited') parts.push(`${lower(e.label)} is limited: ${e.note}`);
    else if (e.level === 'partial') parts.push(`${lower(e.label)} only in part: ${e.note}`);
  }
  const none = elements.filter((e) => e.level === 'none').map(noneLabel);
  if (none.length) parts.push(`not found: ${none.join('; ')}`);
  const met = elements.filter((e) => e.level === 'met').map((e) => lower(e.label));
  return `Partial: ${parts.join('; ')}${met.length ? `; found: ${met.join('; ')}` : ''}.`;
}

/**
 * Classifies every obligation against the documents: each evidence element is read
 * (`readElement`); `covered` when every element is met, `missing` when none is found at all,
 * `partial` otherwise (an element limited or only partly met, or one missing). `coverage` is
 * the share of the elements (met 1, limited or partial 0.5); the evidence cited is the best
 * passages, verbatim, with the limiting or contrary clauses that decided.
 *
 * Relevance of a passage to an obligation = lexicalWeight x BM25 (normalised by the best
 * passage of that obligation) + (1 - lexicalWeight) x cosine similarity of the embedder's
 * vectors (when given; otherwise lexical only).
 */
export { LEVEL_COVERAGE, rationaleOf };

export function analyzeGaps(
  obligations: VendorObligation[],
  sentences: Sentence[],
  opts: GapAnalysisOptions & { vectors?: Vectors; doraText?: (o: VendorObligation) => string; vendorNames?: readonly string[] } = {},
): GapResult[] {
  const o = { ...GAP_DEFAULTS, ...opts };
  const ctx: ReadingContext = { vendorNames: opts.vendorNames ?? [] };
  const relevanceFor = relevanceOf(obligations, sentences, { vectors: opts.vectors, lexicalWeight: o.lexicalWeight });
  return obligations.map((ob, oi) => {
    const relevance = relevanceFor(oi);
    const obCtx: ReadingContext = ob.contractual ? { ...ctx, contractual: true } : ctx;
    const elements: ElementResult[] = [];
    const evidence: GapEvidence[] = [];
    const cite = (span: number[], text: string, anchorAt: number, element: string, rel: number, role: EvidenceRole) => {
      // A list item read with its lead-in: each is quoted on its own (they are not adjacent text).
      if (span.length === 2 && sentences[span[1]!]!.lead === span[0]) {
        const [lead, item] = [sentences[span[0]!]!, sentences[span[1]!]!];
        cite([lead.index], lead.text, Math.min(anchorAt, lead.text.length - 1), element, rel, role);
        cite([item.index], item.text, Math.max(0, anchorAt - lead.text.length - 1), element, rel, role);
        return;
      }
      const first = sentences[span[0]!]!;
      const { quote, truncated } = quoteAround(text, anchorAt);
      if (evidence.some((e) => e.documentId === first.documentId && e.quote === quote)) return;
      evidence.push({
        documentId: first.documentId,
        filename: first.filename,
        documentTitle: first.title,
        section: first.section,
        ...(first.page !== undefined ? { page: first.page } : {}),
        quote,
        truncated,
        element,
        relevance: round3(rel),
        ...(role === 'evidence' ? {} : { role }),
      });
    };
    for (const el of ob.elements) {
      const read = readElement(el, sentences, relevance, o, obCtx);
      elements.push({ id: el.id, label: el.label, satisfied: read.level === 'met', level: read.level, ...(read.note ? { note: read.note } : {}) });
      for (const c of read.best) {
        const role: EvidenceRole =
          read.level === 'met' ? 'evidence' : read.level === 'partial' ? 'partial' : c.limit && c.limit.sentence === c.m.span[0] ? 'limitation' : 'evidence';
        cite(c.m.span, c.m.text, c.m.anchorAt, el.id, c.rel, role);
      }
      for (const x of read.extra) cite([x.sentence], x.text, x.at, el.id, relevance([x.sentence]), x.role);
    }
    const levels = elements.map((e) => e.level!);
    const status: GapStatus = levels.every((l) => l === 'met') ? 'covered' : levels.every((l) => l === 'none') ? 'missing' : 'partial';
    const coverage = elements.length ? levels.reduce((n, l) => n + LEVEL_COVERAGE[l], 0) / elements.length : 0;
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
      rationale: rationaleOf(status, elements),
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
  /** Names the vendor goes by (workspace name, legal name): who "GitHub" is in "GitHub will notify". */
  vendorNames?: readonly string[];
  /** The model path (verdictModel.ts); absent: the offline reading alone. */
  judge?: VerdictJudge;
}

/** Verdicts from a model over the passages, checked against them (verdictModel.ts). */
export interface VerdictJudge {
  id: string;
  verdicts(input: {
    obligations: VendorObligation[];
    sentences: Sentence[];
    offline: GapResult[];
    relevance: (oi: number) => (span: number[]) => number;
    vendorNames: readonly string[];
  }): Promise<GapResult[]>;
}

/** Splits the documents, embeds obligations and sentences, and runs `analyzeGaps`. */
export async function runGapAnalysis(input: AnalysisInput): Promise<{ results: GapResult[]; sentenceCount: number; judge: string }> {
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
  const offline = analyzeGaps(input.obligations, sentences, { ...input.options, vectors, doraText: input.doraText, vendorNames: input.vendorNames });
  if (!input.judge || !sentences.length) return { results: offline, sentenceCount: sentences.length, judge: 'offline' };
  // The model reads the obligations against their most relevant passages; its verdicts replace
  // the offline ones where they pass the verbatim check (verdictModel.ts).
  const relevance = relevanceOf(input.obligations, sentences, { vectors, lexicalWeight: input.options?.lexicalWeight });
  const results = await input.judge.verdicts({ obligations: input.obligations, sentences, offline, relevance, vendorNames: input.vendorNames ?? [] });
  return { results, sentenceCount: sentences.length, judge: input.judge.id };
}
