import { EEA } from '../../domain/countries.js';
import type { ICT_SERVICE_TYPES } from '../../domain/vendorProfile.js';
import type { DraftField, DraftValue } from '../../domain/profileDrafts.js';
import { CLOUD_REGION_CODES, countriesIn, dates, durations, jurisdictionCountry, lawAdjectiveCountry, sentences, type Sentence } from './text.js';

/**
 * Offline extraction rules, one per field form (docs/register-drafting.md, "Extraction
 * rules"). Each rule reads one passage sentence by sentence and returns the values it
 * finds with the offsets of the sentence that states them; a rule that is not sure
 * returns nothing (a field is "not found" rather than guessed).
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

type Rule = (content: string, ss: Sentence[], ctx: ExtractContext, section: string) => Found[];

/**
 * A company name with its legal form: after the name ("Acme, Inc.", "Acme GmbH", "Acme S.p.A.",
 * "Acme Sp. z o.o."), or before it as French practice writes it ("SASU Acme", "SARL Acme").
 * The Nordic "AS"/"ASA" and the Italian "SpA" follow a name written in mixed case only: an
 * all-caps disclaimer ("PROVIDED AS IS") is not a company, nor is "Provided AS IS".
 */
const COMPANY = String.raw`(?:(?:[A-Z0-9][\w&'’.-]*(?:,?\s+[A-Z0-9][\w&'’.-]*){0,4}?),?\s+(?:LLC|L\.L\.C\.|LLP|Inc\.?|INC\.?|Ltd\.?|LTD\.?|Limited|LIMITED|Pty\.? Ltd\.?|GmbH(?: & Co\. KG)?|GMBH|UG|KG|B\.V\.|BV|N\.V\.|S\.A\.S\.|SAS|S\.A\.|SARL|S\.à r\.l\.|S\.r\.l\.|SRL|S\.p\.A\.|S\.L\.|PBC|Corporation|CORPORATION|Corp\.?|CORP\.?|plc|PLC|AG|SE|AB|Oy|Oyj|ApS|A/S|Sp\. z o\.o\.|s\.r\.o\.|Kft\.|Lda\.)(?![\w])|(?:[A-Z0-9][\w&'’.-]*[a-z][\w&'’.-]*(?:\s+[A-Z0-9][\w&'’.-]*){0,3}?),?\s+(?:AS|ASA|SpA)(?![\w])(?!\s+IS\b)|(?:SASU|SAS|SARL|EURL)\s+[A-Z0-9][\w&'’.-]*[a-z][\w&'’.-]*(?:\s+[A-Z0-9][\w&'’.-]*[a-z][\w&'’.-]*){0,2})`;
const companyRe = () => new RegExp(COMPANY, 'g');
const found = (s: Sentence, value: DraftValue, strength: number): Found => ({ value, start: s.start, end: s.end, strength });
const openFound = (s: Sentence, reason: string, strength = 0.7): Found => ({ value: null, start: s.start, end: s.end, strength, open: reason });
const esc = (n: string) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The vendor's names as an alternation (longest first), with the pronouns and roles a contract uses for it. */
const vendorAlt = (ctx: ExtractContext) =>
  [...ctx.vendorNames]
    .filter(Boolean)
    .sort((a, b) => b.length - a.length)
    .map((n) => esc(n).replace(/\s+/g, '[\\s-]+'))
    .join('|');
/** A negation near the cue: "we do not hold a SOC 2 report", "nothing in this Agreement grants audit rights". */
const NEGATES =
  /\b(do|does|did|will|shall|can|could|would)\s*(not|n['’]t)\b|\b(cannot|never|neither|nor)\b|\bnot\s+(currently\s+)?(hold|have|maintain|provide|offer|certified|compliant|audited)\b|\bno\s+(right|rights|obligation|audit|report)\b|\bnothing\b[^.]{0,80}\b(creates?|grants?|gives?|entitles?)\b/i;
const clean = (s: string) =>
  s
    .replace(/<\/?[a-z][^>]*>/gi, ' ')
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:[-*•]|\d{1,3}[.)])\s+/, '');
const vendorSubject = (text: string, ctx: ExtractContext) =>
  new RegExp(
    `^(?:the\\s+)?(?:${ctx.vendorNames.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}|we|our company|the company|the data importer)\\b`,
    'i',
  ).test(text.replace(/^[-*•]\s*/, ''));

/** A company name at the start of a text (`Secoda, Inc., an Ontario corporation` → `Secoda, Inc.`). */
const companyAt = (text: string) => new RegExp(`^${COMPANY}`).exec(text.trim())?.[0].replace(/\s+/g, ' ') ?? null;
const priorText = (ss: Sentence[], i: number, n: number) =>
  ss
    .slice(Math.max(0, i - n), i)
    .map((x) => x.text)
    .join(' ');
/** Roles a contract gives the provider in a definition ("“Vendor” means X Inc.", "X Inc. (“we”, “us”)"). */
const PROVIDER_TERMS = 'we|us|our|company|vendor|provider|supplier|licensor|service provider|processor|data importer';

/** The cells of a Markdown table row, or null for its separator row (`| --- | :-: |`). */
function tableCells(row: string): string[] | null {
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
const LAW_KEY = /governing law|applicable law|\blaw\b/i;
const DOMICILE_KEY = /domicil|located|location|region|country|territory|resid|if (you|customer|licensee)/i;
function entityRows(content: string): EntityRow[] {
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

/**
 * The provider's legal name, where contracts state it: the `Name:` / `Data importer:` block
 * of the SCC annexes; the preamble ("entered into by and between X Inc.", "between you
 * (“Customer”) and X LLP"); a definition ("“Pulumi” means Pulumi Corporation", "X Inc.
 * (“we”, “us”)"); the description of the party ("X, Inc., an Ontario corporation"); the
 * imprint ("X GmbH, Street 8, 10247 Berlin, registered with the commercial register").
 */
const legalName: Rule = (content, ss, ctx) => {
  const out: Found[] = [];
  const alt = vendorAlt(ctx);
  for (const r of entityRows(content)) if (r.entity) out.push({ value: r.entity, start: r.start, end: r.end, strength: 0.9 });
  ss.forEach((s, i) => {
    const t = clean(s.text);
    let m = /^Name:\s*(.+)$/.exec(t);
    if (m) {
      if (i > 0 && /importer/i.test(priorText(ss, i, 3))) {
        const name = companyAt(m[1]!);
        if (name) out.push(found(s, name, 0.95));
      }
      return;
    }
    m = /^(?:Data importer|Processor|Service provider|Provider|Vendor|Supplier)\s*:\s*(.+)$/i.exec(t);
    if (m) {
      const name = companyAt(m[1]!);
      if (name) out.push(found(s, name, 0.9));
      return;
    }
    // Preamble: "between X Inc. (", "between you (...) and X LLP", "by and between Customer and X Ltd".
    m = new RegExp(
      String.raw`\b(?:[Bb]etween|BETWEEN)\s+\[?(?:(?:[Yy]ou|YOU|[Cc]ustomer|CUSTOMER|[Cc]lient|CLIENT|[Tt]he [Cc]ustomer|[Ll]icensee)\b(?:\s*\([^)]{0,80}\))?,?\s+(?:and|AND)\s+)?(${COMPANY})`,
    ).exec(t);
    if (m) {
      const rest = t.slice(m.index + m[0].length);
      // The vendor's side of the preamble: followed by its role, "and you/Customer", or the vendor's name.
      if (/^\s*(\(|,|and\b|AND\b|its affiliates|$|\.)/.test(rest) || (alt && new RegExp(`^(?:${alt})`, 'i').test(m[1]!))) {
        out.push(found(s, m[1]!.replace(/\s+/g, ' '), 0.85));
        return;
      }
    }
    // Definition: "“Pulumi” means Pulumi Corporation", "X Inc. (“Zulip,” “we” and “us”)".
    m = new RegExp(String.raw`[“"']([^”"']{2,40})[”"']\s+(?:means|shall mean|refers to)\s+(${COMPANY})`).exec(t);
    if (m && (new RegExp(`^(?:${PROVIDER_TERMS})$`, 'i').test(m[1]!.trim()) || (alt && new RegExp(`^(?:${alt})`, 'i').test(m[1]!.trim())))) {
      out.push(found(s, m[2]!.replace(/\s+/g, ' '), 0.85));
      return;
    }
    // "“Menditect” is a private limited liability company under Dutch law with the name Menditect B.V.".
    m = new RegExp(
      String.raw`^(?:\d+\.\s*)?[“"]\*?([^”"*]{2,40})\*?[”"]\s+(?:is|means)\s+[^.;]{0,120}?\b(?:with the name|under the name|named|called)\s+(${COMPANY})`,
    ).exec(t);
    if (m && (new RegExp(`^(?:${PROVIDER_TERMS})$`, 'i').test(m[1]!.trim()) || (alt && new RegExp(`^(?:${alt})`, 'i').test(m[1]!.trim())))) {
      out.push(found(s, m[2]!.replace(/\s+/g, ' '), 0.85));
      return;
    }
    m = new RegExp(String.raw`(?:^|[\s(])(${COMPANY})\s*\(\s*(?:the\s+)?[“"'‘]([^”"'’]{1,40})[”"'’]`).exec(t);
    if (m) {
      const label = m[2]!.replace(/[,.]$/, '').trim();
      const after = t.slice(m.index + m[0].length, m.index + m[0].length + 60);
      if (new RegExp(`^(?:${PROVIDER_TERMS})$`, 'i').test(label) || /[“"'‘](we|us)\b/i.test(after) || (alt && new RegExp(`^(?:${alt})`, 'i').test(label))) {
        out.push(found(s, m[1]!.replace(/\s+/g, ' '), 0.85));
        return;
      }
    }
    // "Simptel B.V. is referred to as Simptel", "X GmbH (hereinafter referred to as “X”)".
    m = new RegExp(
      String.raw`(?:^|[\s(])(${COMPANY}),?\s*\(?\s*(?:is\s+|shall be\s+|will be\s+)?(?:hereinafter|hereafter|henceforth)?\s*(?:referred to as|called)\s+(?:the\s+)?[“"'‘*]*([^”"'’*.,;)]{1,40})`,
    ).exec(t);
    if (m) {
      const label = m[2]!.trim().replace(/^the\s+/i, '');
      if (new RegExp(`^(?:${PROVIDER_TERMS})$`, 'i').test(label) || (alt && new RegExp(`^(?:${alt})`, 'i').test(label))) {
        out.push(found(s, m[1]!.replace(/\s+/g, ' '), 0.85));
        return;
      }
    }
    // "X, Inc., an Ontario corporation" / "X Ltd, a company incorporated in ...".
    m = new RegExp(
      String.raw`(?:^|\bby\s+|\band\s+)(${COMPANY}),?\s+an?\s+(?:[A-Z][\w ]{1,40}\s+)?(?:corporation|company|limited liability company|private limited company|public benefit corporation|partnership|GmbH)\b`,
    ).exec(t);
    if (m) {
      out.push(found(s, m[1]!.replace(/\s+/g, ' '), 0.8));
      return;
    }
    // Imprint: "X GmbH, Street 8, 10247 Berlin, registered with the commercial register ...".
    m = new RegExp(String.raw`^(?:of\s+|by\s+)?(${COMPANY}),\s+[^,]{2,60}\s\d+[a-z]?,\s+\d{4,5}\s+[A-Z]`).exec(t);
    if (
      m &&
      (/\b(registered|commercial register|company (number|no)|HRB|register(ed)? office)\b/i.test(t) ||
        /^.{0,200}?\bis an?\s+[^.]{0,60}\b(developer|provider|company|corporation|manufacturer|supplier|vendor|publisher)\b/i.test(t.slice(m[0].length)))
    )
      out.push(found(s, m[1]!.replace(/\s+/g, ' '), 0.8));
  });
  return out;
};

/** A postal address starting at the beginning of `text`, up to where the clause goes on; null without a street number or postcode. */
/** A line of a company's registration details, not of its address. */
const REGISTRATION_LINE =
  /^(trade register|registration|reg\.|company (no|number|registration)|commercial register|register(ed)? (no|number)|VAT|CUI|CIF|ABN|ACN|EIN|tax id|KvK|Handelsregister|HRB|HRA|Amtsgericht|SIREN|SIRET|RCS|UID|CRN|CVR|NIP|REGON|KRS|OIB)\b/i;

function addressAt(text: string): string | null {
  const t = text.replace(/^\s*[:,-]?\s*/, '');
  const stop =
    /\s*(?:\(|;|[“"]|\s(?:and|AND)\s|,?\s+(?:registered|represented|hereinafter|acting|with (?:company|registration)|that|which|who)\b|,\s*(?:an?|the)\s|\.\s+(?=[A-Z][a-z]+\s+[a-z])|\.\s*$|$)/;
  const end = stop.exec(t);
  const a = (end ? t.slice(0, end.index) : t).replace(/[\s,.]+$/, '').trim();
  if (a.length < 10 || a.length > 160) return null;
  if (!/\d/.test(a)) return null;
  // A postcode (10247, 94107, M6K 1G1, SW1A 1AA, 110002) and a comma between street and town.
  if (!/(\b\d{4,6}\b|\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b|\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b)/.test(a) || !/,/.test(a)) return null;
  return a;
}

/**
 * A contact or signature block: the vendor's name alone on a line, then its street, town
 * and postcode, and country on the next lines (up to an e-mail, phone or web line).
 */
function contactBlock(content: string, alt: string): Found[] {
  const out: Found[] = [];
  const lines: { text: string; start: number }[] = [];
  let at = 0;
  for (const l of content.split('\n')) {
    lines.push({ text: l, start: at });
    at += l.length + 1;
  }
  lines.forEach((l, i) => {
    const name = clean(l.text);
    const co = companyAt(name);
    if (!co || co.length < name.replace(/[.,]$/, '').length - 1 || !new RegExp(`^(?:${alt})`, 'i').test(co)) return;
    const parts: { text: string; start: number }[] = [];
    for (const n of lines.slice(i + 1, i + 6)) {
      const tt = n.text.trim();
      if (!tt) {
        if (parts.length) break;
        continue;
      }
      if (/^(e-?mail|phone|tel|fax|attn|attention|web|www|http|contact)/i.test(tt) || tt.length > 80) break;
      // A registration line ends the address ("Trade Register No.: J40/7232/2017", "CUI: 37597235", "ABN 33 …").
      if (REGISTRATION_LINE.test(tt)) break;
      parts.push(n);
    }
    // An agent's address ("c/o Corporation Service Company") is not the provider's own.
    if (parts.length < 2 || parts.some((p) => /^(c\/o|care of|attn|attention)\b/i.test(p.text.trim()))) return;
    const first = parts[0]!;
    const last = parts[parts.length - 1]!;
    const start = first.start + first.text.indexOf(first.text.trim());
    const end = last.start + last.text.trimEnd().length;
    const value = parts.map((p) => clean(p.text).replace(/[,\s]+$/, '')).join(', ');
    // Without a postcode, a block of street (with its number), town and a country on its own line is an address too.
    const countryLine =
      parts.length >= 3 && /\d/.test(parts[0]!.text) && countriesIn(clean(last.text)).length === 1 && clean(last.text).split(/\s+/).length <= 3;
    if (addressAt(value) === value.replace(/[\s,.]+$/, '').trim() || countryLine) out.push({ value, start, end, strength: 0.8 });
  });
  return out;
}

/**
 * The provider's address: `Address:` in the block of the data importer or of the provider;
 * "X Inc., located at / with offices at <address>"; "X GmbH, <street>, <postcode> <town>"
 * (SCC annex, imprint). Only next to the vendor's name (or the data importer's block).
 */
const address: Rule = (content, ss, ctx) => {
  const out: Found[] = [];
  const alt = ctx.legalNames?.length ? vendorAlt({ vendorNames: ctx.legalNames }) : vendorAlt(ctx);
  if (alt) out.push(...contactBlock(content, alt));
  for (const r of entityRows(content)) if (r.address) out.push({ value: r.address, start: r.start, end: r.end, strength: 0.9 });
  const noticeTo = new RegExp(String.raw`(?:\bto:?\s+|:\s+)(?:${vendorAlt({ vendorNames: [...(ctx.legalNames ?? []), ...ctx.vendorNames] })}),\s+(?=\d)`, 'i');
  ss.forEach((s, i) => {
    const t = clean(s.text);
    let m = /^Address:\s*(.{10,300})$/.exec(t);
    if (m) {
      const near = priorText(ss, i, 4);
      let rest = m[1]!.replace(/\s*<\/?br\/?>\s*$/i, '').trim();
      const co = companyAt(rest);
      const ours = /importer/i.test(near) || (alt && new RegExp(`(?:${alt})`, 'i').test(`${near} ${co ?? ''}`)) || false;
      if (!ours || /exporter/i.test(ss[i - 1]?.text ?? '')) return;
      if (co) rest = rest.slice(rest.indexOf(co) + co.length).replace(/^[\s,]+/, '');
      // Outside the data importer's block, only a postal address (street number, postcode).
      if (/importer/i.test(near) ? /\d/.test(rest) : addressAt(rest) !== null) out.push(found(s, rest.replace(/\s*<\/?br\/?>\s*$/i, '').trim(), 0.9));
      return;
    }
    m = /^Contact details:\s*(.{10,300})$/i.exec(t);
    if (m && /importer/i.test(priorText(ss, i, 3)) && !/exporter/i.test(ss[i - 1]?.text ?? '')) {
      const a = addressAt(m[1]!.replace(/^(?:[^\s,]+@[^\s,]+|https?:\/\/\S+)\s*,\s*/g, ''));
      if (a) out.push(found(s, a, 0.85));
      return;
    }
    if (!alt) return;
    // A notice or contact address after the provider's short name: "by post to: Pydantic, 1207 Delaware Ave #1225 Wilmington, DE 19806".
    m = noticeTo.exec(t);
    if (m && /\b(notices?|post|mail|courier|delivery|contact|inquiries|address)\b/i.test(t.slice(0, m.index))) {
      const a = addressAt(t.slice(m.index + m[0].length));
      if (a) out.push(found(s, a, 0.8));
      return;
    }
    m = new RegExp(
      String.raw`(?:${alt})[^.;]{0,80}?\b(?:located at|with (?:its |their )?(?:principal |registered )?(?:offices?|place of business|address) (?:at|in)|having (?:its |their )?(?:registered )?(?:office|seat|address) at|whose (?:registered )?(?:office|address) is(?: at)?|registered (?:office|address)(?: is)?(?: at)?)\s+`,
      'i',
    ).exec(t);
    if (m) {
      const a = addressAt(t.slice(m.index + m[0].length));
      if (a) out.push(found(s, a, 0.85));
      return;
    }
    m = new RegExp(String.raw`(?:^|:\s*|\bby\s+|^and\s+)(${COMPANY}),\s+`).exec(t);
    if (m && new RegExp(`^(?:${alt})`, 'i').test(m[1]!)) {
      const a = addressAt(t.slice(m.index + m[0].length));
      if (a && /^[^,]*\d/.test(a)) out.push(found(s, a, 0.8));
    }
  });
  return out;
};

const vendorMention = (text: string, ctx: ExtractContext) =>
  new RegExp(
    `\\b(?:${ctx.vendorNames.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}|we|the processor|the data importer|the contractor)\\b[^.]{0,60}\\bprocess`,
    'i',
  ).test(text);

/** The subject of a sentence describing the vendor's service: the vendor, "we", or "The <vendor> Software/Platform/Service". */
const serviceSubject = (t: string, ctx: ExtractContext) => {
  const alt = vendorAlt(ctx);
  const names = alt ? `${alt}|` : '';
  return new RegExp(
    String.raw`^(?:the\s+)?(?:(?:${names}we|our company|the company|the data importer)(?:['’]s?)?(?:\s+(?:software|platform|services?|cloud|solution|product))?|the\s+(?:platform|service|services|software|solution))\b`,
    'i',
  ).test(t);
};
const SERVICE_NOUN = /\b(platform|service|services|software|solution|system|tool|application|product)\b/i;

/**
 * What the vendor's service is: "X is a ... provider/producer of ...", "X provides / operates
 * / offers / has developed a ... platform", "The X Software is a hosted ... service", the
 * definition of the services ("“X Services” means X's proprietary ... platform for ..."),
 * and the SCC "Activities relevant ..." line naming the vendor.
 */
const description: Rule = (_c, ss, ctx) => {
  const out: Found[] = [];
  const alt = vendorAlt(ctx);
  // The vendor's own service ("Services", "Secoda Services"), not another company's ("Mendix Platform").
  const ownLabel = (label: string) => {
    const rest = label
      .replace(/\b(the|services?|platform|software|solutions?|subscription|cloud|hosted|online|applications?|products?|offerings?)\b/gi, '')
      .trim();
    return !rest || (!!alt && new RegExp(`^(?:${alt})$`, 'i').test(rest));
  };
  for (const s of ss) {
    const t = clean(s.text).replace(/^Activities relevant to the data transferred under these Clauses:\s*/i, '');
    if (t.length < 30 || t.length > 600) continue;
    if (/^(?:Data importer:\s*)?The data importer is\s+[^.]{2,60}?,\s+an?\s+[^.]{0,100}\b(provider|producer|developer|vendor|supplier)\s+of\b/i.test(t)) {
      out.push(found(s, t.replace(/^Data importer:\s*/i, ''), 0.75));
      continue;
    }
    const def = /^[“"]([^”"]{2,40})[”"]\s+(?:means|shall mean|refers to)\s+(.{20,})$/.exec(t);
    if (
      def &&
      /\b(services?|platform|software|solution|subscription service)$/i.test(def[1]!) &&
      !/\b(third[- ]party|non-|customer|your)\b/i.test(def[1]!) &&
      ownLabel(def[1]!)
    ) {
      const body = def[2]!;
      if (
        SERVICE_NOUN.test(body) &&
        /\b(proprietary|hosted|cloud|online|web-based|software-as-a-service|as a service|platform|saas)\b/i.test(body) &&
        !/\b(excludes?|does not include)\b/i.test(body.slice(0, 40))
      )
        out.push(found(s, t, 0.7));
      continue;
    }
    // "These Terms govern the licensing, use and delivery of software products and services provided by X AB".
    if (
      alt &&
      /^(?:these|this)\b[^.]{0,60}\bgovern(s)?\b/i.test(t) &&
      new RegExp(String.raw`\b(?:provided|offered|operated|supplied|made available)\s+by\s+(?:${alt})`, 'i').test(t) &&
      SERVICE_NOUN.test(t)
    ) {
      out.push(found(s, t, 0.6));
      continue;
    }
    // "The subject of the Agreement is the supply of the “X Cloud” software provided as SaaS", "Welcome to X, an application monitoring service operated by X Inc.".
    if (
      /^the subject(?:[- ]matter)? of (?:the|this) (?:agreement|contract)\b[^.]{0,20}\b(?:is|are|shall be)\b/i.test(t) &&
      SERVICE_NOUN.test(t) &&
      /\b(supply|provision|use|access|licen[cs]|subscription|saas|software)\b/i.test(t)
    ) {
      out.push(found(s, t, 0.7));
      continue;
    }
    if (alt && new RegExp(String.raw`^Welcome to (?:${alt})\s*,\s+an?\s+[^.]{3,120}?\b(platform|service|software|solution|tool|application)\b`, 'i').test(t)) {
      out.push(found(s, t, 0.75));
      continue;
    }
    if (!serviceSubject(t, ctx) && !vendorSubject(t, ctx)) continue;
    // The vendor's programme, policy or team ("Simptel’s information security program is based on …") is not its service.
    if (
      alt &&
      new RegExp(String.raw`^(?:the\s+)?(?:${alt})['’]s?\s+(?!(?:software|platform|services?|cloud|solutions?|products?|applications?)\b)`, 'i').test(t)
    )
      continue;
    if (/\bis an?\b[^.]{0,120}\b(provider|producer|platform|developer|vendor|supplier)\s+of\b/i.test(t)) out.push(found(s, t, 0.8));
    else if (
      /^.{0,80}?\b(is|provides|operates|offers|has developed|develops|represents|delivers|is a company (?:created|formed|founded) to provide|(?<=\bwe\s+)(?:provide|operate|offer|develop|deliver))\s+(?!to\b)(an?|the|its|our)?\s*[^.]{0,160}?\b(platform|service|software|solution|system|tool|application|hosting)\b/i.test(
        t,
      ) &&
      !/\b(may|might|reserves?|shall not|will not|is not|does not|liable|responsible|warrant|discretion)/i.test(t.slice(0, 120))
    )
      out.push(found(s, t, 0.7));
  }
  return out;
};

/** EBA service types named by keywords, only in a sentence describing the vendor's own service. */
const SERVICE_KEYWORDS: [keyof typeof ICT_SERVICE_TYPES, RegExp][] = [
  ['S19', /\b(software[- ]as[- ]a[- ]service|SaaS)\b/i],
  ['S18', /\b(platform[- ]as[- ]a[- ]service|PaaS)\b/i],
  ['S17', /\b(infrastructure[- ]as[- ]a[- ]service|IaaS)\b/i],
  ['S10', /\btelecom(munications)? carrier\b/i],
  ['S06', /\bdata analy(sis|tics) services?\b/i],
];
const ictServiceType: Rule = (content, ss, ctx) => {
  const out: Found[] = [];
  for (const f of description(content, ss, ctx, '')) {
    const t = clean(content.slice(f.start, f.end));
    for (const [code, re] of SERVICE_KEYWORDS) if (re.test(t)) out.push({ ...f, value: code, strength: 0.8 });
  }
  for (const s of ss) {
    const t = clean(s.text);
    // "X provides X Software as a service", "provided to You on X's proprietary software as a service basis".
    if (!serviceSubject(t, ctx) || !/\b(provides?|provided|operates|offers|basis|delivers)\b/i.test(t)) continue;
    if (/\b(is an?|provides|operates|offers|has developed)\b/i.test(t) && description(content, [s], ctx, '').length) continue;
    for (const [code, re] of SERVICE_KEYWORDS) if (re.test(t) && !/\bthird[- ]party\b/i.test(t)) out.push(found(s, code, 0.75));
  }
  return out;
};

/** "This Agreement starts on <date>", "commences on <date>", "Effective Date: <date>" (not a version date); a start on an event is open. */
const startDate: Rule = (_c, ss) => {
  const out: Found[] = [];
  for (const s of ss) {
    const t = clean(s.text);
    if (/\b(version|last (updated|modified|revised)|updated)\b/i.test(t)) continue;
    if (/\b(agreement|contract|term)\b[^.]{0,40}\b(starts|commences|begins|is effective|shall commence)\s+(on|as of)\b/i.test(t)) {
      const d = dates(t)[0];
      if (d) {
        out.push(found(s, d.date, 0.85));
        continue;
      }
    }
    // The start is an event: the Effective Date defined by an order form, sign-up, first use or acceptance.
    if (
      (/[“"]?Effective Date[”"]?\s+(means|shall mean|is)\b/i.test(t) ||
        /\b(agreement|terms|contract)\b[^.]{0,60}\b(begins?|commences?|starts?|takes? effect|(is|are) (concluded|formed|entered into)|becomes? (effective|binding)|enters? into force|(is|are) binding)\b/i.test(
          t,
        )) &&
      /\b(order form|(your |the )?orders?\b|first (access|use|uses|accesses)|accept|agree(s|d)? to|sign(s|ed)? up|registration|register|opening of an account|use of the|execut(es|ed|ion)|purchase|(begins?|starts?) (using|to use)|downloads?|installs?)/i.test(
        t,
      ) &&
      !dates(t).length
    )
      out.push(openFound(s, 'the contract starts on an event (an order form, sign-up, acceptance or first use), not on a date the documents state'));
    else if (/\b(use|using|access)\b[^.]{0,60}\bas (your )?acceptance of (the|these) (terms|agreement)\b/i.test(t))
      out.push(openFound(s, 'the terms apply from first use; the documents state no start date'));
  }
  return out;
};

/** "continue in effect until terminated" → indefinite (null); "expires on <date>" → that date; a term set elsewhere is open. */
const endDate: Rule = (_c, ss) => {
  const out: Found[] = [];
  for (const s of ss) {
    const t = clean(s.text);
    if (!/\b(agreements?|contracts?|term|terms)\b/i.test(t)) continue;
    if (
      /\b(continues?|remains?|will continue|shall continue|runs?)\s+(in (full )?(force|effect)\s+)?((until|unless)\s+(it is\s+)?(otherwise\s+)?(terminated|cancell?ed)\b|until\s+(either|each|one|both|you|we|the parties)\b[^.]{0,30}\bterminates?\b(?!\s+(on|upon|at)\b))|\b(concluded|entered into) for an indefinite (term|period)\b|\bindefinite (term|period|time|duration)\b|\bno fixed (term|end)\b|\b(remain|continue)s?\s+in\s+(full\s+)?(force|effect)\s+(while|for as long as|as long as)\s+you\s+(use|access)\b/i.test(
        t,
      )
    ) {
      out.push(found(s, null, 0.85));
      continue;
    }
    if (/\b(expires|shall expire|will expire|ends|terminates automatically)\s+on\b/i.test(t)) {
      const d = dates(t)[0];
      if (d) {
        out.push(found(s, d.date, 0.85));
        continue;
      }
    }
    if (/\b(for (so|as) long as|while)\b[^.]{0,60}\b(active|order form|subscription|account)\b/i.test(t) && /\b(remain|continue|in effect|in force)/i.test(t))
      out.push(openFound(s, 'the contract runs as long as a subscription, account or order form is active; no end date is stated'));
    else if (
      /\b(?:(?:initial|subscription|service|contract|agreement)(?:\s+service)?\s+term|for the term|subscription period)\b[^.]{0,40}\b(specified|set out|stated|identified|defined|set forth)\s+in\s+(the|your|an?|each)\s+(applicable\s+)?(order form|order|agreement|subscription)/i.test(
        t,
      )
    )
      out.push(openFound(s, 'the term is set in an order form or separate agreement the documents do not include; no end date'));
    else if (/\bmonth[- ]to[- ]month\b/i.test(t)) out.push(openFound(s, 'the subscription runs month to month until cancelled; no end date'));
  }
  return out;
};

/** A sentence about renewing the contract or subscription for another term. */
const renewal: Rule = (_c, ss) => {
  const out: Found[] = [];
  for (const s of ss) {
    const t = clean(s.text);
    if (/\b(automatically renew|auto-renew(?:al|s|ed)?|renews? automatically|automatically (be )?(renewed|extended))\b/i.test(t)) out.push(found(s, t, 0.9));
    else if (/\brenew(al|s|ed)?\b[^.]{0,80}\b(for (another|a further|an additional|successive)|subscription term|renewal term)\b/i.test(t))
      out.push(found(s, t, 0.75));
    else if (/\bsuccessive\b[^.]{0,40}\b(terms?|periods?)\b/i.test(t) && /\brenew|extend/i.test(t)) out.push(found(s, t, 0.75));
    else if (/\b(charged?|bill(ed)?|payment)\b[^.]{0,80}\bon a recurring basis\b|\bmonth[- ]to[- ]month\b/i.test(t)) out.push(found(s, t, 0.6));
  }
  return out;
};

const ENTITY = 'you|customer|client|licensee|subscriber|the financial entity|user';
/**
 * Termination notice periods: a sentence about terminating the agreement (or giving notice
 * of non-renewal) with a notice period in words or digits; its subject tells whose period it
 * is ("Either Party", "The Parties" → both). A party that may terminate "at any time",
 * "immediately" or "without notice" has no period: that is said as the reason of a not found.
 */
function noticeRule(party: 'entity' | 'provider'): Rule {
  return (_c, ss, ctx) => {
    const out: Found[] = [];
    const alt = vendorAlt(ctx);
    const vendor = `we|${alt ? `${alt}|` : ''}provider|supplier|vendor|licensor|the company|company`;
    for (const s of ss) {
      const t = clean(s.text);
      const nonRenewal = /\bnon-?renewal\b|\bnot to renew\b|\bintention not to renew\b/i.test(t);
      if (!/\bterminat|\bcancel|\bstop using|\bclose (your|its) account|\bdiscontinue|\bcease/i.test(t) && !nonRenewal) continue;
      if (/\b(breach|cure|insolven|bankrupt|for cause)\b/i.test(t) && !/\bwithout cause\b/i.test(t)) continue;
      const both = /\b(either party|each party|both parties|either of the parties|the parties|either of us|each of us)\b/i;
      const entityRe = new RegExp(
        String.raw`\b(?:${ENTITY})(?:['’]re)?\b[^.]{0,40}?\b(may|can|free to|are free to|is free to|shall have the right to|has the right to|have the right to)\s+(terminate|cancel|stop using|close)`,
        'i',
      );
      const providerRe = new RegExp(
        String.raw`\b(?:${vendor})\b[^.]{0,50}?\b(may|can|is (also )?free to|are (also )?free to|reserves? the right to|shall have the right to|has the right to|shall observe)\s+(?:[a-z]+,?\s+(?:or\s+)?){0,4}?(terminate|cancel|discontinue|cease|a notice period)`,
        'i',
      );
      // The period next to the word notice: "N days' (prior) (written) notice", "notice of (at least) N days", "at least N days prior to".
      const near = durations(t).filter((d) => {
        const after = t.slice(d.index + d.length, d.index + d.length + 40);
        const before = t.slice(Math.max(0, d.index - 40), d.index);
        return (
          /^[’']?s?[’']?\s*(prior\s+|advance\s+|written\s+|prior written\s+)*notice\b/i.test(after) ||
          /\bnotice\s+(period\s+)?of\s+(at least\s+|not less than\s+)?$/i.test(before) ||
          (/^\s*(in advance|prior|before)\b/i.test(after) && /\bnotice\b/i.test(t))
        );
      });
      // A period that applies only upon a change of the terms ("may terminate with thirty (30) days written notice upon a
      // Material Change") is a right the change triggers, not the ordinary notice period.
      const triggered =
        near.length === 1 &&
        /^[^.;]{0,40}?\b(upon|following|after|in (the )?event of|in case of)\b[^.;]{0,30}\b(material )?(change|amendment|modification|price increase)/i.test(
          t.slice(near[0]!.index + near[0]!.length),
        );
      if (triggered) continue;
      if (near.length === 1) {
        // The subject is that of the period's own clause where that clause names a party: "(i) either party may … ; and
        // (ii) the Client may … thirty (30) days" (not "Either party may terminate (a) for convenience on thirty days' notice").
        const before = t.slice(0, near[0]!.index);
        const clause = before.slice(Math.max(0, ...[...before.matchAll(/;|\(\s*(?:[ivx]{1,4}|[a-h])\s*\)/gi)].map((m) => m.index!)));
        const subject = both.test(clause) || entityRe.test(clause) || providerRe.test(clause) ? clause : before;
        const isBoth = both.test(subject);
        const entity =
          entityRe.test(subject) ||
          (nonRenewal && new RegExp(String.raw`\b(?:${ENTITY})\b[^.]{0,40}\b(provides?|gives?)\b[^.]{0,20}\bnotice`, 'i').test(subject));
        const provider = providerRe.test(subject);
        if (isBoth || (party === 'entity' ? entity && !provider : provider && !entity)) {
          out.push({ ...found(s, near[0]!.days, isBoth ? 0.9 : 0.8), ...(nonRenewal && !/\bterminat/i.test(subject) ? { weak: true } : {}) });
          continue;
        }
      }
      if (near.length) continue;
      // No period: "may terminate at any time", "immediately", "without (prior) notice".
      const noPeriod =
        /\bat any time\b|\bimmediately\b|\bwithout (any )?(prior |advance )?notice\b|\bwith or without (prior )?notice\b|\bwithout observing a notice period\b/i.exec(
          t,
        ) ??
        (party === 'provider' && /\bterminat/i.test(t) && !/counter-notice|infring/i.test(t)
          ? /\bfor any (or no )?reason\b|\bin (its|our) (sole )?discretion\b/i.exec(t)
          : null);
      if (!noPeriod) continue;
      if (/\b(suspend|suspension)\b/i.test(t) && !/\bterminat|\bdiscontinue|\bcease/i.test(t)) continue;
      const who = party === 'entity' ? entityRe : providerRe;
      const whoAt = who.exec(t);
      const other = (party === 'entity' ? providerRe : entityRe).exec(t);
      const passive = party === 'provider' && /\btermination of (your )?(access|account|use)\b[^.]{0,80}\bwithout (prior )?notice\b/i.test(t);
      if ((whoAt && (!other || whoAt.index < other.index)) || both.test(t.slice(0, noPeriod.index)) || passive) {
        const by = party === 'entity' ? 'the customer' : 'the provider';
        const how = /at any time/i.test(noPeriod[0])
          ? 'at any time'
          : /immediately/i.test(noPeriod[0])
            ? 'immediately'
            : /notice/i.test(noPeriod[0])
              ? 'without notice'
              : 'for any reason at its discretion';
        out.push(openFound(s, `${by} may terminate ${how}; the documents state no notice period`));
      }
    }
    return out;
  };
}

/**
 * The law a contract is governed by: "governed by (and construed in accordance with) the
 * laws of X" and its usual forms (a US state, a Canadian province or Australian state →
 * that country; "England and Wales" → GB; "the Federal Republic of Germany" → DE), never the
 * courts, venue or jurisdiction. A clause that chooses the law by where the customer is, or
 * by the service instance, takes the branch for customers outside the Americas (the
 * register is kept by EU financial entities). Clauses about the SCCs are left out.
 */
const LAW_OF =
  /\blaws?\s+of\s+(?:the\s+)?((?:(?:State|Commonwealth|Province|Republic|Federal Republic|Kingdom|Grand Duchy)\s+of\s+)?[A-Z][\w.'’-]*(?:\s+(?:and\s+)?[A-Z][\w.'’-]*){0,4})/g;
const lawCountry = (text: string) => {
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
const governingLaw: Rule = (content, ss) => {
  const out: Found[] = [];
  for (const r of entityRows(content)) if (r.law) out.push({ value: r.law, start: r.start, end: r.end, strength: 0.85 });
  ss.forEach((s, i) => {
    const t = clean(s.text);
    const listItem =
      /^[^:]{1,120}:\s*(the\s+)?laws?\s+of\b/i.test(t) &&
      ss.slice(Math.max(0, i - 4), i).some((x) => /\b(governed by|governing law)\b[^.]*:\s*$/i.test(clean(x.text)));
    const cue = /\bgoverned (exclusively |solely )?by\b|\bgoverning law\b|\bconstrued (in accordance with|under)\b|\bapplicable law\b/i.test(t);
    // "This Agreement is subject to Dutch law", "German law applies": the contract's own law, not a data-protection law.
    const applies =
      /\b(agreement|terms|contract)\b[^.;]{0,60}\bsubject to\b[^.;]{0,40}\blaws?\b|\blaws?\b[^.;]{0,60}\b(shall|will)?\s*(exclusively\s+)?appl(y|ies)\b/i.test(
        t,
      ) && !/\b(data protection|GDPR|privacy|personal data|consumer)\b/i.test(t);
    if (!cue && !applies && !listItem) return;
    if (
      /\b(these clauses|clauses? \d+|standard contractual|SCCs?|third[- ]party beneficiary|open[- ]source|export|sanction|embargo|(data|personal data|restricted|swiss|uk)[- ](subject )?transfers?)\b/i.test(
        t,
      )
    )
      return;
    if (listItem) {
      // A list of laws per service instance or region: the one for the Americas is not the EU entity's.
      const label = t.slice(0, t.indexOf(':'));
      if (/\b(us|usa|u\.s\.|united states|americas|hipaa|north america|canada)\b/i.test(label)) return;
      const c = lawCountry(t);
      if (c) out.push(found(s, c, 0.75));
      return;
    }
    // A branch for customers in the Americas (or the US) is not the law of an EU entity's contract.
    if (/^If\b[^,]{0,80}\b(is|are) in the (Americas|United States)\b/i.test(t)) return;
    const branches = t.split(/(?=\bIf\b)/);
    const laws = branches.map((b) => ({ branch: b, country: lawCountry(b) })).filter((x): x is { branch: string; country: string } => !!x.country);
    if (!laws.length) return;
    if (laws.length === 1) {
      out.push(found(s, laws[0]!.country, /^If\b/.test(t) ? 0.75 : 0.9));
      return;
    }
    const eu0 = /^If\b[^,]{0,80}\boutside (of )?the (Americas|United States)\b/i.test(t);
    if (eu0) {
      out.push(found(s, laws[0]!.country, 0.75));
      return;
    }
    const eu = laws.find((l) => /\b(outside (of )?the Americas|in (the )?(EU|EEA|Europe|European Union))\b/i.test(l.branch));
    if (eu) out.push(found(s, eu.country, 0.75));
  });
  return out;
};

const VAGUE =
  /\b(privacy framework|department of commerce|certified|adequacy|variety of|other countries|any country|around the world|worldwide|globally|such as|for example|may (be )?(transfer|store|process)|primarily|mainly|generally|typically|by default|from time to time)/i;
const NEGATED = /\b(outside (of )?|not (be )?(stored|located|processed|transferred) (in|to)|except)\s*(the\s+)?$/i;
/** Someone else's data or place: a website's cookies and analytics, a third party's office. */
const NOT_SERVICE_DATA =
  /\b(cookies?|analytics|tracking|advertis|website|web site|log files?|operated by|headquartered|offices? (is|are) located|registered office|HIPAA|PHI)\b/i;
/** Only a region is named ("within the European Union", "in the EEA"): no country. */
const REGION_ONLY = /\b(in|within)\s+(the\s+)?(European Union|EU|EEA|European Economic Area|Europe)\b/;

/**
 * Countries named right after the field's cue ("stored in the United States", "data centers
 * in Germany and Ireland"), leaving out negated mentions ("outside of the US"), hedged or
 * open-ended ones ("primarily", "and other countries"), and sentences about someone else's
 * data (a website's cookies, a third party's office). A cue followed only by a region
 * ("stored on servers within the European Union") is open: no country is named.
 */
/** "in (the) X", "within X", "from X": X a name (capitalised) or a cloud region's code ("in the europe-west1 region"). */
const PLACE_PHRASE = new RegExp(String.raw`^[^.;]{0,80}?\b(?:in|within|from)\s+((?:the\s+)?(?:[A-Z]|(?:${CLOUD_REGION_CODES})(?![\w-]))[^.;()]{1,120})`);

function locationRule(cue: RegExp, what: string): Rule {
  return (_c, ss, ctx) => {
    const out: Found[] = [];
    // A table row as the ingestion writes it ("Sub-processor: X; Service: we only host in Dublin, Ireland"): each cell is read on its own.
    const cells = (s: Sentence) => keyValues(clean(s.text))?.map(([, v]) => v) ?? [clean(s.text)];
    for (const s of ss) {
      if (s.text.trim().startsWith('|')) continue; // tables are the subcontractors' locations
      for (const t of cells(s)) {
        const cueAt = cue.exec(t);
        if (!cueAt || NOT_SERVICE_DATA.test(t) || /^Data processed in (the )?[A-Z][\w-]* Cloud\b/.test(t)) continue;
        if (
          !/\b(we|our|all|customer data|personal data|data|information|infrastructure|products|services?|data centers?|servers?|code)\b/i.test(t) &&
          !vendorSubject(t, ctx)
        )
          continue;
        const after = t.slice(cueAt.index);
        const vague = VAGUE.test(t) || /\band (other|various|additional)\b[^.]{0,20}\b(countries|locations|jurisdictions)\b/i.test(t);
        // Countries named within the cue's phrase: "in (the) X", "in X and Y".
        const phrase = PLACE_PHRASE.exec(after);
        const codes = phrase
          ? countriesIn(phrase[1]!)
              .filter((c) => !NEGATED.test(phrase[1]!.slice(Math.max(0, c.index - 40), c.index)))
              .map((c) => c.code)
          : [];
        if (!codes.length) {
          if (REGION_ONLY.test(after) && !vague && /\b(we|our|data|servers?|infrastructure)\b/i.test(t))
            out.push(openFound(s, `only a region is named (${REGION_ONLY.exec(after)![3]}), not the countries where ${what}`));
          continue;
        }
        if (vague) {
          out.push(
            openFound(s, `the documents name ${codes.join(', ')} only as a possible or partial location; the set of countries where ${what} is not fixed`),
          );
          continue;
        }
        if (
          !vendorSubject(t, ctx) &&
          !/\b(our|all data|data infrastructure|stored in|stored on|hosted in|(we|only) host (in|within)|processed (entirely )?(in|within)|operated in|located in|running in|run on)\b/i.test(
            t,
          )
        )
          continue;
        out.push(found(s, [...new Set(codes)].sort(), 0.8));
      }
    }
    return out;
  };
}

/**
 * Subprocessor tables (a `Name` column, a location column) and lists ("* [Name](url).
 * Role.") below a sentence that says where they are located. Each item keeps its own row
 * as quote; the field's quote is the first one.
 */
function keyValues(line: string): [string, string][] | null {
  // A cell's value may hold its own semicolons ("(Clause 6.8); SCCs …"): a pair starts only at "; Key: ".
  if (!/^[A-Z][^:;]{1,60}: /.test(line)) return null;
  const parts = line.split(/; (?=[A-Z][^:;]{1,60}: )/);
  if (parts.length < 2) return null;
  return parts.map((p) => {
    const i = p.indexOf(': ');
    return [p.slice(0, i).trim(), p.slice(i + 2).trim()] as [string, string];
  });
}

const SUBPROCESSOR = /\bsub-?processors?\b|\bsub-?contractors?\b|\bsub-?processing\b/i;
const NAME_KEY =
  /^(?:name|entity|company|vendor|provider|supplier|sub-?processor|subcontractor|third[- ]party|service provider|organi[sz]ation|legal entity|partner)\b|\b(?:name|entity)\b/i;
const ROLE_KEY = /description|purpose|service|role|function|activit|nature|department|usage|category of service|type of service/i;
const LOCATION_KEY = /location|country|countries|region|headquarter|jurisdiction|where/i;
/** A location column that says where the processing takes place (not where the company is registered). */
const WHERE_KEY = /process|hosting|hosted|stored|storage|region|sub-processing|location of (data|processing)|data location/i;

interface SubRow {
  name: string;
  role?: string;
  country?: string;
  /** Countries of a column that says where the processing takes place. */
  where: string[];
  /** The text of that column ("EU scale unit: European Union · US scale unit: United States"). */
  whereText?: string;
  start: number;
  end: number;
  strength: number;
}

/** A name as a table cell gives it, without an address after it ("X Inc., 156, 2nd Street, ..."). */
function cellName(cell: string): string {
  const n = cell.replace(/\s+/g, ' ').trim();
  const co = companyAt(n);
  // "X GmbH, Street 8, 10119 Berlin", "X SARL – AWS, 38 Avenue ...": the company, not its address or brand.
  if (co && /^(,?\s*\d|,\s*[^;()]{1,80}?\d|\s*[–—-]\s+[^,]{1,40},\s*[^,]{0,40}\d)/.test(n.slice(co.length))) return co;
  return n;
}

/** A list item that is a name (and maybe a role): "Amazon Web Services, Inc. for cloud infrastructure.", "Name. Role.", "Name – role". */
function listItem(text: string): { name: string; role?: string } | null {
  const t = text.replace(/\s+/g, ' ').trim();
  const m =
    /^\[?(.{2,80}?)\]?(?:\([^)]*\))?(?:\s+(?:for|to provide|provides?)\s+(.{3,200}?)|\.\s+([A-Z].{2,200}?)|\s+[–—-]\s+(.{3,200}?)|:\s+(.{3,200}?))?\.?$/.exec(
      t,
    );
  if (!m) return null;
  const name = m[1]!.trim();
  if (!/^[A-Z0-9]|^[a-z]+[A-Z]/.test(name) || name.split(/\s+/).length > 8) return null;
  // A name, not a sentence: its lower-case words are few and not verbs.
  const lower = name.split(/\s+/).filter((w) => /^[a-z]/.test(w) && !/^(of|and|d\/b\/a|dba|de|the|und|et|a\/s|for)$/.test(w));
  if (lower.length > 1 || /\b(we|our|is|are|will|may|shall|you|your)\b/.test(name)) return null;
  const role = (m[2] ?? m[3] ?? m[4] ?? m[5])?.replace(/\.$/, '').trim();
  return { name, ...(role ? { role } : {}) };
}

/**
 * The rows of subprocessor tables and lists in a passage. A table (a row reads `Header:
 * value; ...` once ingested, or `| a | b |` in raw Markdown) counts when its columns or its
 * heading or the text above it speak of subprocessors, never of cookies; its columns are
 * read by what they mean (name / entity / company, purpose / description / service,
 * location / country / region). A list counts under a lead-in or heading about
 * subprocessors: items that are names, with a role after "for", a full stop or a dash.
 */
function subprocessorRows(content: string, section: string): SubRow[] {
  const out: SubRow[] = [];
  const lines = content.split('\n');
  let offset = 0;
  let header: string[] | null = null;
  let listCountry: string | undefined;
  let inList = SUBPROCESSOR.test(section) && /:\s*$/.test(section.split(' > ').pop() ?? '');
  const about = (before: string) => (SUBPROCESSOR.test(section) || SUBPROCESSOR.test(before)) && !/\bcookie/i.test(section);
  let last: SubRow | null = null;
  for (let li = 0; li < lines.length; li++) {
    const line = lines[li]!;
    const start = offset;
    offset += line.length + 1;
    const tr = line.trim();
    const at = start + line.indexOf(tr);
    const row = (
      name: string,
      role: string | undefined,
      locCell: string | undefined,
      whereCell: string | undefined,
      strength: number,
      end = at + tr.length,
    ) => {
      const country = locCell ? countriesIn(locCell)[0]?.code : undefined;
      const r: SubRow = {
        name,
        ...(role ? { role } : {}),
        ...(country ? { country } : {}),
        where: whereCell ? countriesIn(whereCell).map((c) => c.code) : [],
        ...(whereCell ? { whereText: whereCell } : {}),
        start: at,
        end,
        strength,
      };
      out.push(r);
      return r;
    };
    if (tr.startsWith('|')) {
      const cells = tableCells(tr);
      if (!cells) continue;
      const next = lines[li + 1]?.trim() ?? '';
      if (/^\|?\s*:?-{3,}/.test(next) || cells.some((c) => /^name\b/i.test(c))) {
        header = cells.map((c) => c.toLowerCase());
        if (header.some((h) => /cookie/.test(h))) header = null;
        continue;
      }
      if (!header || !(header.some((h) => SUBPROCESSOR.test(h)) || about(content.slice(0, start)))) continue;
      const col = (re: RegExp, not?: number) => header!.findIndex((h, i) => i !== not && re.test(h));
      const ni = Math.max(0, col(NAME_KEY));
      const name = cells[ni] ? cellName(cells[ni]!) : '';
      if (!name) continue;
      const li2 = col(LOCATION_KEY, ni);
      const wi = header.findIndex((h, i) => i !== ni && LOCATION_KEY.test(h) && WHERE_KEY.test(h) && !/entity|corporate|headquarter|registered/.test(h));
      last = row(name, cells[col(ROLE_KEY, ni)], cells[col(/corporate location|headquarter/, ni)] ?? cells[li2], wi >= 0 ? cells[wi] : undefined, 0.9);
      continue;
    }
    header = null;
    // A table row as the ingestion writes it: "Name of Subprocessor: X; Description of Processing: Y; ...".
    const pairs = keyValues(tr);
    if (pairs && !pairs.some(([k]) => /cookie/i.test(k)) && (pairs.some(([k]) => SUBPROCESSOR.test(k)) || about(content.slice(0, start)))) {
      const nameAt = pairs.findIndex(([k]) => NAME_KEY.test(k));
      if (nameAt >= 0 && pairs[nameAt]![1]) {
        const others = pairs.filter((_, i) => i !== nameAt);
        const get = (re: RegExp) => others.find(([k]) => re.test(k))?.[1];
        const where = others.find(([k]) => LOCATION_KEY.test(k) && WHERE_KEY.test(k) && !/entity|corporate|headquarter|registered/i.test(k))?.[1];
        last = row(cellName(pairs[nameAt]![1]), get(ROLE_KEY), get(/corporate location|headquarter/i) ?? get(LOCATION_KEY), where, 0.9);
        continue;
      }
    }
    // A card per subprocessor under a subprocessors heading: its name, its role, its address, its web site, one per line.
    if (tr && !lines[li - 1]?.trim() && SUBPROCESSOR.test(section) && !/\bcookie/i.test(section)) {
      const card: string[] = [];
      for (let k = li; k < lines.length && lines[k]!.trim(); k++) card.push(lines[k]!.trim());
      const url = (l: string) => /^(https?:\/\/|www\.)\S+$/i.test(l);
      const postal = (l: string) => /\d/.test(l) && /,/.test(l) && !url(l);
      if (card.length >= 3 && card.length <= 5 && tr.length <= 60 && !/[.:;]$/.test(tr) && card.slice(1).some((l) => url(l) || postal(l))) {
        const role = card[1] && !url(card[1]) && !postal(card[1]) && card[1].length <= 80 ? card[1] : undefined;
        const addr = card.find((l, i) => i > 0 && postal(l));
        const lastLine = card.at(-1)!;
        last = row(cellName(tr), role, addr, undefined, 0.85, content.indexOf(lastLine, at) + lastLine.length);
        for (let k = 1; k < card.length; k++) offset += lines[li + k]!.length + 1;
        li += card.length - 1;
        continue;
      }
    }
    if (/\bsub-?processors?\b[^.:]{0,80}\blocated in\b/i.test(tr) && tr.endsWith(':')) {
      listCountry = countriesIn(tr)[0]?.code;
      inList = true;
      continue;
    }
    // The lead-in may be wrapped over several lines: the paragraph up to this line.
    let p0 = li;
    while (p0 > 0 && lines[p0 - 1]!.trim() && !/^([*•-]\s|\|)/.test(lines[p0 - 1]!.trim())) p0--;
    const para = lines
      .slice(p0, li + 1)
      .map((l) => l.trim())
      .join(' ');
    if ((tr.endsWith(':') && SUBPROCESSOR.test(para) && !/\bcookie/i.test(para)) || /^sub-?processors?\b[^.:]{0,80}:$/i.test(tr)) {
      inList = true;
      listCountry = countriesIn(tr)[0]?.code;
      continue;
    }
    if (!tr) continue;
    const marker = /^[*•-]\s+(.*)$/.exec(tr);
    if (inList && marker) {
      // The item may go on over the next lines ("- Amazon Web Services, Inc.\nfor cloud infrastructure.").
      let text = marker[1]!;
      let end = at + tr.length;
      let k = li + 1;
      let o = offset;
      while (k < lines.length && lines[k]!.trim() && !/^([*•-]\s|\||#)/.test(lines[k]!.trim()) && /^[a-z(]/.test(lines[k]!.trim())) {
        text += ` ${lines[k]!.trim()}`;
        end = o + lines[k]!.indexOf(lines[k]!.trim()) + lines[k]!.trim().length;
        o += lines[k]!.length + 1;
        k++;
      }
      const item = listItem(text);
      if (item) {
        last = row(item.name, item.role, undefined, undefined, item.role ? 0.85 : 0.8, end);
        if (listCountry && !last.country) last.country = listCountry;
        li = k - 1;
        offset = o;
        continue;
      }
      // An item that is not a name (a sentence) is skipped; the list goes on.
      li = k - 1;
      offset = o;
      continue;
    }
    if (inList && last && /^[a-z(]/.test(tr)) continue;
    inList = false;
  }
  return out;
}

const subcontractors: Rule = (content, _ss, _ctx, section) =>
  subprocessorRows(content, section).map((r) => ({
    value: [{ name: r.name, ...(r.role ? { role: r.role } : {}), ...(r.country ? { country: r.country } : {}) }],
    start: r.start,
    end: r.end,
    strength: r.strength,
  }));

/**
 * Whether the vendor processes personal data for the customer: the vendor (or "we") is the
 * processor ("X is the processor", "Customer is the controller and X the processor",
 * "processed by Vendor as a Processor", "processes personal data on behalf of the
 * customer"), or engages sub-processors / data processors for the customer's data. A
 * negation ("does not process personal data") is false. Personal data processed on the
 * vendor's own behalf (its marketing tools) is open: no processor role is stated.
 */
const personalData: Rule = (_c, ss, ctx) => {
  const out: Found[] = [];
  const alt = vendorAlt(ctx);
  const vendor = `${alt ? `${alt}|` : ''}we|company|vendor|provider|supplier|data importer|service provider|licensor`;
  for (const [i, s] of ss.entries()) {
    const t = clean(s.text);
    // The SCC annex describing the transfer: "Categories of data subjects whose personal data is transferred" and what follows.
    if (/^categories of (data subjects|personal data)\b[^.]{0,60}\btransferred\b/i.test(t)) {
      const next = ss[i + 1] ? clean(ss[i + 1]!.text) : '';
      if (next.length > 3 && !/^(n\/?a|none|not applicable|\[|_)/i.test(next) && !/:\s*$/.test(next)) out.push(found(s, true, 0.7));
      continue;
    }
    // "Personal Data ... is processed by Aptible on behalf of Customer".
    if (
      new RegExp(
        String.raw`\bpersonal data\b[^.]{0,120}\b(?:is|are|will be|shall be)\s+processed by\s+(?:the\s+)?(?:${vendor})\b[^.]{0,40}\bon behalf of\b`,
        'i',
      ).test(t) &&
      !NEGATES.test(t)
    ) {
      out.push(found(s, true, 0.85));
      continue;
    }
    // A DPA's scope: "all processing activities within the meaning of Art. 28(1) GDPR that the processor performs for the controller".
    if (
      /\bprocessing\b[^.]{0,80}\bwithin the meaning of Art(?:icle|\.)?\s*28\b[^.]{0,20}\bGDPR\b/i.test(t) &&
      /\bprocessor\b[^.]{0,40}\b(performs|carries out|conducts)\b[^.]{0,20}\bfor the controller\b/i.test(t) &&
      !NEGATES.test(t)
    ) {
      out.push(found(s, true, 0.8));
      continue;
    }
    if (/\b(does not|do not|will not|never)\s+process\s+(any\s+)?personal data\b/i.test(t) && vendorSubject(t, ctx)) {
      out.push(found(s, false, 0.8));
      continue;
    }
    if (
      /\bprocess(es|ing)?\s+(customer\s+|client\s+)?personal data\b[^.]{0,80}\b(on behalf|on (customer|client)['’]s behalf|instructions?|upon the instruction)/i.test(
        t,
      ) &&
      (vendorMention(t, ctx) || /\bwhich processes personal data\b/i.test(t)) &&
      !/\bon our (own )?behalf\b/i.test(t)
    ) {
      out.push(found(s, true, 0.85));
      continue;
    }
    if (
      new RegExp(
        String.raw`\b(?:${vendor})\b[^.]{0,60}?\b(?:is|acts as|act as|shall act as|will act as|shall be|will be|shall qualify as|qualifies as|is acting as|remains|(?:is and )?(?:shall|will) remain)\s+(?:(?:the|a)\s+)?(?:data\s+)?processor\b`,
        'i',
      ).test(t) ||
      new RegExp(String.raw`\bprocessed by\s+(?:the\s+)?(?:${vendor})\b[^.]{0,20}\bas\s+(?:a|the)\s+processor\b`, 'i').test(t)
    ) {
      if (!NEGATES.test(t)) out.push(found(s, true, 0.85));
      continue;
    }
    // "we will process any information relating to identified or identifiable natural persons in accordance with our Data Processing Addendum".
    if (
      /\bprocess\w*\b[^.]{0,60}\b(personal data|personal information|information relating to (an )?identified or identifiable natural persons?)\b[^.]{0,100}\b(data processing (addendum|agreement)|DPA)\b/i.test(
        t,
      ) &&
      (vendorMention(t, ctx) || /^\W*we\b|\bwe will\b/i.test(t)) &&
      !NEGATES.test(t)
    ) {
      out.push(found(s, true, 0.75));
      continue;
    }
    // A DPA's subject matter: "The processing of personal data includes the data of the users of …".
    if (/^\W*the processing of personal data\b[^.]{0,40}\b(includes?|concerns?|comprises?|covers?)\b/i.test(t) && !NEGATES.test(t)) {
      out.push(found(s, true, 0.7));
      continue;
    }
    if (/\b(sub-?processors?|data processors)\b[^.]{0,80}\b(customer|client) (personal )?data\b/i.test(t)) {
      if (!NEGATES.test(t) && !/\bon our (own )?behalf\b/i.test(t)) out.push(found(s, true, 0.7));
      continue;
    }
    if (/\bsub-?processors\b[^.]{0,60}\bprocess personal data on our (own )?behalf\b/i.test(t))
      out.push(
        openFound(s, "the documents speak of personal data processed on the vendor's own behalf; no processor role for the customer's personal data is stated"),
      );
  }
  return out;
};

/**
 * The customer's right to audit or to receive audit reports: "Customer may audit",
 * "permit the Client to conduct audits and inspections", "allow its procedures to be
 * inspected by Customer", "satisfy Client's audit rights", the SCC's "submit its data
 * processing facilities for an audit", a SOC 2 / ISO 27001 report offered on request. Never
 * from a sentence that negates ("we do not hold a SOC 2 report").
 */
const auditRights: Rule = (content, ss) => {
  const out: Found[] = [];
  const party = 'customer|client|you|data exporter|controller|data controller';
  for (const s of ss) {
    const t = clean(s.text);
    if (t.length > 700) continue;
    if (!/\baudit|\binspect|\bSOC ?2\b|\bISO(\/IEC)? ?27001\b/i.test(t)) continue;
    if (NEGATES.test(t)) continue;
    if (
      new RegExp(
        String.raw`\b(?:${party})\b[^.]{0,60}\b(may|can|is entitled to|are entitled to|shall be entitled to|has the right to|have the right to|shall have the right to|(?:is|are|shall be) authori[sz]ed to)\b[^.]{0,200}?\b(audit|inspect)`,
        'i',
      ).test(t)
    )
      out.push(found(s, t, 0.85));
    else if (
      new RegExp(String.raw`\b(permit|allow|enable)s?\s+(?:the\s+)?(?:${party})\b[^.]{0,60}\bto\s+(conduct|carry out|perform|audit|inspect)`, 'i').test(t)
    )
      out.push(found(s, t, 0.85));
    else if (new RegExp(String.raw`\bto be (inspected|audited)\b[^.]{0,80}\bby\s+(?:the\s+)?(?:${party})\b`, 'i').test(t)) out.push(found(s, t, 0.85));
    else if (new RegExp(String.raw`\b(?:${party})['’]s?\s+(audit rights|rights? (of|to) audit)`, 'i').test(t)) out.push(found(s, t, 0.8));
    else if (/\b(upon|on)\s+(customer|client)['’]s\s+(written\s+)?request\b[^.]{0,200}\baudit/i.test(t)) out.push(found(s, t, 0.8));
    else if (/\baudit reports?\b[^.]{0,60}\b(upon|on)\s+(customer|client)['’]?s?\s+(written\s+)?request/i.test(t)) out.push(found(s, t, 0.8));
    else if (
      /\b(allow for and contribute to (an )?audits?|(?:to |shall |will |must |and )(?:allow|permit|facilitate|submit to)(?: for)?(?: any| all)? (an? )?(audits?|inspections?)\b|submit (its|their) [^.]{0,60}facilities for (an )?audit)/i.test(
        t,
      )
    )
      out.push(found(s, t, 0.75));
    else if (/\b(SOC ?2|SOC ?1|ISO(\/IEC)? ?27001)\b[^.]{0,60}\b(report|attestation|certificat|complian)/i.test(t)) {
      // A report offered to customers: in the sentence or the one right after it.
      const next = content.slice(s.end, s.end + 200);
      if (
        /\b(upon|on) (written )?request|\brequest (a copy|access|our|the)\b|\bcontact us\b|\baccess to (our|the) report|\bavailable to (customers|clients)|\bprovide (a copy|documentation|the report|copies)/i.test(
          `${t} ${next.split(/\n\s*\n/)[0]}`,
        )
      )
        out.push(found(s, t, 0.7));
    }
  }
  return out;
};

/** Return, export or deletion of the customer's data when the contract ends, and transition assistance at exit. */
const exitProvisions: Rule = (_c, ss, ctx) => {
  const out: Found[] = [];
  const alt = vendorAlt(ctx);
  /** The lead-in of the list a sentence is an item of ("Upon termination or expiration:"), within six short items. */
  const leadIn = (i: number) => {
    for (let j = i - 1; j >= Math.max(0, i - 6); j--) {
      const x = clean(ss[j]!.text);
      if (/:\s*$/.test(x)) return x;
      if (x.length > 250) return '';
    }
    return '';
  };
  const endingRe = new RegExp(
    String.raw`\b(upon|after|following|on|of|at|before|prior to|within [^.]{0,30} (of|after))\s+(the\s+)?(termination|expiration|expiry|cancell?ation|end)\b|\bwhen you cancel\b|\bafter (you )?cancel|\b(if|when|once)\s+(we|you|either party|customer|client${alt ? `|${alt}` : ''})\s+terminates?\b|\baccount termination\b|\bwhen the (contract(ual relationship)?|agreement|subscription) (ends|expires|terminates|is terminated)\b|\bend of the provision of (the )?services\b|\bbusiness purposes\b[^.]{0,60}\bfulfilled\b`,
    'i',
  );
  for (const [i, s] of ss.entries()) {
    const t = clean(s.text);
    if (t.length > 700) continue;
    const ending = endingRe.test(t) || endingRe.test(leadIn(i));
    const data =
      /\b(return|export|exporting|retrieve|download|delete|destroy|deletion|destruction|extract|purge|backup|copy|provide|hand over|remove|erase)\b[^.]{0,80}\b(data|content|submissions|files)\b|\b(data|content|submissions|confidential information)\b[^.]{0,80}\b(returned|exported|deleted|destroyed|retrieved|extracted|removed|erased)\b/i.test(
        t,
      );
    // The Standard Contractual Clauses' own wording ("the data importer shall ... delete") is standard text: the vendor's own clause comes first.
    if (ending && data) out.push(found(s, t, /\bdata (importer|exporter)\b/i.test(t) ? 0.7 : 0.8));
    else if (/\btransition (assistance|services)\b/i.test(t) || (/\btransition period\b/i.test(t) && /\b(terminat|expir|exit)/i.test(t)))
      out.push(found(s, t, 0.8));
  }
  return out;
};

const storage = locationRule(
  /\b(stored|stores|storage|hosted|hosts|host (in|on|within)|data cent(er|re)s?|data infrastructure|infrastructure (is|are) located|servers? (are )?located)\b/i,
  'data is stored',
);
const processing = locationRule(/\b(processed|processes|processing|run on (virtuali[sz]ed )?servers|servers running)\b/i, 'data is processed');
const service = locationRule(
  /\b(operated|operates|provided from|services? (are|is) (provided|operated)|run on (virtuali[sz]ed )?servers|servers running|(we|only) host (in|within)|(is|are) hosted (?:(?:at|by|with|on) [^.;]{0,40}?\s)?(in|within))\b/i,
  'the service is provided',
);

/** A place given per region or as a region: "EU scale unit: European Union · US scale unit: United States", "European Union". */
const REGION_CELL = /\b(European Union|European Economic Area|Europe|Asia[- ]Pacific|[Ss]cale units?|[Rr]egions?)\b|\b(EU|EEA|APAC)\b(?!-)/;

/** The hosting provider's row of a subprocessor table where its column says where processing takes place: that is where data is. */
function hostingRows(what: string): Rule {
  return (content, _ss, _ctx, section) => {
    const rows = subprocessorRows(content, section).filter(
      (r) =>
        r.role &&
        /\b(hosting|hosted|cloud (infrastructure|hosting|computing|service provider|provider)|infrastructure|data cent(er|re)|servers?)\b/i.test(r.role) &&
        r.where.length,
    );
    if (!rows.length) return [];
    const open = (reason: string): Found[] => [{ value: null, start: rows[0]!.start, end: rows[0]!.end, strength: 0.6, open: reason }];
    // A table per region or instance ("Cloud: EU", "Cloud: US"): where data is depends on the region the customer picks.
    const heading = section.split(' > ').pop() ?? '';
    if (countriesIn(heading).length || /\b(EU|EEA|US|APAC|Asia|Europe|Americas?|HIPAA|region|instance)\b/.test(heading))
      return open(`the subprocessors are listed per region or instance (${heading}); where ${what} depends on the region the customer uses`);
    // A row that gives the place per region the customer picks ("EU region: European Union · US region: United States").
    const perRegion = rows.find((r) => r.whereText && REGION_CELL.test(r.whereText));
    if (perRegion)
      return open(`the subprocessor table gives the place per region (${perRegion.whereText}); where ${what} depends on the region the customer uses`);
    // Several hosting providers in different places say nothing (decided over all passages, in draft.ts).
    return rows.map((r) => ({ value: [...new Set(r.where)].sort(), start: r.start, end: r.end, strength: 0.7, host: r.name }));
  };
}
const withHosting = (field: 'dataStorageLocations' | 'dataProcessingLocations' | 'serviceLocations', rule: Rule): Rule => {
  const rows = hostingRows(
    field === 'dataStorageLocations' ? 'data is stored' : field === 'dataProcessingLocations' ? 'data is processed' : 'the service is provided',
  );
  return (c, ss, ctx, section) => [...rule(c, ss, ctx, section), ...rows(c, ss, ctx, section)];
};

export const RULES: Record<DraftField, Rule> = {
  legalName,
  address,
  description,
  ictServiceType,
  startDate,
  endDate,
  renewal,
  noticePeriodDaysEntity: noticeRule('entity'),
  noticePeriodDaysProvider: noticeRule('provider'),
  governingLaw,
  serviceLocations: withHosting('serviceLocations', service),
  dataStorageLocations: withHosting('dataStorageLocations', storage),
  dataProcessingLocations: withHosting('dataProcessingLocations', processing),
  subcontractors,
  personalData,
  auditRights,
  exitProvisions,
};

/** Runs a field's rule over one passage. */
export function extract(field: DraftField, content: string, ctx: ExtractContext, section = ''): Found[] {
  return RULES[field](content, sentences(content), ctx, section);
}

/**
 * The company names in a passage that start with one of the vendor's own names ("Spacelift,
 * Inc." for Spacelift), each with the sentence it stands in: where no clause names the
 * provider's legal entity, the one its documents keep using is the likely one (draft.ts
 * `legalNameByUse` counts them by document and proposes one only when it clearly leads).
 */
export function brandCompanies(content: string, vendorNames: string[]): Found[] {
  const brands = vendorNames.filter((n) => n.length >= 3 && !companyAt(n));
  if (!brands.length) return [];
  const brand = new RegExp(String.raw`(?:^|[\s(“"‘])((?:${brands.map((b) => esc(b).replace(/\s+/g, '\\s+')).join('|')})\b)`, 'i');
  const out: Found[] = [];
  for (const s of sentences(content)) {
    for (const m of clean(s.text).matchAll(companyRe())) {
      const b = brand.exec(m[0]);
      if (!b) continue;
      // From the vendor's name on ("Agreement between Spacelift, Inc." → "Spacelift, Inc."); a
      // name that only goes on after the brand ("Spacelift Customer Success Ltd") stays as written.
      const name = (/^(?:SASU|SAS|SARL|EURL)\s/.test(m[0]) ? m[0] : m[0].slice(b.index + b[0].length - b[1]!.length)).replace(/\s+/g, ' ');
      if (!/^[A-Z0-9]/.test(name) || name.split(' ').length > 4) continue;
      out.push(found(s, name, 0.55));
    }
  }
  return out;
}

/** Company names of the "X LLC / Y, Inc." form in a text (to learn the vendor's own names). */
export function companyNames(text: string): string[] {
  return [...text.matchAll(companyRe())].map((m) => m[0]);
}

/**
 * The short names a contract defines for the provider right after its legal name ("Pydantic
 * Services, Inc. and/or its affiliates (“PSI”, “we”, “us”)" → PSI), leaving out pronouns and roles.
 */
export function providerAliases(legalName: string, text: string): string[] {
  const at = text.indexOf(legalName);
  if (at < 0) return [];
  const paren = /^[^(.;]{0,40}\(([^)]{2,160})\)/.exec(text.slice(at + legalName.length));
  if (!paren) return [];
  const out: string[] = [];
  for (const m of paren[1]!.matchAll(/[“"'‘]\**([^”"'’*]{2,30}?)\**[”"'’]/g)) {
    const label = m[1]!.replace(/[,.]$/, '').trim();
    if (new RegExp(`^(?:${PROVIDER_TERMS}|the company|the provider)$`, 'i').test(label) || !/^[A-Z]/.test(label)) continue;
    out.push(label);
  }
  return out;
}
