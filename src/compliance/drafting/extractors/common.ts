import { EEA } from '../../../domain/countries.js';
import type { DraftValue } from '../../../domain/profileDrafts.js';
import { countriesIn, jurisdictionCountry, lawAdjectiveCountry, type Sentence } from '../text.js';

export { otherCustomersSection } from '../text.js';

/**
 * What the register drafting rules share (extractors.ts): what a rule finds and reads with,
 * the company-name pattern, sentence helpers, Markdown table cells and `Key: value; ...`
 * rows, and the "contracting entity" table that names the provider's entity, address and
 * governing law at once (with the postal address and law readers it uses).
 */

export interface Found {
  value: DraftValue;
  /** Offsets of the quote in the passage content. */
  start: number;
  end: number;
  /** How directly the sentence states the value, 0..1. */
  strength: number;
  /**
   * The sentence addresses the field but leaves it without a value ("either party may cancel
   * at any time"): why, for a `not_found` with a reason. `value` is then null and unused.
   */
  open?: string;
  /**
   * A value that stands only when nothing stronger speaks to the field (a notice of
   * non-renewal, when no termination notice is stated and no party may terminate at any time).
   */
  weak?: boolean;
  /** A location read from a hosting subprocessor's row: the subprocessor's name (several hosts in different places say nothing). */
  host?: string;
}

export interface ExtractContext {
  /** Names the vendor goes by (workspace name, legal names seen): the subject of "X is a provider of ...". */
  vendorNames: string[];
  /** The legal names drafted for the vendor, when found: its address is the one next to them (not an affiliate's). */
  legalNames?: string[];
}

export type Rule = (content: string, ss: Sentence[], ctx: ExtractContext, section: string) => Found[];

/**
 * A company name with its legal form: after the name ("Acme, Inc.", "Acme GmbH", "Acme S.p.A.",
 * "Acme Sp. z o.o.", "Acme spółka z o.o.", "Acme d.o.o.", "Acme OÜ"), or before it as French practice writes it ("SASU Acme", "SARL Acme").
 * The Nordic "AS"/"ASA" and the Italian "SpA" follow a name written in mixed case only: an
 * all-caps disclaimer ("PROVIDED AS IS") is not a company, nor is "Provided AS IS".
 */
export const COMPANY = String.raw`(?:(?:[A-Z0-9][\w&'’.-]*(?:,?\s+(?:\([A-Z][\w .'’-]{1,30}\)|[A-Z0-9][\w&'’.-]*)){0,5}?),?\s+(?:LLC|L\.L\.C\.|LLP|L\.P\.|LLLP|PLLC|Incorporated|INCORPORATED|Inc\.?|INC\.?|Ltd\.?|LTD\.?|Ltda\.?|Lda\.?|Limited Liability Company|LIMITED LIABILITY COMPANY|Limited|LIMITED|Pty\.? Ltd\.?|GmbH(?: & Co\. KG)?|GMBH|UG|KG|B\.V\.|BV|N\.V\.|S\.A\.S\.|SAS|S\.A\.|SARL|S\.à r\.l\.|S\.r\.l\.|SRL|S\.p\.A\.|S\.L\.|PBC|Corporation|CORPORATION|Corp\.?|CORP\.?|plc|PLC|AG|SE|AB|Oy|Oyj|ApS|A/S|Sp\. z o\.o\.|[Ss]p(?:ółka|\.) z o\. ?o\.|[Ss]półka akcyjna|s\.r\.o\.|d\.o\.o\.|Kft\.|Zrt\.|Lda\.|S\.L\.U\.|DAC|OÜ|SIA|UAB|Sàrl|Sagl|SAGL|EOOD|a\.\s?s\.|A\.S\.|spol\. s r\.\s?o\.|S\.A\.S\.U\.|SASU|K\.K\.|e\.K\.|ehf\.|hf\.)(?![\w])|(?:[A-Z0-9][\w&'’.-]*[a-z][\w&'’.-]*(?:\s+[A-Z0-9][\w&'’.-]*){0,3}?),?\s+(?:AS|ASA|SpA|SA|NV|LP|Srl|Sarl)(?![\w])(?!\s+IS\b)|(?:SASU|SAS|SARL|EURL)\s+[A-Z0-9][\w&'’.-]*[a-z][\w&'’.-]*(?:\s+[A-Z0-9][\w&'’.-]*[a-z][\w&'’.-]*){0,2})`;
export const companyRe = () => new RegExp(COMPANY, 'g');
export const found = (s: Sentence, value: DraftValue, strength: number): Found => ({ value, start: s.start, end: s.end, strength });
export const openFound = (s: Sentence, reason: string, strength = 0.7): Found => ({ value: null, start: s.start, end: s.end, strength, open: reason });
export const esc = (n: string) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The vendor's names as an alternation (longest first), with the pronouns and roles a contract uses for it. */
export const vendorAlt = (ctx: ExtractContext) =>
  [...ctx.vendorNames]
    .filter(Boolean)
    .sort((a, b) => b.length - a.length)
    .map((n) => esc(n).replace(/\s+/g, '[\\s-]+'))
    .join('|');
/** A negation near the cue: "we do not hold a SOC 2 report", "nothing in this Agreement grants audit rights". */
export const NEGATES =
  /\b(do|does|did|will|shall|can|could|would)\s*(not|n['’]t)\b|\b(cannot|never|neither|nor)\b|\bnot\s+(currently\s+)?(hold|have|maintain|provide|offer|certified|compliant|audited)\b|\bno\s+(right|rights|obligation|audit|report)\b|\bnothing\b[^.]{0,80}\b(creates?|grants?|gives?|entitles?)\b/i;
export const clean = (s: string) =>
  s
    .replace(/<\/?[a-z][^>]*>/gi, ' ')
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:[-*•]|\d{1,3}[.)])\s+/, '');
export const vendorSubject = (text: string, ctx: ExtractContext) =>
  new RegExp(
    `^(?:the\\s+)?(?:${ctx.vendorNames.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}|we|our company|the company|the data importer)\\b`,
    'i',
  ).test(text.replace(/^[-*•]\s*/, ''));

/** A company name at the start of a text (`Secoda, Inc., an Ontario corporation` → `Secoda, Inc.`). */
export const companyAt = (text: string) => new RegExp(`^${COMPANY}`).exec(text.trim())?.[0].replace(/\s+/g, ' ') ?? null;
export const priorText = (ss: Sentence[], i: number, n: number) =>
  ss
    .slice(Math.max(0, i - n), i)
    .map((x) => x.text)
    .join(' ');
/** Roles a contract gives the provider in a definition ("“Vendor” means X Inc.", "X Inc. (“we”, “us”)"). */
export const PROVIDER_TERMS = 'we|us|our|company|vendor|provider|supplier|licensor|service provider|processor|data importer';

/** The cells of a Markdown table row, or null for its separator row (`| --- | :-: |`). */
export function tableCells(row: string): string[] | null {
  const cells = row
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());
  return cells.every((c) => /^:?-+:?$/.test(c) || c === '') ? null : cells;
}

/**
 * The "contracting entity" table of terms that name the provider's entity, notice address,
 * governing law and courts by where the customer is domiciled ("If Licensee is domiciled in: |
 * Licensee is contracting with: | Notices should be addressed to: | The governing law is: ...").
 * The row for an EU customer is taken (the register is kept by EU financial entities): one
 * naming Europe, the EU or the EEA, else one for any other country; a table without such a row
 * says nothing.
 */
interface EntityRow {
  entity?: string;
  address?: string;
  law?: string;
  start: number;
  end: number;
}
const ENTITY_KEY = /contracting (with|entity|party)|\bentity\b|contracting/i;
export const LAW_KEY = /governing law|applicable law|\blaw\b/i;
const DOMICILE_KEY = /domicil|located|location|region|country|territory|resid|if (you|customer|licensee)/i;
export function entityRows(content: string): EntityRow[] {
  const rows: { pairs: [string, string][]; start: number; end: number }[] = [];
  let offset = 0;
  let header: string[] | null = null;
  for (const line of content.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    const tr = line.trim();
    const at = start + line.indexOf(tr);
    if (tr.startsWith('|')) {
      const cells = tableCells(tr);
      if (!cells) continue;
      if (!header) header = cells.map((c) => c.replace(/\s*:\s*$/, ''));
      else rows.push({ pairs: cells.map((c, i) => [header![i] ?? '', c] as [string, string]), start: at, end: at + tr.length });
      continue;
    }
    header = null;
    const pairs = keyValues(tr);
    if (pairs) rows.push({ pairs, start: at, end: at + tr.length });
  }
  const scored: (EntityRow & { score: number })[] = [];
  for (const r of rows) {
    const get = (re: RegExp, not?: RegExp) => r.pairs.find(([k]) => re.test(k) && !not?.test(k))?.[1]?.trim();
    const entityCell = get(ENTITY_KEY, /law|court|notice|address/i);
    const lawCell = get(LAW_KEY, /court/i);
    if (!entityCell || !lawCell) continue;
    const where = get(DOMICILE_KEY, /contracting|law|court|notice|address/i) ?? '';
    const score =
      /\b(europe|european (union|economic area)|EU|EEA)\b/i.test(where) || countriesIn(where).some((c) => EEA.has(c.code))
        ? 3
        : !where || /\b(any|all|other|elsewhere|rest of (the )?world|worldwide|outside)\b/i.test(where)
          ? 2
          : 0;
    if (!score) continue;
    const entity = companyAt(clean(entityCell)) ?? undefined;
    const addressCell = get(/notice|address/i, /law|court/i);
    const address = addressCell ? (addressAt(clean(addressCell)) ?? undefined) : undefined;
    const law = lawCountry(lawCell) ?? lawAdjectiveCountry(lawCell)?.code ?? jurisdictionCountry(lawCell) ?? undefined;
    scored.push({ entity, address, law, start: r.start, end: r.end, score });
  }
  const best = Math.max(0, ...scored.map((x) => x.score));
  return scored.filter((x) => x.score === best);
}

/** A postal address starting at the beginning of `text`, up to where the clause goes on; null without a street number or postcode. */
/** A registration number written before a street: "org. nr 556123-4567, ", "CVR 12345678, ", "(business ID 1234567-8), ". */
const REGISTRATION_LEAD =
  /^(?:\(?\s*(?:org(?:anisation|anization)?\.?\s*(?:nr|no|number)\.?|CVR(?:\s*(?:nr|no)\.?)?|business ID|company (?:no|number)|reg(?:istration)?\.?\s*(?:no|number)\.?|VAT(?:\s*no\.?)?|KvK|KRS|NIP|ABN|ACN|CRO|CRN|ID No\.?)\s*:?\s*[\w ./-]{1,25}\)?,\s*)+/i;

export function addressAt(text: string): string | null {
  // A registration number before the street ("org. nr 556123-4567, Sveavägen 10, …", "CVR 12345678, …") is not part of the address.
  const t = text.replace(/^\s*[:,-]?\s*/, '').replace(REGISTRATION_LEAD, '');
  const stop =
    /\s*(?:\(|;|,\s+or\s|,?\s+[\w.+-]+@[\w-]+\.|,\s*(?:ID No|business ID|org(?:anisation|anization)?\.?\s*(?:nr|no|number)|CVR|VAT|KvK|KRS|NIP|ABN|ACN|CRO|CRN|company (?:no|number)|reg(?:istration)?\.?\s*(?:no|number))\b|[“"]|\s(?:and|AND)\s|,?\s+(?:registered|entered|represented|hereinafter|acting|with (?:company|registration)|that|which|who)\b|,?\s+(?:is|are|was|acts as)\s|,\s*(?:an?|the)\s(?!(?:Netherlands|United (?:States|Kingdom|Arab Emirates)|Czech Republic|Slovak Republic|Republic of|Philippines)\b)|\.\s+(?=[A-Z][a-z]+\s+[a-z])|\.\s*$|$)/;
  const end = stop.exec(t);
  const a = (end ? t.slice(0, end.index) : t).replace(/[\s,.]+$/, '').trim();
  if (a.length < 10 || a.length > 160) return null;
  if (!/\d/.test(a)) return null;
  // A postcode (10247, 94107, 120 00, 50-266, 1000-001, M6K 1G1, SW1A 1AA, 110002) and a comma between street and town.
  if (
    !/(\b\d{4,6}\b|\b\d{3} \d{2}\b|\b\d{2}-\d{3}\b|\b\d{4}-\d{3}\b|\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b|\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b|\b[A-Z]\d{2}\s?[A-Z0-9]{4}\b)/.test(
      a,
    ) ||
    !/,/.test(a)
  )
    return null;
  return a;
}

const LAW_OF =
  /\b[Ll]aws?\s+of\s+(?:the\s+)?((?:(?:[Ss]tate|Commonwealth|Province|Republic|Federal Republic|Kingdom|Grand Duchy)\s+of\s+)?[A-Z][\w.'’-]*(?:\s+(?:and\s+)?[A-Z][\w.'’-]*){0,4})/g;
export const lawCountry = (text: string) => {
  let first: { code: string; index: number } | null = null;
  for (const m of text.matchAll(LAW_OF)) {
    const c = jurisdictionCountry(m[1]!.replace(/\s+and\s+Wales\b/, ''));
    if (c) {
      first = { code: c, index: m.index! };
      break;
    }
  }
  // "governed by Dutch law", "Delaware law applies": the law named by its adjective or state.
  const adj = lawAdjectiveCountry(text);
  if (adj && (!first || adj.index < first.index)) return adj.code;
  return first?.code ?? null;
};

export function keyValues(line: string): [string, string][] | null {
  // A cell's value may hold its own semicolons ("(Clause 6.8); SCCs …"): a pair starts only at "; Key: ".
  if (!/^[A-Z][^:;]{1,60}: /.test(line)) return null;
  const parts = line.split(/; (?=[A-Z][^:;]{1,60}: )/);
  if (parts.length < 2) return null;
  return parts.map((p) => {
    const i = p.indexOf(': ');
    return [p.slice(0, i).trim(), p.slice(i + 2).trim()] as [string, string];
  });
}
