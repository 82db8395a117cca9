import { SUBPROCESSOR_SECTION } from './subprocessors.js';
import type { ICT_SERVICE_TYPES } from '../../../domain/vendorProfile.js';
import { countriesIn, onlyOutsideEurope, sentences } from '../text.js';
import {
  COMPANY,
  addressAt,
  clean,
  companyAt,
  companyRe,
  entityRows,
  esc,
  found,
  keyValues,
  priorText,
  tableCells,
  otherCustomersSection,
  PROVIDER_TERMS,
  vendorAlt,
  vendorSubject,
  type ExtractContext,
  type Found,
  type Rule,
} from './common.js';

/**
 * The register drafting rules for who the provider is and what it provides: legal name,
 * address (contact blocks, registration lines), description and ICT service type; and the
 * vendor's own company names and aliases found in a text (draft.ts learns them).
 */

/**
 * The provider's legal name, where contracts state it: the `Name:` / `Data importer:` block
 * of the SCC annexes; the preamble ("entered into by and between X Inc.", "between you
 * (“Customer”) and X LLP"); a definition ("“Pulumi” means Pulumi Corporation", "X Inc.
 * (“we”, “us”)"); the description of the party ("X, Inc., an Ontario corporation"); the
 * imprint ("X GmbH, Street 8, 10247 Berlin, registered with the commercial register").
 */
/** A sentence scoped to customers or a service region outside Europe: it names such countries only, as a region or domicile. */
function otherRegionOnly(t: string): boolean {
  return /\b(service regions?|regions?|mainland|domiciled|resident|customers (in|located in|based in))\b/i.test(t) && onlyOutsideEurope(t);
}

export const legalName: Rule = (content, ss, ctx, section) => {
  const out: Found[] = [];
  const alt = vendorAlt(ctx);
  const ownName = alt ? new RegExp(`^(?:${alt})`, 'i') : null;
  const otherSection = otherCustomersSection(section);
  for (const r of entityRows(content)) if (r.entity) out.push({ value: r.entity, start: r.start, end: r.end, strength: 0.9 });
  // A contact, imprint or signature block: the vendor's own company alone on a line, its address on the next lines. Weak: an
  // affiliate sharing the brand (an EU representative's block) is written the same way, so it stands only where nothing else names the provider.
  if (alt && !SUBPROCESSOR_SECTION.test(section))
    for (const b of contactBlock(content, alt)) out.push({ value: b.name.replace(/\s+/g, ' '), start: b.nameStart, end: b.nameEnd, strength: 0.7, weak: true });
  ss.forEach((s, i) => {
    // An imprint or footer line sets its parts apart with middle dots or bars ("Acme GmbH · Hauptstraße 5 · 10115 Berlin").
    const t = /^\|/.test(s.text.trim()) ? clean(s.text) : clean(s.text).replace(/\s+[·•|]\s+/g, ', ');
    // The entity for customers of another region only ("… provided by X (Beijing) Co., Ltd. … for which the PRC is the Service
    // Region") is not the one an EU financial entity contracts with.
    if (otherSection || otherRegionOnly(t)) return;
    // The data importer's block on one line: "Data importer(s): Name: X Inc. Address: …".
    const importer = /\bimporter\(?s?\)?:?\s*(?:\d+\.\s*)?Name:\s*(.+?)(?:\s+Address:|$)/i.exec(t);
    if (importer) {
      const name = companyAt(importer[1]!);
      if (name) out.push(found(s, name, 0.95));
      return;
    }
    let m = /^Name:\s*(.+)$/.exec(t);
    if (m) {
      if (i > 0 && /importer/i.test(priorText(ss, i, 3))) {
        const name = companyAt(m[1]!);
        if (name) out.push(found(s, name, 0.95));
      }
      return;
    }
    m = /^(?:Data importer|Processor|Service provider|Provider|Vendor|Supplier)\s*:\s*(.+)$/i.exec(t);
    // "Provider: Hetzner Online GmbH" in a list of subprocessors names a subprocessor, not the provider.
    if (m && (SUBPROCESSOR_SECTION.test(section) || /\bsub-?\s?(processor|contractor)s?\b/i.test(priorText(ss, i, 6)))) return;
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
      if (/^\s*(\(|,|and\b|AND\b|its affiliates|$|\.)/.test(rest) || ownName?.test(m[1]!)) {
        out.push(found(s, m[1]!.replace(/\s+/g, ' '), 0.85));
        return;
      }
    }
    // Definition: "“Pulumi” means Pulumi Corporation", "X Inc. (“Zulip,” “we” and “us”)".
    m = new RegExp(String.raw`[“"']([^”"']{2,40})[”"']\s+(?:means|mean|shall mean|refers to|refer to)\s+(${COMPANY})`).exec(t);
    if (m && (new RegExp(`^(?:${PROVIDER_TERMS})$`, 'i').test(m[1]!.trim()) || ownName?.test(m[1]!.trim()))) {
      out.push(found(s, m[2]!.replace(/\s+/g, ' '), 0.85));
      return;
    }
    // "“Menditect” is a private limited liability company under Dutch law with the name Menditect B.V.".
    m = new RegExp(
      String.raw`^(?:\d+\.\s*)?[“"]\*?([^”"*]{2,40})\*?[”"]\s+(?:is|means)\s+[^.;]{0,120}?\b(?:with the name|under the name|named|called)\s+(${COMPANY})`,
    ).exec(t);
    if (m && (new RegExp(`^(?:${PROVIDER_TERMS})$`, 'i').test(m[1]!.trim()) || ownName?.test(m[1]!.trim()))) {
      out.push(found(s, m[2]!.replace(/\s+/g, ' '), 0.85));
      return;
    }
    m = new RegExp(String.raw`(?:^|[\s(])(${COMPANY})\s*\(\s*(?:the\s+)?[“"'‘]([^”"'’]{1,40})[”"'’]`).exec(t);
    if (m) {
      const label = m[2]!.replace(/[,.]$/, '').trim();
      const after = t.slice(m.index + m[0].length, m.index + m[0].length + 60);
      if (new RegExp(`^(?:${PROVIDER_TERMS})$`, 'i').test(label) || /[“"'‘](we|us)\b/i.test(after) || ownName?.test(label)) {
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
      if (new RegExp(`^(?:${PROVIDER_TERMS})$`, 'i').test(label) || ownName?.test(label)) {
        out.push(found(s, m[1]!.replace(/\s+/g, ' '), 0.85));
        return;
      }
    }
    // The vendor's own company (its name starts with the vendor's) named by a role defined as the company ("Company means X
    // GmbH.", "The Provider is X Sp. z o.o."), the contracting entity ("You are contracting with X B.V."), the company with its
    // registration number ("X AS, org. no. 912 345 678", "X Limited (company number 09876543)"), the company providing the
    // service ("The Services are provided by X GmbH, …", "owned and operated by X S.L.") or its registration ("X Ltd is a
    // company registered in England and Wales under company number …").
    // The first group that matched: a pattern may offer the company in more than one place.
    const own = (mm: RegExpExecArray | null) => {
      const name = mm?.slice(1).find((g) => g !== undefined);
      return name && ownName?.test(name) ? name.replace(/\s+/g, ' ') : null;
    };
    // The vendor's trading name of a company of another name: "Acme (“we”) is a trading name of Beta Systems Ltd.".
    const trading = alt
      ? new RegExp(String.raw`^(?:${alt})\b[^.]{0,40}?\bis\s+(?:a|the)\s+(?:trading name|registered trade ?mark|brand name)\s+of\s+(${COMPANY})`, 'i').exec(t)
      : null;
    if (trading) {
      out.push(found(s, trading[1]!.replace(/\s+/g, ' '), 0.8));
      return;
    }
    const company =
      own(
        new RegExp(
          String.raw`^(?:the\s+)?(?:company|provider|supplier|vendor|licensor|processor|service provider|(?:data\s+)?controller)\s+(?:means|is|refers to|shall mean)\s+(${COMPANY})`,
          'i',
        ).exec(t) ??
          new RegExp(String.raw`\bcontracting (?:with|entity is)\s+(${COMPANY})`).exec(t) ??
          new RegExp(
            String.raw`(?:^|[\s(])(${COMPANY}),?\s+\(?\s*(?:[Oo]rg(?:anisation|anization)?\.?\s*(?:[Nn]o|[Nn]r|[Nn]umber)|company (?:no|number|registration)|registration (?:no|number)|reg\.\s*no|registered under|KRS|CVR|CIF|NIF|ABN|ACN|CRN|KvK|HRB|Handelsregister)\b`,
          ).exec(t),
      ) ??
      own(
        new RegExp(
          String.raw`\b(?:provided|operated|owned and operated|offered|run|made available)\s+by\s+(${COMPANY})|\bis an?\s+(?:product|brand|service|division)\s+of\s+(${COMPANY})|^©\s*(?:\d{4}(?:\s*[-–]\s*\d{4})?,?\s*)?(${COMPANY})`,
        ).exec(t),
      ) ??
      own(
        new RegExp(
          String.raw`^(${COMPANY})\s+is\s+an?\s+(?:[\w-]+\s+){0,3}?(?:company|corporation|limited liability company|partnership)\s+(?:registered|incorporated|organi[sz]ed|established|existing)\b`,
        ).exec(t),
      ) ??
      // Its seat: "Acme s.r.o., with its registered office at …", "Acme SAS, a société par actions simplifiée with its registered
      // office at …", "Acme, Inc. is located at …", "Acme GmbH has its registered office in …".
      own(
        new RegExp(
          String.raw`(?:^|[\s(])(${COMPANY}),?\s+(?:\([^)]{0,60}\),?\s+)?(?:an?\s+[^,.;]{2,80}?,?\s+)?(?:(?:with|having|has)\s+(?:its|their)\s+(?:registered\s+)?(?:office|seat|headquarters|principal place of business)|is\s+(?:located|headquartered|domiciled|registered)\s+(?:at|in)|(?:(?:incorporated|organi[sz]ed)\s+and\s+)?registered\s+(?:with|in|at|under)|incorporated\s+(?:in|under)|au capital de)\b`,
        ).exec(t),
      );
    if (company) {
      out.push(found(s, company, 0.8));
      return;
    }
    // The vendor's own company followed by its postal address ("Acme AG, Bahnhofstrasse 1, 8001 Zürich", "write to us at Acme LLC,
    // 1000 N. West Street, …", "Acme Limited (CRO 654321), 1 Grand Canal Square, …"), or the company a contract is concluded with; the first weak, as a contact block is.
    if (!SUBPROCESSOR_SECTION.test(section)) {
      m = new RegExp(String.raw`(?:^|:\s*|\b(?:at|to|by)\s+|^and\s+)(${COMPANY})(?:\s*\([^)]{0,60}\))?,\s+`).exec(t);
      const withAddress = own(m) && addressAt(t.slice(m!.index + m![0].length).replace(/^(?:attn|attention)\b[^,]{0,40},\s*/i, ''));
      if (withAddress && /^[^,]*\d/.test(withAddress)) {
        out.push({ ...found(s, own(m)!, 0.7), weak: true });
        return;
      }
      const concluded = own(new RegExp(String.raw`\b(?:concluded|entered into|made|agreement) (?:with|between you and)\s+(${COMPANY})`).exec(t));
      if (concluded) {
        out.push(found(s, concluded, 0.8));
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

/** A line of a company's registration details, not of its address. */
const REGISTRATION_LINE =
  /^(trade register|registration|reg\.|company (no|number|registration|id)|commercial register|register(ed)? (no|number|at|in|with|under)|business id|org(anisation|anization)?\.? ?(nr|no|number|id)|VAT|CUI|CIF|ABN|ACN|EIN|tax id|KvK|Handelsregister|HRB|HRA|Amtsgericht|SIREN|SIRET|RCS|UID|CRN|CVR|NIP|REGON|KRS|OIB|Y-tunnus)\b|^[\d\s./-]{6,}$/i;

/**
 * A contact or signature block: the vendor's name alone on a line, then its street, town
 * and postcode, and country on the next lines (up to an e-mail, phone or web line).
 */
function contactBlock(content: string, alt: string): (Found & { name: string; nameStart: number; nameEnd: number })[] {
  const out: (Found & { name: string; nameStart: number; nameEnd: number })[] = [];
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
    let blank = false;
    for (const n of lines.slice(i + 1, i + 9)) {
      const tt = clean(n.text).trim();
      if (!tt) {
        blank = true;
        continue;
      }
      // Lines of one block are adjacent; a Markdown source may set each on its own paragraph ("Acme, Inc." / "" /
      // "9740 Campo Rd." / "" / "Spring Valley, CA 91977"), but then each is a short line without a full stop.
      if (blank && parts.length && (tt.length > 60 || /[.!?:]$/.test(parts.at(-1)!.text.trim()) || !(/\d/.test(tt) || countriesIn(tt).length === 1))) break;
      blank = false;
      // "Attn: Legal Department" names who at the company reads the mail: the address goes on below it.
      if (/^(attn|attention)\b/i.test(tt) && !parts.length) continue;
      if (/^(e-?mail|phone|tel|fax|attn|attention|web|www|http|contact|\[)/i.test(tt) || tt.length > 80) break;
      // A registration line ends the address ("Trade Register No.: J40/7232/2017", "CUI: 37597235", "ABN 33 …"); before it, it is skipped
      // ("Acme AB" / "559075-0245" / "Rättarvägen 3, …").
      if (REGISTRATION_LINE.test(tt)) {
        if (parts.length) break;
        continue;
      }
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
    const countryLine = endsInCountry(parts.map((p) => clean(p.text)));
    const nameStart = l.start + l.text.indexOf(co);
    if (addressAt(value) === value.replace(/[\s,.]+$/, '').trim() || countryLine)
      out.push({ value, start, end, strength: 0.8, name: co, nameStart, nameEnd: nameStart + co.length });
  });
  return out;
}

/** Parts of an address without a postcode: a street with its number first, a town, and a country as the last part. */
function endsInCountry(parts: string[]): boolean {
  const last = parts.at(-1) ?? '';
  return parts.length >= 3 && /\d/.test(parts[0]!) && countriesIn(last).length === 1 && last.split(/\s+/).length <= 3;
}

/**
 * The provider's address: `Address:` in the block of the data importer or of the provider;
 * "X Inc., located at / with offices at <address>"; "X GmbH, <street>, <postcode> <town>"
 * (SCC annex, imprint). Only next to the vendor's name (or the data importer's block).
 */
export const address: Rule = (content, ss, ctx, section) => {
  const out: Found[] = [];
  const otherSection = otherCustomersSection(section);
  const alt = ctx.legalNames?.length ? vendorAlt({ vendorNames: ctx.legalNames }) : vendorAlt(ctx);
  if (alt) out.push(...contactBlock(content, alt).map(({ value, start, end, strength }) => ({ value, start, end, strength })));
  for (const r of entityRows(content)) if (r.address) out.push({ value: r.address, start: r.start, end: r.end, strength: 0.9 });
  // A table of the group's entities: the row whose name is the provider's legal name, its address column
  // ("Entity Name: Simptel B.V.; Headquarters Address: Stadhuisplein 10, 5611EM, Eindhoven, …").
  if (ctx.legalNames?.length) {
    const legal = new RegExp(`^(?:${vendorAlt({ vendorNames: ctx.legalNames })})$`, 'i');
    let offset = 0;
    for (const line of content.split('\n')) {
      const at = offset;
      offset += line.length + 1;
      const pairs = keyValues(line.trim());
      const name = pairs?.find(([k]) => /\b(name|entity|company)\b/i.test(k));
      const addr = pairs?.find(([k]) => /\b(address|headquarters?|registered office)\b/i.test(k) && !/e-?mail|web/i.test(k));
      if (!name || !addr || !legal.test(name[1].trim()) || !/\d/.test(addr[1]) || !/,/.test(addr[1])) continue;
      const value = addr[1].replace(/[\s,.]+$/, '');
      const start = content.indexOf(value, at);
      if (start >= 0) out.push({ value: clean(value), start, end: start + value.length, strength: 0.85 });
    }
  }
  // A two-column table of the provider's details: "| Company | Acme Ltd |" then "| Address | 1 Main Street, … |".
  if (alt) {
    const ours = new RegExp(`^(?:${alt})`, 'i');
    let offset = 0;
    let nameRow = -10;
    content.split('\n').forEach((line, n) => {
      const at = offset;
      offset += line.length + 1;
      const cells = line.trim().startsWith('|') ? tableCells(line.trim()) : null;
      if (!cells || cells.length !== 2) return;
      const [key, val] = [cells[0]!, clean(cells[1]!)];
      if (/\b(name|company|entity|provider|controller|processor)\b/i.test(key) && ours.test(val)) nameRow = n;
      else if (/\b(address|registered office|headquarters?|seat)\b/i.test(key) && !/e-?mail|web/i.test(key) && n - nameRow <= 4) {
        const a = addressAt(val);
        const start = content.indexOf(cells[1]!, at);
        if (a && start >= 0) out.push({ value: a, start, end: start + cells[1]!.length, strength: 0.85 });
      }
    });
  }
  const noticeTo = new RegExp(
    String.raw`(?:\bto:?\s+|:\s+)(?:${vendorAlt({ vendorNames: [...(ctx.legalNames ?? []), ...ctx.vendorNames] })})(?:,?\s+(?:Inc|LLC|Ltd|GmbH|B\.V|AB|AS|Oy|SAS|Limited|Corp)\.?)?(?:,\s+(?:(?:attn|attention)\b[^,]{0,40},\s+)?|,?\s+(?:attn|attention):\s*)(?=\d)`,
    'i',
  );
  ss.forEach((s, i) => {
    // An imprint or footer line sets its parts apart with middle dots or bars ("Acme GmbH · Hauptstraße 5 · 10115 Berlin").
    const t = /^\|/.test(s.text.trim()) ? clean(s.text) : clean(s.text).replace(/\s+[·•|]\s+/g, ', ');
    // The entity for customers of another region only ("… provided by X (Beijing) Co., Ltd. … for which the PRC is the Service
    // Region") is not the one an EU financial entity contracts with.
    if (otherSection || otherRegionOnly(t)) return;
    // The data importer's block on one line: "Data importer(s): Name: X Inc. Address: 100 Market Street, …".
    const importer = /\bimporter\b.{0,80}?\bAddress:\s*(.{10,300})$/i.exec(t);
    if (importer) {
      const a = addressAt(importer[1]!) ?? (/\d/.test(importer[1]!) ? importer[1]!.replace(/[\s,.]+$/, '') : null);
      if (a) out.push(found(s, a, 0.9));
      return;
    }
    let m = /^Address:\s*(.{10,300})$/.exec(t);
    if (m) {
      const near = priorText(ss, i, 4);
      let rest = m[1]!.replace(/\s*<\/?br\/?>\s*$/i, '').trim();
      const co = companyAt(rest);
      const ours = /importer/i.test(near) || (alt && new RegExp(`(?:${alt})`, 'i').test(`${near} ${co ?? ''}`)) || false;
      if (!ours || /exporter/i.test(ss[i - 1]?.text ?? '')) return;
      if (co) rest = rest.slice(rest.indexOf(co) + co.length).replace(/^[\s,]+/, '');
      // Outside the data importer's block, only a postal address: street number and postcode, or street
      // number, town and a country as its last part ("Yigal Alon Street 94, Tel Aviv, Israel").
      if (/importer/i.test(near) ? /\d/.test(rest) : addressAt(rest) !== null || endsInCountry(rest.split(',').map((p) => p.trim())))
        out.push(found(s, rest.replace(/\s*<\/?br\/?>\s*$/i, '').trim(), 0.9));
      return;
    }
    m = /^Contact details:\s*(.{10,300})$/i.exec(t);
    if (m && /importer/i.test(priorText(ss, i, 3)) && !/exporter/i.test(ss[i - 1]?.text ?? '')) {
      const a = addressAt(m[1]!.replace(/^(?:[^\s,]+@[^\s,]+|https?:\/\/\S+)\s*,\s*/g, ''));
      if (a) out.push(found(s, a, 0.85));
      return;
    }
    // "Our postal address is X Oy, Mannerheimintie 12, 00100 Helsinki, Finland": the provider's own address, after its company name if given.
    m = /\bour\s+(?:postal|mailing|registered|business|office|correspondence|contact)?\s*address\s+is:?\s+/i.exec(t);
    if (m) {
      let rest = t.slice(m.index + m[0].length);
      const co = companyAt(rest);
      if (co) rest = rest.slice(co.length).replace(/^[\s,]+/, '');
      const a = addressAt(rest);
      if (a && /^[^,]*\d/.test(a)) out.push(found(s, a, 0.8));
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
      String.raw`(?:${alt})(?:[^.;]|\.(?=\S)|(?<=\b(?:No|Inc|Ltd|Co|Corp|Sp|o|[A-Z]))\.){0,120}?\b(?:located at|with (?:its |their )?(?:registered )?(?:seat|office) in [^\s,]+,|with (?:its |their )?(?:principal |registered )?(?:offices?|place of business|address) (?:at|in)|having (?:its |their )?(?:registered )?(?:office|seat|address) at|whose (?:registered )?(?:office|address) is(?: located)?(?: at)?|registered (?:office|address)(?: is)?(?: at)?|of(?=\s+(?:\d|(?:Unit|Suite|Floor|Level|Building)\s+\d)))\s+`,
      'i',
    ).exec(t);
    if (m) {
      const rest = t.slice(m.index + m[0].length);
      // "Team Tito Limited (…) of Unit 2, 64 Dame Street, Dublin 2.": a numbered street and a town, without a postcode.
      // "with its principal place of business in Wroclaw (address: ul. Wyspa Słodowa 7, 50-266 Wroclaw, Poland; …)": the town, then the address in brackets.
      const bracketed = /^[^.;()]{0,60}\(\s*(?:registered |postal |office )?address:\s*/i.exec(rest);
      const a = addressAt(rest) ?? (/\bof\s+$/.test(m[0]) ? streetAddress(rest) : null) ?? (bracketed ? addressAt(rest.slice(bracketed[0].length)) : null);
      if (a) out.push(found(s, a, 0.85));
      return;
    }
    // "Registered office: 12 High Street, …" under or beside the provider's name.
    m = /^(?:registered (?:office|address)|head office|principal (?:office|place of business)|(?:postal|mailing|business|company|office) address)\s*:\s*/i.exec(
      t,
    );
    if (m && new RegExp(`(?:${alt})`, 'i').test(priorText(ss, i, 3))) {
      const a = addressAt(t.slice(m[0].length));
      if (a && /^[^,]*\d/.test(a)) out.push(found(s, a, 0.8));
      return;
    }
    m = new RegExp(
      String.raw`(?:^|^(?:[Cc]opyright\s*)?©\s*(?:\d{4}(?:\s*[-–]\s*\d{4})?\s+)?|:\s*|\b(?:by|at|to|is)\s+|^and\s+)(${COMPANY})(?:\s*\([^)]{0,60}\))?,\s+`,
    ).exec(t);
    if (m && new RegExp(`^(?:${alt})`, 'i').test(m[1]!)) {
      const a = addressAt(t.slice(m.index + m[0].length));
      if (a && /^[^,]*\d/.test(a)) out.push(found(s, a, 0.8));
    }
  });
  return out;
};

/** A postal address without a postcode: a numbered street ("64 Dame Street"), then a town after a comma, up to the sentence's end. */
function streetAddress(text: string): string | null {
  const a =
    /^([^.;()]{0,40}?\b\d+[A-Za-z]?\s+(?:[A-Z][\w'’-]*\s+){1,3}(?:Street|St|Road|Rd|Avenue|Ave|Lane|Boulevard|Blvd|Square|Place|Quay|Way|Drive|Court|Row|Terrace)(?:,\s*[A-Z][\w'’-]*(?:\s+[A-Z\d][\w'’-]*)*){1,3})\.?\s*$/.exec(
      text.trim(),
    );
  return a ? a[1]!.replace(/[\s,]+$/, '') : null;
}

/** The subject of a sentence describing the vendor's service: the vendor, "we", or "The <vendor> Software/Platform/Service". */
const serviceSubject = (t: string, ctx: ExtractContext) => {
  const alt = vendorAlt(ctx);
  const names = alt ? `${alt}|` : '';
  return new RegExp(
    String.raw`^(?:the\s+)?(?:(?:${names}we|our company|the company|the provider|the data importer)(?:['’]s?)?(?:\s+(?:software|platform|services?|cloud|solution|product))?|the\s+(?:platform|service|services|software|solution)|our\s+(?:proprietary\s+|own\s+)?(?:platform|service|software|solution))\b`,
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
export const description: Rule = (_c, ss, ctx) => {
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
    let what: RegExpExecArray | null;
    const t = clean(s.text)
      .replace(/^Activities relevant to the data transferred under these Clauses:\s*/i, '')
      // A DPA annex's label before the sentence ("Description of processing: X Web is a cloud-based interface for …").
      .replace(/^\|?\s*(?:description of (?:the )?(?:processing|services?)|nature of (?:the )?(?:processing|services?))\s*(?::|\|)\s*/i, '')
      .replace(/\s*\|\s*$/, '');
    if (t.length < 30 || t.length > 600) continue;
    // A recital: "WHEREAS the Supplier provides software-as-a-service solutions for document management", "Whereas the Parties have
    // agreed that Vendor will provide services to Customer in the field of software licensing, payments and analytics".
    const recital =
      /^whereas\b[^.;]{0,80}?\b(?:provides|offers|develops|operates|(?:will|shall) provide)\b[^.;]{0,60}?\b(?:services?|platform|software|solutions?)\b[^.;]{0,40}?\b(?:in the (?:field|area) of|for|consisting of|relating to)\s+([^.;]+)/i.exec(
        t,
      );
    if (recital && !/^(?:the )?(?:term|duration|period|purposes?|fees?|customer|client)\b/i.test(recital[1]!) && saysWhatItDoes(recital[1]!, alt)) {
      out.push(found(s, t, 0.65));
      continue;
    }
    // A label line of an order form: "Platform Description: X Keycloak user authentication and SSO service".
    if (/^(?:platform|service|services|product|solution)\s+description\s*:\s*\S/i.test(t) && SERVICE_NOUN.test(t.slice(t.indexOf(':')))) {
      out.push(found(s, t, 0.75));
      continue;
    }
    if (/^(?:Data importer:\s*)?The data importer is\s+[^.]{2,60}?,\s+an?\s+[^.]{0,100}\b(provider|producer|developer|vendor|supplier)\s+of\b/i.test(t)) {
      out.push(found(s, t.replace(/^Data importer:\s*/i, ''), 0.75));
      continue;
    }
    // "“Keboola Connection” means …", "The “_Artie Services_” is a technology platform that …".
    const def =
      /^(?:\d+(?:\\?\.\d+)*\\?\.?\s+)?[“"]([^”"]{2,40})[”"](?:\s+or\s+[“"][^”"]{1,20}[”"])?\s+(?:means|shall mean|refers to)\s+(.{20,})$/.exec(t) ??
      /^(?:\d+(?:\\?\.\d+)*\\?\.?\s+)?The\s+[“"]_?([^”"_]{2,40})_?[”"]\s+is an?\s+(.{20,})$/.exec(t);
    // "“Keboola Connection” or “KBC” means Keboola’s subscription-based software-as-a-service …": a term
    // the vendor's own service is, by the possessive that starts its definition.
    const possessive = !!def && !!alt && new RegExp(String.raw`^(?:${alt})['’]s\s`, 'i').test(def[2]!);
    if (
      def &&
      (possessive ||
        (/\b(services?|platform|software|solution|subscription service)$/i.test(def[1]!) &&
          !/\b(third[- ]party|non-|customer|your)\b/i.test(def[1]!) &&
          ownLabel(def[1]!)))
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
    // "Simptel processes Customer Personal Data only for the provision of the TF Platform, an identity and security platform."
    if (
      vendorSubject(t, ctx) &&
      /\b(?:for|of) the provision of (?:the |its |our )?[A-Z][^,.;]{1,60},\s+an?\s+[^.;]{0,80}?\b(platform|service|software|solution|system|application)\b/.test(
        t,
      )
    ) {
      out.push(found(s, t, 0.65));
      continue;
    }
    // A DPA annex's purpose of processing that says what the service does: "Purpose(s) for which the personal data is
    // processed on behalf of the controller: providing the Customer with privacy-first, aggregate usage analytics for its applications".
    const purpose =
      /^(?:nature and )?purposes?(?:\(s\))?\b[^:]{0,80}:\s*(?:to provide|providing|the provision of)\s+(?:the customer|customer|you|the controller|controller)\s+with\s+([^.;]{10,})/i.exec(
        t,
      );
    if (purpose && !/^(?:the |its |our )?(?:services?|platform|subscription)\b/i.test(purpose[1]!)) {
      out.push(found(s, t, 0.6));
      continue;
    }
    // "The Services consist of Acme's cloud-based document management software and related support".
    if (
      alt &&
      new RegExp(
        String.raw`^(?:the\s+)?(?:services?|platform|subscription services?)\s+(?:consists? of|comprises?|compris(?:e|es) of)\s+(?:the\s+)?(?:${alt})['’]s?\b[^.]{0,80}\b(platform|service|software|solution|application)\b`,
        'i',
      ).test(t)
    ) {
      out.push(found(s, t, 0.7));
      continue;
    }
    // "Services refer to the DecisionRules software platform, its features …": a definition without quotes naming the vendor's platform.
    if (
      alt &&
      new RegExp(
        String.raw`^(?:the\s+)?(?:services?|platform)\s+(?:refers?\s+to|means?)\s+(?:the\s+|its\s+)?(?:${alt})\b[^.]{0,40}\b(platform|service|software|solution|application|APIs?)\b`,
        'i',
      ).test(t)
    ) {
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
    // "Our proprietary platform (the “Platform”) enables users (such as yourself) to create, distribute, and manage AI-powered surveys".
    else if (
      new RegExp(
        String.raw`^(?:(?:our|the)\s+(?:proprietary\s+|own\s+)?(?:(?:${alt || 'we'})\s+)?(?:platform|service|software|solution)\b[^.]{0,40}?|(?:${alt || 'we'})\s+)\b(?:enables|allows|lets|helps)\s+(?:users|you|customers|businesses|organi[sz]ations|teams|companies|developers|enterprises)\b[^.]{0,40}?\b(?:to\s+)?(?!use\b)[a-z]{3,}\s+\w+`,
        'i',
      ).test(t) &&
      saysWhatItDoes(t, alt)
    )
      out.push(found(s, t, 0.7));
    else if (
      (what =
        /^.{0,80}?\b(is|provides|operates|offers|has developed|develops|represents|delivers|is a company (?:created|formed|founded) to provide|(?<=\bwe\s+)(?:provide|operate|offer|develop|deliver)|(?:will|shall) provide(?: (?:the )?(?:customer|client|licensee|you) with)?(?: access to)?(?= (?:its|our) ))\s+(?!to\b)(an?|the|its|our)?\s*([^.]{0,160}?)\b(platform|service|software|solution|system|tool|application|hosting|interface|engine)s?\b(?!\s+(?:monitoring|levels?|credits?|desk|availability|interruptions?|requests?|tickets?|updates?|outages?))/i.exec(
          t,
        )) &&
      !/\b(may|might|reserves?|shall not|will not|is not|does not|liable|responsible|warrant|discretion)/i.test(t.slice(0, 120)) &&
      !NOT_A_DESCRIPTION.test(t) &&
      // "will provide the Customer with access to its Service" names no kind of service: a word must say which.
      (!/^(?:will|shall) provide/i.test(what[1]!) || /\w/.test(what[3]!)) &&
      saysWhatItDoes(t, alt)
    )
      out.push(found(s, t, 0.7));
  }
  return out;
};

/** Contract formulas that name the service without saying what it is: acceptance, trials "as is", a defined party. */
const NOT_A_DESCRIPTION =
  /\bwilling to (provide|license|grant|make)\b|\bupon the condition\b|\b(as is|as available)\b|\bwithout (any )?warrant|\b(trial|proof of concept|beta)\b[^.]{0,40}\bbasis\b|\bas defined in\b|\b(strives?|aims?|endeavou?rs?) to\b|\b(stores?|collects?|process(es)?|retains?|deletes?) (only )?(the |your |personal |any |customer )?(data|information)\b/i;
/** Words that say nothing of what a service does ("The platform is used to provide the Service for the User"). */
const EMPTY_WORDS =
  /^(the|a|an|and|or|of|to|for|by|with|in|on|at|its|our|your|their|this|that|these|those|is|are|be|been|used|uses|use|using|provide|provides|provided|providing|offer|offers|offered|operate|operates|operated|make|makes|made|available|users?|customers?|clients?|you|we|us|it|all|any|such|other|which|who|as|from|terms|service|services|platform|software|solution|system|tool|application|product|products)$/i;
/** A description names at least two words about what the service does, besides the vendor's name and the generic ones. */
function saysWhatItDoes(t: string, alt: string): boolean {
  const own = alt ? new RegExp(`^(?:${alt})$`, 'i') : null;
  const words = t
    .replace(/[“”"'’(),.;:!?]/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length >= 3 && !EMPTY_WORDS.test(w) && !own?.test(w));
  return words.length >= 2;
}

/** EBA service types named by keywords, only in a sentence describing the vendor's own service. */
const SERVICE_KEYWORDS: [keyof typeof ICT_SERVICE_TYPES, RegExp][] = [
  ['S19', /\b(software[- ]as[- ]a[- ]service|SaaS)\b/i],
  ['S18', /\b(platform[- ]as[- ]a[- ]service|PaaS)\b/i],
  ['S17', /\b(infrastructure[- ]as[- ]a[- ]service|IaaS)\b/i],
  ['S10', /\btelecom(munications)? carrier\b/i],
  ['S06', /\bdata analy(sis|tics) services?\b/i],
];
/** A service offered either hosted or installed ("Artie Connectors (SaaS or On-Prem)"): the type depends on the order, not settled. */
const EITHER_DEPLOYMENT =
  /\b(SaaS|software[- ]as[- ]a[- ]service|cloud|hosted)\s+(or|and\/or)\s+(on[- ]?prem(ise|ises)?|self[- ]hosted|installed)\b|\b(on[- ]?prem(ise|ises)?|self[- ]hosted)\s+(or|and\/or)\s+(SaaS|cloud|hosted)\b/i;
export const ictServiceType: Rule = (content, ss, ctx) => {
  const out: Found[] = [];
  for (const f of description(content, ss, ctx, '')) {
    const t = clean(content.slice(f.start, f.end));
    if (EITHER_DEPLOYMENT.test(t)) continue;
    const typed = SERVICE_KEYWORDS.filter(([, re]) => re.test(t));
    for (const [code] of typed) out.push({ ...f, value: code, strength: 0.8 });
    // The service described without its type: why the field stays open (a value found elsewhere wins).
    if (!typed.length)
      out.push({
        value: null,
        start: f.start,
        end: f.end,
        strength: 0.5,
        open: 'the documents describe the service but do not name its type (SaaS, PaaS or IaaS)',
      });
  }
  for (const s of ss) {
    const t = clean(s.text);
    // "The Customer obtains a right to access and use the Software in the form of a SaaS": the vendor's software, provided as a service.
    if (
      /\b(the|its|our) (software|platform|service|solution)\b[^.]{0,60}\b(in the form of|as|on) an? (SaaS|software[- ]as[- ]a[- ]service)\b/i.test(t) &&
      !/\bthird[- ]party\b/i.test(t)
    ) {
      out.push(found(s, 'S19', 0.7));
      continue;
    }
    // "This SaaS Service Agreement governs your use of the software-as-a-service solution identified below".
    if (
      /\b(?:governs?|for)\s+(?:your\s+|the\s+customer['’]s\s+)?(?:use of|access to)\s+the\s+(?:software[- ]as[- ]a[- ]service|SaaS)\s+(?:solution|service|platform|offering|product)\b/i.test(
        t,
      )
    ) {
      out.push(found(s, 'S19', 0.75));
      continue;
    }
    // "a right to remotely access and use the Sokkel SaaS services": the vendor's own services named as SaaS.
    const alt = vendorAlt(ctx);
    if (
      alt &&
      new RegExp(
        String.raw`\b(?:the|its|our)\s+(?:${alt})\s+(?:SaaS|software[- ]as[- ]a[- ]service)\s+(?:services?|platform|solutions?|offerings?|products?)\b`,
        'i',
      ).test(t)
    ) {
      out.push(found(s, 'S19', 0.75));
      continue;
    }
    // "X provides X Software as a service", "provided to You on X's proprietary software as a service basis".
    if (!serviceSubject(t, ctx) || !/\b(provides?|provided|operates|offers|basis|delivers)\b/i.test(t)) continue;
    if (/\b(is an?|provides|operates|offers|has developed)\b/i.test(t) && description(content, [s], ctx, '').length) continue;
    for (const [code, re] of SERVICE_KEYWORDS) if (re.test(t) && !/\bthird[- ]party\b/i.test(t)) out.push(found(s, code, 0.75));
  }
  return out;
};

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
