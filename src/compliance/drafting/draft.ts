import { vendorNamesOf } from '../../domain/vendorNames.js';
import { internalSourceLink } from '../../rag/links.js';
import {
  DRAFT_FIELDS,
  type Candidate,
  type DraftField,
  type DraftValue,
  type Evidence,
  type FieldProposal,
  type Subcontractor,
} from '../../domain/profileDrafts.js';
import { brandCompanies, companyNames, extract, providerAliases, type ExtractContext, type Found } from './extractors.js';
import { SUBPROCESSOR_SECTION } from './extractors/subprocessors.js';
import { FIELD_SPECS } from './fields.js';

/**
 * Drafts register fields from a vendor's documents (docs/register-drafting.md): for each
 * field, its queries go through the workspace's retrieval, the field's rule reads the
 * passages, and the values found are grouped. One value → proposed; different values of a
 * single-valued field → a conflict listing each with its passages; nothing → not found.
 * Every quote is a verbatim slice of the stored passage (checked here once more).
 */

/** A retrieved passage of the workspace (a chunk as stored). */
export interface Passage {
  chunkId: string;
  documentId: string;
  dataSourceId: string | null;
  title: string;
  section: string;
  page: string | null;
  url: string;
  content: string;
}

export interface DraftInput {
  /** Names the vendor goes by (at least the workspace name). */
  vendorNames: string[];
  /** Retrieval scoped to the vendor's workspace. */
  search(query: string, limit?: number): Promise<Passage[]>;
  fields?: readonly DraftField[];
  /**
   * The passages after one in its document, in order (a subprocessor table stored over many
   * passages is read to its end). Without it, only the retrieved passages are read.
   */
  following?(passage: Passage, limit: number): Promise<Passage[]>;
  /**
   * The first passages of each document (where a terms, a whitepaper or an SLA says what the
   * service is): read for the description when the retrieved passages do not describe it.
   */
  openings?(perDocument: number): Promise<Passage[]>;
  /** Extra check of each value (the model path); the offline rules need none. */
  signal?: AbortSignal;
}

/** Fields that hold one value: different values are a conflict. Lists are unions; prose fields keep the best sentence. */
const SINGLE: ReadonlySet<DraftField> = new Set([
  'legalName',
  'address',
  'ictServiceType',
  'startDate',
  'endDate',
  'noticePeriodDaysEntity',
  'noticePeriodDaysProvider',
  'governingLaw',
  'personalData',
]);
const LISTS: ReadonlySet<DraftField> = new Set(['serviceLocations', 'dataStorageLocations', 'dataProcessingLocations']);

/** Key under which two values count as the same. */
export function valueKey(field: DraftField, v: DraftValue): string {
  // The numbers of an address (street, suite, postcode); a US ZIP+4 is its ZIP ("94104-5401" is "94104").
  if (field === 'address' && typeof v === 'string') return (v.replace(/\b(\d{5})-\d{4}\b/g, '$1').match(/\d+/g) ?? [v.toLowerCase()]).join(' ');
  if (field === 'legalName' && typeof v === 'string')
    return v
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .replace(/\b(inc|llc|ltd|limited|corp|corporation)\b/g, '')
      .trim();
  // Lists of countries are sets: the order they are named in does not matter.
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return JSON.stringify([...(v as string[])].sort());
  return JSON.stringify(v);
}

function evidenceOf(p: Passage, f: Found): Evidence {
  const quote = p.content.slice(f.start, f.end);
  if (!quote || !p.content.includes(quote)) throw new Error(`quote not verbatim in passage ${p.chunkId}`);
  return {
    documentId: p.documentId,
    dataSourceId: p.dataSourceId,
    chunkId: p.chunkId,
    title: p.title,
    section: p.section,
    page: p.page,
    quote,
    link: internalSourceLink({ id: p.chunkId, documentId: p.documentId, dataSourceId: p.dataSourceId, title: p.title, url: p.url, section: p.section }),
  };
}

/** A privacy policy or notice, by its title. */
const PRIVACY_TITLE = /\bprivacy\b/i;

const round = (n: number) => Math.round(Math.min(0.99, n) * 100) / 100;

/** Groups what the rule found in the passages into one proposal. */
export function decide(field: DraftField, hits: { passage: Passage; found: Found }[]): FieldProposal {
  const spec = FIELD_SPECS[field];
  const base = { field, label: spec.label, form: spec.form };
  // The same sentence found through two queries counts once.
  const seen = new Set<string>();
  hits = hits.filter((h) => {
    const k = `${h.passage.chunkId}:${h.found.start}:${h.found.open ? 'open' : valueKey(field, h.found.value)}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  // Sentences that address the field but leave it open ("may cancel at any time") give the reason of a not found.
  const open = hits.filter((h) => h.found.open);
  hits = hits.filter((h) => !h.found.open);
  // Locations from hosting subprocessors' rows: several hosts in different countries do not say where the customer's data is.
  const hosted = hits.filter((h) => h.found.host);
  if (new Set(hosted.map((h) => h.found.host!.toLowerCase())).size > 1 && new Set(hosted.map((h) => valueKey(field, h.found.value))).size > 1) {
    hits = hits.filter((h) => !h.found.host);
    open.push(
      ...hosted.slice(0, 1).map((h) => ({
        ...h,
        found: {
          ...h.found,
          open: 'several hosting subprocessors are listed in different countries; the documents do not say which of them holds the customer data',
        },
      })),
    );
  }
  // A weak value (a notice of non-renewal) stands only when no firm value is stated and no
  // sentence of the same document leaves the field open (a right to terminate at any time).
  const firm = hits.filter((h) => !h.found.weak);
  if (firm.length) hits = firm;
  else hits = hits.filter((h) => !open.some((o) => o.passage.documentId === h.passage.documentId));
  if (!hits.length) {
    if (!open.length) return { ...base, status: 'not_found', evidence: [] };
    const sorted = [...open].sort((a, b) => b.found.strength - a.found.strength);
    return { ...base, status: 'not_found', reason: sorted[0]!.found.open!, evidence: sorted.slice(0, 3).map((h) => evidenceOf(h.passage, h.found)) };
  }

  if (field === 'subcontractors') {
    const items = new Map<string, { item: Subcontractor; ev: Evidence; strength: number }>();
    for (const h of hits) {
      for (const item of h.found.value as Subcontractor[]) {
        const k = `${item.name.toLowerCase()}|${(item.role ?? '').toLowerCase()}`;
        if (!items.has(k)) items.set(k, { item, ev: evidenceOf(h.passage, h.found), strength: h.found.strength });
      }
    }
    const list = [...items.values()];
    return {
      ...base,
      status: 'proposed',
      value: list.map((x) => x.item),
      confidence: round(Math.min(...list.map((x) => x.strength))),
      evidence: list.map((x) => x.ev),
    };
  }

  if (LISTS.has(field)) {
    const codes = new Set<string>();
    const evidence: Evidence[] = [];
    for (const h of [...hits].sort((a, b) => b.found.strength - a.found.strength)) {
      (h.found.value as string[]).forEach((c) => codes.add(c));
      if (evidence.length < 5) evidence.push(evidenceOf(h.passage, h.found));
    }
    const strength = Math.max(...hits.map((h) => h.found.strength));
    return { ...base, status: 'proposed', value: [...codes].sort(), confidence: round(strength + 0.05 * (hits.length - 1)), evidence };
  }

  if (!SINGLE.has(field)) {
    // Prose fields: the most direct sentence, with up to two more that say the same kind of thing.
    const sorted = [...hits].sort((a, b) => b.found.strength - a.found.strength);
    const best = sorted[0]!;
    return {
      ...base,
      status: 'proposed',
      value: best.found.value,
      confidence: round(best.found.strength),
      evidence: sorted.slice(0, 3).map((h) => evidenceOf(h.passage, h.found)),
    };
  }

  // Three or more governing laws in one document are a schedule by contracting entity or region ("If Customer is
  // domiciled in …", one table per entity): which applies is set by the order, not by the documents.
  if (field === 'governingLaw') {
    const byDoc = new Map<string, Set<string>>();
    for (const h of hits) byDoc.set(h.passage.documentId, (byDoc.get(h.passage.documentId) ?? new Set()).add(String(h.found.value)));
    const schedule = [...byDoc.values()].find((laws) => laws.size >= 3);
    if (schedule)
      return {
        ...base,
        status: 'not_found',
        reason: `the documents give a governing law per contracting entity or region (${[...schedule].join(', ')}); which applies is set by the order`,
        evidence: hits.slice(0, 3).map((h) => evidenceOf(h.passage, h.found)),
      };
  }
  // The provider's name and address in the contract stand over a privacy policy's, which may name another entity or office of
  // the group as controller of its own processing.
  if (field === 'legalName' || field === 'address') {
    const privacy = (h: (typeof hits)[number]) => PRIVACY_TITLE.test(h.passage.title);
    if (hits.some(privacy) && hits.some((h) => !privacy(h))) hits = hits.filter((h) => !privacy(h));
  }
  const groups = new Map<string, { value: DraftValue; hits: typeof hits }>();
  for (const h of hits) {
    const k = valueKey(field, h.found.value);
    const g = groups.get(k) ?? { value: h.found.value, hits: [] };
    g.hits.push(h);
    groups.set(k, g);
  }
  const candidates: Candidate[] = [...groups.values()]
    .map((g) => ({
      value: g.value,
      confidence: round(Math.max(...g.hits.map((h) => h.found.strength)) + 0.05 * (new Set(g.hits.map((h) => h.passage.documentId)).size - 1)),
      evidence: g.hits.slice(0, 3).map((h) => evidenceOf(h.passage, h.found)),
    }))
    .sort((a, b) => b.confidence - a.confidence);
  if (candidates.length === 1) {
    const c = candidates[0]!;
    return { ...base, status: 'proposed', value: c.value, confidence: c.confidence, evidence: c.evidence };
  }
  return { ...base, status: 'conflict', evidence: candidates.flatMap((c) => c.evidence.slice(0, 1)), candidates };
}

/** The passages of a field: each of its queries through the workspace's retrieval, deduplicated. */
export async function passagesOf(
  field: DraftField,
  search: (q: string, limit?: number) => Promise<Passage[]>,
  signal?: AbortSignal,
  vendorNames: string[] = [],
  legalNames: readonly string[] = [],
): Promise<Passage[]> {
  const out = new Map<string, Passage>();
  // The legal name is looked for next to the vendor's own name too ("Gruntwork, Inc. (“Gruntwork,” “we”)"):
  // the generic queries find a preamble or definition, not always the one that names this vendor.
  // The address is looked for next to the legal name once it is drafted (a contact block "Acme AB / Street 3 / 169 68 Solna"
  // under a heading such as "Data Controller" that no generic query finds).
  const own =
    field === 'legalName'
      ? vendorNames.filter((n) => n.length >= 3).map((n) => `${n} Inc. LLC Ltd GmbH “we” “us”`)
      : field === 'address'
        ? legalNames.map((n) => `${n} address`)
        : [];
  for (const q of [...FIELD_SPECS[field].queries, ...own]) {
    signal?.throwIfAborted();
    for (const p of await search(q, FIELD_SPECS[field].limit)) if (!out.has(p.chunkId)) out.set(p.chunkId, p);
  }
  return [...out.values()];
}

/**
 * The legal name where no clause names the provider's entity: the company name starting with
 * the vendor's own name ("Spacelift, Inc.") that the most documents use, proposed only when
 * at least two documents use it and no other such name is used as widely. A lower
 * confidence than a clause's: the analyst sees it came from use, not from a definition.
 */
function legalNameByUse(passages: Passage[], vendorNames: string[]): FieldProposal | null {
  const hits = passages.flatMap((p) => brandCompanies(p.content, vendorNames).map((found) => ({ passage: p, found })));
  const docs = new Map<string, Set<string>>();
  for (const h of hits) {
    const k = valueKey('legalName', h.found.value);
    docs.set(k, (docs.get(k) ?? new Set()).add(h.passage.documentId));
  }
  const ranked = [...docs.entries()].sort((a, b) => b[1].size - a[1].size);
  const [top, next] = ranked;
  if (!top || top[1].size < 2 || (next && next[1].size >= top[1].size)) return null;
  return decide(
    'legalName',
    hits.filter((h) => valueKey('legalName', h.found.value) === top[0]),
  );
}

/** Passages read at the start of each document for a description the retrieval did not find. */
export const OPENING_PASSAGES = 2;

/** Passages read after one that holds subprocessor rows, at most. */
export const TABLE_PASSAGES = 24;

/**
 * A subprocessor table or list goes on after a retrieved passage that holds some of its rows
 * (a long row is a passage of its own): the passages after it are read while they hold rows.
 */
async function readTablesOn(
  hits: { passage: Passage; found: Found }[],
  read: Set<string>,
  ctx: ExtractContext,
  following: NonNullable<DraftInput['following']>,
): Promise<void> {
  const starts = [...new Map(hits.map((h) => [h.passage.chunkId, h.passage])).values()];
  for (const start of starts) {
    for (const p of await following(start, TABLE_PASSAGES)) {
      if (hits.some((h) => h.passage.chunkId === p.chunkId)) continue;
      // A passage already read as retrieved may have given nothing without the table's context: it is read again
      // here, and skipped (not the end of the table) when it still gives nothing, as the part of a long row may.
      const seen = read.has(p.chunkId);
      read.add(p.chunkId);
      // The rows go on under the table's own context: a passage that holds only rows ("Service: Census;
      // Location: …") has lost the lead-in that said they are subprocessors.
      const found = extract('subcontractors', p.content, ctx, SUBPROCESSOR_SECTION.test(p.section) ? p.section : `${p.section} > subprocessors (continued)`);
      if (!found.length) {
        if (seen) continue;
        break;
      }
      for (const f of found) hits.push({ passage: p, found: f });
    }
  }
}

/** Drafts every field (or `fields`) from the passages the workspace's retrieval returns. */
export async function draftFields(input: DraftInput): Promise<FieldProposal[]> {
  const fields = input.fields ?? DRAFT_FIELDS;
  const byQuery = new Map<string, Promise<Passage[]>>();
  const search = (q: string, limit?: number) => {
    const k = `${limit ?? ''}\u0000${q}`;
    if (!byQuery.has(k)) byQuery.set(k, input.search(q, limit));
    return byQuery.get(k)!;
  };

  // The vendor's own names (legal names found first) make "X is a provider of ..." and "X may terminate" readable.
  const names = new Set(vendorNamesOf(...input.vendorNames));
  const legalNames: string[] = [];
  const passagesFor = (field: DraftField) => passagesOf(field, search, input.signal, input.vendorNames, legalNames);
  const results = new Map<DraftField, FieldProposal>();
  const run = async (field: DraftField) => {
    const ctx = { vendorNames: [...names], legalNames };
    const hits: { passage: Passage; found: Found }[] = [];
    const read = new Set<string>();
    for (const p of await passagesFor(field)) {
      read.add(p.chunkId);
      for (const f of extract(field, p.content, ctx, p.section)) hits.push({ passage: p, found: f });
    }
    if (field === 'subcontractors' && input.following) await readTablesOn(hits, read, ctx, input.following);
    if (field === 'description' && !hits.length && input.openings) {
      for (const p of await input.openings(OPENING_PASSAGES)) {
        if (read.has(p.chunkId)) continue;
        for (const f of extract(field, p.content, ctx, p.section)) hits.push({ passage: p, found: f });
      }
    }
    const proposal = decide(field, hits);
    results.set(field, proposal);
    return proposal;
  };
  if (fields.includes('legalName')) {
    let legal = await run('legalName');
    if (legal.status !== 'proposed' && legal.status !== 'conflict') {
      const byUse = legalNameByUse(await passagesFor('legalName'), [...names]);
      if (byUse) results.set('legalName', (legal = byUse));
    }
    const values = legal.status === 'proposed' ? [legal.value] : (legal.candidates ?? []).map((c) => c.value);
    for (const v of values) {
      if (typeof v !== 'string') continue;
      names.add(v);
      legalNames.push(v);
      for (const n of companyNames(v)) names.add(n.split(/[\s,]/)[0]!);
      // The short names the contract gives the provider ("Pydantic Services, Inc. (“PSI”, “we”)").
      for (const e of [...legal.evidence, ...(legal.candidates ?? []).flatMap((c) => c.evidence)]) for (const a of providerAliases(v, e.quote)) names.add(a);
    }
  }
  for (const f of fields) if (f !== 'legalName') await run(f);
  return fields.map((f) => results.get(f)!);
}
