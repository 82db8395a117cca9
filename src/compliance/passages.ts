import type { Block } from '../domain/blocks.js';
import { sentences, terms } from '../rag/text.js';

/** A document as the gap analysis reads it: the parser's blocks (text under headings). */
export interface SourceDocument {
  id: string;
  filename: string;
  title?: string | null;
  blocks: Block[];
  /**
   * Whether the document is part of the contractual arrangements (a contract, terms, DPA, SLA)
   * rather than a policy, web page or report; omitted: judged from its name, title and first
   * heading (`isContractual`).
   */
  contractual?: boolean;
}

/** Names of documents that form the contract: agreements, terms, addenda, DPAs, SLAs, order forms, schedules. */
const CONTRACT_NAME =
  /\b(agreement|terms|addendum|contract|DPA|SLA|EULA|licen[cs]e|order form|schedule|exhibit|standard contractual clauses|service level|conditions|annex|appendix|TOMs|technical and organi[sz]ational measures)\b/i;
/** Names of documents that describe or report rather than bind: policies, statements, overviews, lists, reports, certificates. */
const OTHER_NAME =
  /\b(policy|policies|privacy|statement|notice|overview|whitepaper|white paper|security|trust|faq|subprocessors?|sub-processors?|report|SOC ?[123]|certificate|guidelines?|description|rfc|compliance)\b/i;

/**
 * Whether a document is contractual, from its file name, then its title, then its first
 * heading: a name that says agreement, terms, addendum, DPA or SLA is; one that says policy,
 * privacy, security overview, subprocessor list, report or certificate is not. A document
 * none of them names is taken as contractual (nothing is held against it).
 */
export function isContractual(doc: Pick<SourceDocument, 'filename' | 'title' | 'blocks' | 'contractual'>): boolean {
  if (doc.contractual !== undefined) return doc.contractual;
  const words = (s: string) => s.replace(/\.[a-z0-9]{1,5}$/i, '').replace(/[-_]+/g, ' ');
  const firstHeading = doc.blocks.find((b) => b.headings.length)?.headings[0] ?? '';
  for (const name of [words(doc.filename), doc.title ?? '', firstHeading]) {
    if (!name.trim()) continue;
    if (CONTRACT_NAME.test(name)) return true;
    if (OTHER_NAME.test(name)) return false;
  }
  return true;
}

/** A clause incorporating other documents into the contract ("the Policies form part of these Terms and are incorporated by reference"). */
const INCORPORATES =
  /\bincorporated (herein |into (this|these|the) [\w ]{0,30})?by reference\b|\bhereby incorporated\b|\bforms? (an integral )?part of (this|these|the) (agreement|terms|contract|dpa|addendum)\b/i;
/** Names of documents a contract refers to: "Security Policy", "Security, Privacy and Architecture Documentation". */
const DOCUMENT_NAME =
  /\b([A-Z][\w-]*(?:,? (?:and )?[A-Z][\w-]*){0,5} (?:Policy|Policies|Documentation|Overview|Statement|Whitepaper|Guidelines|Description|Plan|Program(?:me)?|Measures))\b/g;
const nameKey = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * The documents that form the contract: those `isContractual` places there, and the policies
 * or pages a contractual document incorporates by reference by their name (Aptible's terms:
 * "the Policies form part of these Terms, and are hereby incorporated by reference: 1. Security
 * Policy ..." makes its Security Policy part of the contract).
 */
export function contractualDocuments(docs: SourceDocument[]): Set<SourceDocument> {
  const out = new Set(docs.filter((d) => isContractual(d)));
  const incorporated = new Set<string>();
  for (const d of out) {
    d.blocks.forEach((b, i) => {
      if (!INCORPORATES.test(b.text)) return;
      // The clause and the list that follows it in the same section.
      const section = b.headings.join(' > ');
      const next = d.blocks.slice(i, i + 12).filter((x) => x.headings.join(' > ') === section);
      for (const x of next) for (const m of x.text.matchAll(DOCUMENT_NAME)) incorporated.add(nameKey(m[1]!));
    });
  }
  if (!incorporated.size) return out;
  for (const d of docs) {
    if (out.has(d) || d.contractual === false) continue;
    const names = [d.title ?? '', d.blocks.find((b) => b.headings.length)?.headings[0] ?? ''].map(nameKey).filter(Boolean);
    if (names.some((n) => incorporated.has(n))) out.add(d);
  }
  return out;
}

/**
 * One sentence of a document, the unit evidence is matched and quoted in. Its
 * neighbour in the same block may be joined to it when an element needs two
 * sentences (`next`).
 */
export interface Sentence {
  index: number;
  documentId: string;
  filename: string;
  title: string | null;
  /** From a contractual document (a contract, terms, DPA, SLA): `isContractual`. */
  contractual: boolean;
  /** Heading path, `Security Incident Notification` or `Terms > 3. Termination`. */
  section: string;
  page?: number;
  text: string;
  /** Index of the next sentence of the same block, if any. */
  next: number | null;
  /**
   * The lead-in of the list this sentence is an item of ("Travis-CI shall, without undue delay,
   * notify the Client if:" for "- it becomes aware of a personal data breach; or"), if any.
   */
  lead?: number;
  terms: string[];
}

/** Longest quote kept from one sentence; longer ones are cut around the match. */
export const MAX_QUOTE_CHARS = 600;

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const ABBREVIATION_END = /\b(para|paras|art|arts|sec|secs|no|nos|cf|vs|e\.g|i\.e|approx|incl|p|pp|ch|ref|fig)\.\s*$/i;

/**
 * Splits documents into sentences (Intl.Segmenter, paragraph breaks always end a
 * sentence). Headings are kept as the section of the sentences below them, never as
 * sentences of their own.
 */
export function splitSentences(docs: SourceDocument[]): Sentence[] {
  const out: Sentence[] = [];
  const contractualDocs = contractualDocuments(docs);
  for (const doc of docs) {
    const contractual = contractualDocs.has(doc);
    let lead: number | undefined;
    let prevSection = '';
    let prevLast: Sentence | null = null;
    for (const block of doc.blocks) {
      const section = block.headings.join(' > ');
      // A block after one ending with a colon is an item of that lead-in's list; later items
      // (list markers, same section) keep it.
      if (section !== prevSection) lead = undefined;
      else if (prevLast && /:\s*$/.test(prevLast.text)) lead = prevLast.index;
      else if (lead !== undefined && !/^\s*([-*•]|\(?[a-z0-9ivx]{1,4}[.)])\s/i.test(block.text)) lead = undefined;
      prevSection = section;
      let prev: Sentence | null = null;
      // The segmenter ends a sentence at an abbreviation's full stop ("Article 4 para. 8 GDPR"): such a
      // piece is joined again to the next one when that one goes on in lower case or with a number.
      const pieces: string[] = [];
      for (const raw of sentences(block.text)) {
        const last = pieces.at(-1);
        if (last !== undefined && ABBREVIATION_END.test(last) && /^\s*[\p{Ll}\d(]/u.test(raw)) pieces[pieces.length - 1] = `${last} ${raw}`;
        else pieces.push(raw);
      }
      for (const raw of pieces) {
        const text = squash(raw);
        // Drop fragments that carry no words (list bullets, table rules, lone numbers).
        if (text.length < 3 || !/\p{L}{2}/u.test(text)) continue;
        const s: Sentence = {
          index: out.length,
          documentId: doc.id,
          filename: doc.filename,
          title: doc.title ?? null,
          contractual,
          section,
          page: block.page,
          text,
          next: null,
          terms: terms(`${text}`),
          ...(lead !== undefined ? { lead } : {}),
        };
        if (prev) prev.next = s.index;
        out.push(s);
        prev = s;
      }
      if (prev) prevLast = prev;
    }
  }
  return out;
}

/**
 * The quote for a match: the sentence(s) themselves when short enough, else a window
 * of whole words around the anchor. Always a verbatim substring of the (whitespace
 * normalised) document text.
 */
export function quoteAround(text: string, anchorAt: number, max = MAX_QUOTE_CHARS): { quote: string; truncated: boolean } {
  if (text.length <= max) return { quote: text, truncated: false };
  let start = Math.max(0, anchorAt - Math.floor(max / 3));
  let end = Math.min(text.length, start + max);
  start = Math.max(0, end - max);
  if (start > 0) {
    const sp = text.indexOf(' ', start);
    if (sp !== -1 && sp < anchorAt) start = sp + 1;
  }
  if (end < text.length) {
    const sp = text.lastIndexOf(' ', end);
    if (sp > anchorAt) end = sp;
  }
  return { quote: text.slice(start, end).trim(), truncated: true };
}
