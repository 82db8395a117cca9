import type { ICT_SERVICE_TYPES } from '../../domain/vendorProfile.js';
import type { DraftField, DraftValue } from '../../domain/profileDrafts.js';
import { countriesIn, dates, durations, jurisdictionCountry, sentences, type Sentence } from './text.js';

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
}

export interface ExtractContext {
  /** Names the vendor goes by (workspace name, legal names seen): the subject of "X is a provider of ...". */
  vendorNames: string[];
}

type Rule = (content: string, ss: Sentence[], ctx: ExtractContext, section: string) => Found[];

const COMPANY = String.raw`(?:[A-Z0-9][\w&'’.-]*(?:,?\s+[A-Z0-9][\w&'’.-]*){0,4}?),?\s+(?:LLC|L\.L\.C\.|Inc\.?|Ltd\.?|Limited|GmbH|B\.V\.|BV|S\.A\.|PBC|Corporation|Corp\.?|plc|AG|SE)(?![\w])`;
const companyRe = () => new RegExp(COMPANY, 'g');
const found = (s: Sentence, value: DraftValue, strength: number): Found => ({ value, start: s.start, end: s.end, strength });
const clean = (s: string) =>
  s
    .replace(/<\/?[a-z][^>]*>/gi, ' ')
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim();
const vendorSubject = (text: string, ctx: ExtractContext) =>
  new RegExp(
    `^(?:the\\s+)?(?:${ctx.vendorNames.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}|we|our company|the company|the data importer)\\b`,
    'i',
  ).test(text.replace(/^[-*•]\s*/, ''));

/** `Name: GitHub, Inc.` (data importer block of the SCCs), "we are referring to X LLC", "between X LLC (". */
const legalName: Rule = (_c, ss) => {
  const out: Found[] = [];
  ss.forEach((s, i) => {
    const t = clean(s.text);
    let m = /^Name:\s*(.+)$/.exec(t);
    if (
      m &&
      i > 0 &&
      /importer/i.test(
        ss
          .slice(Math.max(0, i - 3), i)
          .map((x) => x.text)
          .join(' '),
      )
    ) {
      const name = new RegExp(`^${COMPANY}`).exec(m[1]!.trim());
      if (name) out.push(found(s, name[0].replace(/\s+/g, ' '), 0.95));
      return;
    }
    m = /\b(?:we are referring to|referred to as “?(?:we|us)|between)\s+\[?(.{3,80}?)\]?(?:\(|\s+\(|\s+and\b|$)/i.exec(t);
    if (m) {
      const name = new RegExp(`^${COMPANY}`).exec(m[1]!.trim());
      if (name) out.push(found(s, name[0], 0.85));
    }
  });
  return out;
};

/** `Address: 88 Colin P Kelly Jr St, San Francisco, CA 94107, USA` (right after the data importer's name). */
const address: Rule = (_c, ss) => {
  const out: Found[] = [];
  ss.forEach((s, i) => {
    const m = /^Address:\s*(.{10,300})$/.exec(clean(s.text));
    if (
      !m ||
      i === 0 ||
      !/importer/i.test(
        ss
          .slice(Math.max(0, i - 4), i)
          .map((x) => x.text)
          .join(' '),
      )
    )
      return;
    if (!/\d/.test(m[1]!)) return;
    out.push(found(s, m[1]!.replace(/\s*<\/?br\/?>\s*$/i, '').trim(), 0.9));
  });
  return out;
};

const vendorMention = (text: string, ctx: ExtractContext) =>
  new RegExp(`\\b(?:${ctx.vendorNames.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}|we)\\b[^.]{0,60}\\bprocess`, 'i').test(text);

/** "X is a ... provider/producer of ..." with the vendor as subject; the SCC "Activities relevant ..." line naming the vendor. */
const description: Rule = (_c, ss, ctx) => {
  const out: Found[] = [];
  for (const s of ss) {
    const t = clean(s.text).replace(/^Activities relevant to the data transferred under these Clauses:\s*/i, '');
    if (t.length < 30 || t.length > 600) continue;
    if (!vendorSubject(t, ctx)) continue;
    if (/\bis an?\b[^.]{0,120}\b(provider|producer|platform|developer|vendor|supplier)\s+of\b/i.test(t)) out.push(found(s, t, 0.8));
    else if (/^(?:Data importer:\s*)?The data importer is\s+[^.]{2,60}?,\s+an?\s+[^.]{0,100}\b(provider|producer|developer|vendor|supplier)\s+of\b/i.test(t))
      out.push(found(s, t.replace(/^Data importer:\s*/i, ''), 0.75));
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
const ictServiceType: Rule = (_c, ss, ctx) => {
  const out: Found[] = [];
  for (const s of ss) {
    const t = clean(s.text).replace(/^Activities relevant to the data transferred under these Clauses:\s*/i, '');
    if (!vendorSubject(t, ctx) || !/\bis an?\b[^.]{0,120}\b(provider|producer|platform|service)\b/i.test(t)) continue;
    for (const [code, re] of SERVICE_KEYWORDS) if (re.test(t)) out.push(found(s, code, 0.8));
  }
  return out;
};

/** "This Agreement starts on <date>", "commences on <date>", "Effective Date: <date>" (not a version date). */
const startDate: Rule = (_c, ss) => {
  const out: Found[] = [];
  for (const s of ss) {
    const t = clean(s.text);
    if (/\b(version|last (updated|modified|revised)|updated)\b/i.test(t)) continue;
    if (!/\b(agreement|contract|term)\b[^.]{0,40}\b(starts|commences|begins|is effective|shall commence)\s+(on|as of)\b/i.test(t)) continue;
    const d = dates(t)[0];
    if (d) out.push(found(s, d.date, 0.85));
  }
  return out;
};

/** "continue in effect until terminated" → indefinite (null); "expires on <date>" → that date. */
const endDate: Rule = (_c, ss) => {
  const out: Found[] = [];
  for (const s of ss) {
    const t = clean(s.text);
    if (!/\b(agreement|contract|term)\b/i.test(t)) continue;
    if (
      /\b(continues?|remains?|will continue|shall continue)\s+(in (full )?(force|effect)\s+)?until\s+(it is\s+)?(terminated|cancell?ed)\b|\bindefinite (term|period)\b|\bno fixed (term|end)\b/i.test(
        t,
      )
    ) {
      out.push(found(s, null, 0.85));
      continue;
    }
    if (/\b(expires|shall expire|will expire|ends|terminates automatically)\s+on\b/i.test(t)) {
      const d = dates(t)[0];
      if (d) out.push(found(s, d.date, 0.85));
    }
  }
  return out;
};

/** A sentence about renewing the contract or subscription for another term. */
const renewal: Rule = (_c, ss) => {
  const out: Found[] = [];
  for (const s of ss) {
    const t = clean(s.text);
    if (/\b(automatically renew|auto-renew|renews? automatically)\b/i.test(t)) out.push(found(s, t, 0.9));
    else if (/\brenew(al|s|ed)?\b[^.]{0,80}\b(for (another|a further|an additional|successive)|subscription term|renewal term)\b/i.test(t))
      out.push(found(s, t, 0.75));
  }
  return out;
};

/**
 * Termination notice periods: a sentence about terminating the agreement with a notice
 * period; its subject tells whose period it is ("Either Party" → both).
 */
function noticeRule(party: 'entity' | 'provider'): Rule {
  return (_c, ss, ctx) => {
    const out: Found[] = [];
    for (const s of ss) {
      const t = clean(s.text);
      if (!/\bterminat|\bcancel/i.test(t) || !/\bnotice\b/i.test(t)) continue;
      if (/\b(breach|cure|suspend|insolven|bankrupt)/i.test(t)) continue;
      // The period next to the word notice: "N days' (prior) (written) notice", "notice of (at least) N days".
      const near = durations(t).filter((d) => {
        const after = t.slice(d.index + d.length, d.index + d.length + 40);
        const before = t.slice(Math.max(0, d.index - 30), d.index);
        return (
          /^[’']?s?[’']?\s*(prior\s+|advance\s+|written\s+|prior written\s+)*notice\b/i.test(after) ||
          /\bnotice\s+(period\s+)?of\s+(at least\s+)?$/i.test(before) ||
          (/^\s*(in advance|prior)\b/i.test(after) && /\bnotice\b/i.test(t))
        );
      });
      if (near.length !== 1) continue;
      const subject = t.slice(0, Math.max(0, near[0]!.index));
      const both = /\b(either party|each party|both parties|either of the parties)\b/i.test(subject);
      const entity = /\b(customer|you|client|the financial entity|licensee)\b[^.]{0,40}\b(may|can|shall have the right to)\s+(terminate|cancel)/i.test(subject);
      const names = ctx.vendorNames.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
      const provider = new RegExp(
        `\\b(we|${names}|provider|supplier|the company)\\b[^.]{0,40}\\b(may|can|shall have the right to)\\s+(terminate|cancel)`,
        'i',
      ).test(subject);
      if (both || (party === 'entity' ? entity && !provider : provider && !entity)) out.push(found(s, near[0]!.days, both ? 0.9 : 0.8));
    }
    return out;
  };
}

/**
 * "governed by (and construed in accordance with) the laws of X". A clause that chooses
 * the law by where the customer is takes the branch for customers outside the Americas
 * (the register is kept by EU financial entities). Clauses about the SCCs are left out.
 */
const governingLaw: Rule = (_c, ss) => {
  const out: Found[] = [];
  for (const s of ss) {
    const t = clean(s.text);
    if (!/\bgoverned by\b|\bgoverning law\b/i.test(t)) continue;
    if (/\b(these clauses|clause \d+|standard contractual|third[- ]party beneficiary)\b/i.test(t)) continue;
    // A branch for customers in the Americas (or the US) is not the law of an EU entity's contract.
    if (/^If\b[^,]{0,80}\b(is|are) in the (Americas|United States)\b/i.test(t)) continue;
    const branches = t.split(/(?=\bIf\b)/);
    const laws = branches
      .map((b) => {
        const m = /\blaws? of\s+(the\s+)?((State|Commonwealth) of\s+)?([A-Z][\w .]{1,40}?)(?=[,;.]|\s+(without|and|excluding|exclusive)|$)/.exec(b);
        return m ? { branch: b, country: jurisdictionCountry(m[0]) } : null;
      })
      .filter((x): x is { branch: string; country: string } => !!x && !!x.country);
    if (!laws.length) continue;
    if (laws.length === 1) {
      out.push(found(s, laws[0]!.country, /^If\b/.test(t) ? 0.75 : 0.9));
      continue;
    }
    const eu0 = /^If\b[^,]{0,80}\boutside (of )?the (Americas|United States)\b/i.test(t);
    if (eu0) {
      out.push(found(s, laws[0]!.country, 0.75));
      continue;
    }
    const eu = laws.find((l) => /\b(outside (of )?the Americas|in (the )?(EU|EEA|Europe|European Union))\b/i.test(l.branch));
    if (eu) out.push(found(s, eu.country, 0.75));
  }
  return out;
};

const VAGUE =
  /\b(privacy framework|department of commerce|certified|adequacy|variety of|other countries|any country|around the world|worldwide|globally|such as|for example|may (be )?(transfer|store|process))\b/i;
const NEGATED = /\b(outside (of )?|not (be )?(stored|located|processed|transferred) (in|to)|except)\s*(the\s+)?$/i;

/** Countries named in a sentence that has the field's cue, leaving out negated mentions ("outside of the US"). */
function locationRule(cue: RegExp): Rule {
  return (_c, ss, ctx) => {
    const out: Found[] = [];
    for (const s of ss) {
      const t = clean(s.text);
      if (s.text.trim().startsWith('|')) continue; // tables are the subcontractors' locations
      const cueAt = cue.exec(t);
      if (!cueAt || VAGUE.test(t)) continue;
      if (!/\b(we|our|all|customer data|personal data|data|information|infrastructure|products|services|data centers?)\b/i.test(t)) continue;
      // Countries after the cue ("stored in the United States"), not the reader's ("If you are located in the UK").
      const codes = countriesIn(t)
        .filter((c) => c.index > cueAt.index)
        .filter((c) => !NEGATED.test(t.slice(Math.max(0, c.index - 40), c.index)))
        .map((c) => c.code);
      if (!codes.length) continue;
      if (!vendorSubject(t, ctx) && !/\b(our|all data|data infrastructure|stored in|hosted in|processed in|operated in|located in)\b/i.test(t)) continue;
      out.push(found(s, [...new Set(codes)].sort(), 0.8));
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
  if (!/^[A-Z][^:;]{1,60}: [^;]*(; [A-Z][^:;]{1,60}: [^;]*)+$/.test(line)) return null;
  return line.split(/; (?=[A-Z][^:;]{1,60}: )/).map((p) => {
    const i = p.indexOf(': ');
    return [p.slice(0, i).trim(), p.slice(i + 2).trim()] as [string, string];
  });
}

const subcontractors: Rule = (content, ss, _ctx, section) => {
  const out: Found[] = [];
  const lines = content.split('\n');
  let offset = 0;
  let header: string[] | null = null;
  let listCountry: string | undefined;
  let inList = false;
  for (const line of lines) {
    const start = offset;
    offset += line.length + 1;
    const tr = line.trim();
    if (tr.startsWith('|')) {
      const cells = tr
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim());
      if (cells.every((c) => /^:?-+:?$/.test(c) || c === '')) continue;
      if (cells.some((c) => /^name\b/i.test(c))) {
        header = cells.map((c) => c.toLowerCase());
        continue;
      }
      if (!header || !header.some((h) => /subprocessor|subcontractor/.test(h))) continue;
      const col = (re: RegExp) => header!.findIndex((h) => re.test(h));
      const name = cells[col(/^name/)]?.replace(/\s+/g, ' ');
      if (!name) continue;
      const role = cells[col(/description|purpose|service|role/)];
      const locCell = cells[col(/corporate location|headquarter/)] ?? cells[col(/location/)];
      const country = locCell ? countriesIn(locCell)[0]?.code : undefined;
      const sStart = start + line.indexOf(tr);
      out.push({ value: [{ name, ...(role ? { role } : {}), ...(country ? { country } : {}) }], start: sStart, end: sStart + tr.length, strength: 0.9 });
      continue;
    }
    header = null;
    // A table row as the ingestion writes it: "Name of Subprocessor: X; Description of Processing: Y; ...".
    const pairs = keyValues(tr);
    if (pairs && (pairs.some(([k]) => /subprocessor|subcontractor/i.test(k)) || /subprocessor|subcontractor/i.test(section))) {
      const get = (re: RegExp) => pairs.find(([k]) => re.test(k))?.[1];
      const name = get(/^name/i);
      if (name) {
        const role = get(/description|purpose|service|role|activit/i);
        const locCell = get(/corporate location|headquarter|country/i) ?? get(/location/i);
        const country = locCell ? countriesIn(locCell)[0]?.code : undefined;
        const sStart = start + line.indexOf(tr);
        out.push({
          value: [{ name: name.replace(/\s+/g, ' '), ...(role ? { role } : {}), ...(country ? { country } : {}) }],
          start: sStart,
          end: sStart + tr.length,
          strength: 0.9,
        });
        continue;
      }
    }
    if (/subprocessors?\b[^.:]{0,80}\blocated in\b/i.test(tr) && tr.endsWith(':')) {
      listCountry = countriesIn(tr)[0]?.code ?? (/\bthe EU\b/.test(tr) ? undefined : undefined);
      inList = true;
      continue;
    }
    if (/^subprocessors?\b[^.:]{0,80}:$/i.test(tr) || /list of [^.:]*subprocessors[^:]*:$/i.test(tr)) {
      inList = true;
      listCountry = countriesIn(tr)[0]?.code;
      continue;
    }
    const item = /^[*-]\s+\[?([^\]\n]{2,80}?)\]?(?:\([^)]*\))?\.\s+(.{3,200})$/.exec(tr);
    if (inList && item) {
      const sStart = start + line.indexOf(tr);
      out.push({
        value: [{ name: item[1]!.trim(), role: item[2]!.replace(/\.$/, '').trim(), ...(listCountry ? { country: listCountry } : {}) }],
        start: sStart,
        end: sStart + tr.length,
        strength: 0.85,
      });
      continue;
    }
    if (tr && !item) inList = inList && tr === '';
  }
  void ss;
  return out;
};

/** The vendor (or "processor") processes personal data on the customer's behalf or instructions. */
const personalData: Rule = (_c, ss, ctx) => {
  const out: Found[] = [];
  for (const s of ss) {
    const t = clean(s.text);
    if (/\b(does not|do not|will not|never)\s+process\s+(any\s+)?personal data\b/i.test(t) && vendorSubject(t, ctx)) out.push(found(s, false, 0.8));
    else if (
      /\bprocess(es|ing)?\s+(customer\s+)?personal data\b[^.]{0,80}\b(on behalf|on customer['’]s behalf|instructions?|upon the instruction)/i.test(t) &&
      (vendorMention(t, ctx) || /\bwhich processes personal data\b/i.test(t))
    )
      out.push(found(s, true, 0.85));
  }
  return out;
};

/** Customer's right to audit or to receive audit reports. */
const auditRights: Rule = (_c, ss) => {
  const out: Found[] = [];
  for (const s of ss) {
    const t = clean(s.text);
    if (t.length > 700 || !/\baudit/i.test(t)) continue;
    if (/\b(customer|you|data exporter)\b[^.]{0,60}\b(may|can|is entitled to|has the right to|shall have the right to)\b[^.]{0,60}\baudit/i.test(t))
      out.push(found(s, t, 0.85));
    else if (/\b(upon|on)\s+customer['’]s\s+(written\s+)?request\b[^.]{0,200}\baudit/i.test(t)) out.push(found(s, t, 0.8));
    else if (/\baudit reports?\b[^.]{0,60}\b(upon|on)\s+customer['’]?s?\s+(written\s+)?request/i.test(t)) out.push(found(s, t, 0.8));
    else if (/\b(allow for and contribute to audits|submit (its|their) [^.]{0,60}facilities for audit)/i.test(t)) out.push(found(s, t, 0.75));
  }
  return out;
};

/** Return, export or deletion of the customer's data when the contract ends. */
const exitProvisions: Rule = (_c, ss) => {
  const out: Found[] = [];
  for (const s of ss) {
    const t = clean(s.text);
    if (t.length > 700) continue;
    const ending = /\b(upon|after|following|on)\s+(the\s+)?(termination|expiration|expiry|cancell?ation|end)\b|\bwhen you cancel\b|\bafter (you )?cancel/i.test(
      t,
    );
    const data =
      /\b(return|export|retrieve|download|delete|destroy|deletion)\b[^.]{0,80}\b(data|content)\b|\b(data|content)\b[^.]{0,80}\b(returned|exported|deleted|destroyed|retrieved)\b/i.test(
        t,
      );
    if (ending && data) out.push(found(s, t, 0.8));
    else if (/\btransition (assistance|services|period)\b/i.test(t)) out.push(found(s, t, 0.8));
  }
  return out;
};

const storage = locationRule(
  /\b(stored|stores|storage|hosted|data cent(er|re)s?|data infrastructure|infrastructure (is|are) located|servers? (are )?located)\b/i,
);
const processing = locationRule(/\b(processed|processes|processing)\b/i);
const service = locationRule(/\b(operated|operates|provided from|services? (are|is) (provided|operated))\b/i);

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
  serviceLocations: service,
  dataStorageLocations: storage,
  dataProcessingLocations: processing,
  subcontractors,
  personalData,
  auditRights,
  exitProvisions,
};

/** Runs a field's rule over one passage. */
export function extract(field: DraftField, content: string, ctx: ExtractContext, section = ''): Found[] {
  return RULES[field](content, sentences(content), ctx, section);
}

/** Company names of the "X LLC / Y, Inc." form in a text (to learn the vendor's own names). */
export function companyNames(text: string): string[] {
  return [...text.matchAll(companyRe())].map((m) => m[0]);
}
