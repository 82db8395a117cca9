import { countriesIn } from '../text.js';
import { companyAt, companyRe, keyValues, tableCells, vendorAlt, type Found, type Rule } from './common.js';

/**
 * Subprocessor tables and lists in register drafting: their rows (a Markdown table, a
 * `Key: value; ...` row, a card per subprocessor, a list under a lead-in) read as name,
 * role and location, and the `subcontractors` rule over them (locations.ts reads the
 * hosting provider's row too).
 */

const SUBPROCESSOR = /\bsub[- ]?processors?\b|\bsub-?contractors?\b|\bsub-?processing\b/i;
const NAME_KEY =
  /^(?:name|entity|company|vendor|provider|supplier|sub-?processor|subcontractor|third[- ]party|service provider|organi[sz]ation|legal entity|partner)\b|\b(?:name|entity)\b/i;
const ROLE_KEY = /description|purpose|service|role|function|activit|nature|department|usage|why we use|category of service|type of service/i;
const LOCATION_KEY = /location|country|countries|region|headquarter|jurisdiction|where/i;
/** A location column that says where the processing takes place (not where the company is registered). */
const WHERE_KEY = /process|hosting|hosted|stored|storage|region|sub-processing|location of (data|processing)|data location/i;

/**
 * Columns that make a table a list of processors without saying "subprocessor": a third-party
 * provider or vendor column beside the purpose of the data processing ("Third Party Provider |
 * Data Processing Purpose").
 */
const processorColumns = (header: string[]) =>
  header.some((h) => /^(third[- ]party (provider|service|vendor)s?|service providers?|vendors?)$/i.test(h.trim())) &&
  header.some((h) => /\b(data )?processing\b|\bpersonal data\b/i.test(h));

/** A line that is only a web address ("https://www.intercom.com"). */
const WEB_ADDRESS = /^(https?:\/\/|www\.)\S+$/i;

/** Headings above a section of its own per service: about subprocessors, or third-party services holding personal data. */
const ENTRY_PARENTS = (parents: string[]) =>
  !parents.some((h) => /\bcookie/i.test(h)) &&
  (parents.some((h) => SUBPROCESSOR.test(h)) ||
    (parents.some((h) => /\bthird[- ]party (services|providers)\b|\bservice providers\b/i.test(h)) &&
      parents.some((h) => /\bpersonal (data|information)\b|\bsub-?processors?\b/i.test(h))));

/**
 * A section of its own per service under a subprocessors heading ("Primary Third-Party
 * Sub-processors > Intercom"): the heading names it, its text starts with its web address
 * (and maybe its postal address), then what it does.
 */
function headedEntry(content: string, section: string): SubRow | null {
  const path = section.split(' > ').map((h) => h.trim());
  const name = path.at(-1) ?? '';
  if (path.length < 2 || !ENTRY_PARENTS(path.slice(0, -1))) return null;
  const isCompany = companyAt(name) === name;
  if (name.length > 40 || name.split(/\s+/).length > 5 || !/^[\p{Lu}\d]/u.test(name) || (/[:?.]$/.test(name) && !isCompany)) return null;
  const lines = content.split('\n').map((l) => l.trim());
  const first = lines.findIndex(Boolean);
  if (first < 0) return null;
  // A heading that is a company with its legal form ("Sub-Processors > Google Inc."): its text says what it does
  // (the services listed under "used as a sub-processor for the following services:") and where it is located.
  if (!WEB_ADDRESS.test(lines[first]!)) {
    if (!isCompany) return null;
    const items = lines.filter((l) => /^[*•-]\s+/.test(l)).map((l) => l.replace(/^[*•-]\s+/, ''));
    const located = /\b(?:is|are) (?:located|based|headquartered|established) in ([^.;]{2,60})/i.exec(content);
    const country = located ? countriesIn(located[1]!)[0]?.code : undefined;
    const role = items.length ? items.join('; ') : undefined;
    const start = content.indexOf(lines[first]!);
    return { name, ...(role ? { role } : {}), ...(country ? { country } : {}), where: [], start, end: start + lines[first]!.length, strength: 0.8 };
  }
  let k = first + 1;
  let address: string | undefined;
  if (lines[k] && /\d/.test(lines[k]!) && /,/.test(lines[k]!)) address = lines[k++];
  while (k < lines.length && !lines[k]) k++;
  const role = lines[k] && lines[k]!.length <= 120 && !/^(https?:\/\/|www\.)/i.test(lines[k]!) ? lines[k] : undefined;
  const last = role ?? address ?? lines[first]!;
  const start = content.indexOf(lines[first]!);
  const end = content.indexOf(last, start) + last.length;
  const country = address ? countriesIn(address)[0]?.code : undefined;
  return { name, ...(role ? { role } : {}), ...(country ? { country } : {}), where: [], start, end, strength: 0.8 };
}

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
  // A Markdown link ("[Apollo.io](https://apollo.io)") names its text.
  const written = cell
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  // "Tinybird Data S.L. (Spain)": the country after the name is not part of it.
  const paren = /\s*\(([^()]{2,40})\)$/.exec(written);
  const n = paren && countriesIn(paren[1]!).length && paren.index > 1 ? written.slice(0, paren.index) : written;
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
export function subprocessorRows(content: string, section: string): SubRow[] {
  const entry = headedEntry(content, section);
  if (entry) return [entry];
  const out: SubRow[] = [];
  const lines = content.split('\n');
  let offset = 0;
  let header: string[] | null = null;
  let listCountry: string | undefined;
  let inList = SUBPROCESSOR.test(section) && /:\s*$/.test(section.split(' > ').pop() ?? '');
  const about = (before: string) => (SUBPROCESSOR.test(section) || SUBPROCESSOR.test(before)) && !/\bcookie/i.test(section);
  let last: SubRow | null = null;
  // The labelled items read so far of one subprocessor ("Purpose: …" before its "Provider: …").
  let labelled: { role: string | undefined; loc: string | undefined; row: SubRow | null } | null = null;
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
      if (!header || !(header.some((h) => SUBPROCESSOR.test(h)) || processorColumns(header) || about(content.slice(0, start)))) continue;
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
    if (
      pairs &&
      !pairs.some(([k]) => /cookie/i.test(k)) &&
      (pairs.some(([k]) => SUBPROCESSOR.test(k)) || processorColumns(pairs.map(([k]) => k)) || about(content.slice(0, start)))
    ) {
      // Without a name column, a first column headed "Service" or "Tool" names the subprocessor ("Service: Apollo.io; Location: …").
      const named = pairs.findIndex(([k]) => NAME_KEY.test(k));
      const nameAt = named >= 0 ? named : /^(services?|tools?|platforms?|products?)$/i.test(pairs[0]![0].trim()) ? 0 : -1;
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
      const url = (l: string) => WEB_ADDRESS.test(l);
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
    // A list of labelled items per subprocessor under category items ("- Cloud Infrastructure Providers:", "- Purpose: To host …",
    // "- Provider: Hetzner Online GmbH (Industriestr. 25, …)", "- Location: EU/EEA."): the provider item names it, the purpose
    // and location items before or right after it are its role and place, and a category item is not a name.
    if (inList && marker) {
      const item = marker[1]!.replace(/\*\*|__/g, '').trim();
      if (/^[^:.;]{2,60}:$/.test(item)) {
        labelled = { role: undefined, loc: undefined, row: null };
        continue;
      }
      const kv = /^([A-Za-z][\w /-]{1,30}?):\s+(\S.*)$/.exec(item);
      const key = kv?.[1]?.trim() ?? '';
      const isName = !!kv && NAME_KEY.test(key) && key.split(/\s+/).length <= 3;
      const isRole = !!kv && !isName && /^(?:purpose|role|function|description|activit(?:y|ies)|services?(?: provided)?|processing)$/i.test(key);
      const isLoc = !!kv && !isName && !isRole && /^(?:location|country|region|place of processing|hosting location)$/i.test(key);
      if (isName || isRole || isLoc) {
        const value = kv![2]!.replace(/\.$/, '').trim();
        labelled ??= { role: undefined, loc: undefined, row: null };
        if (isName) {
          const name = companyAt(value) ?? cellName(value.replace(/\s*\(.*$/, ''));
          last = row(name, labelled.role, labelled.loc ?? value, undefined, 0.85);
          labelled = { role: undefined, loc: undefined, row: last };
        } else if (labelled.row && isRole && !labelled.row.role) labelled.row.role = value;
        else if (labelled.row && isLoc && !labelled.row.country) {
          const c = countriesIn(value)[0]?.code;
          if (c) labelled.row.country = c;
        } else if (isRole) labelled = { role: value, loc: labelled.loc, row: null };
        else labelled = { role: labelled.role, loc: value, row: null };
        continue;
      }
    }
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

/**
 * Subprocessor tables (a `Name` column, a location column) and lists ("* [Name](url).
 * Role.") below a sentence that says where they are located. Each item keeps its own row
 * as quote; the field's quote is the first one.
 */
export const subcontractors: Rule = (content, ss, ctx, section) => {
  const rows: Found[] = subprocessorRows(content, section).map((r) => ({
    value: [{ name: r.name, ...(r.role ? { role: r.role } : {}), ...(r.country ? { country: r.country } : {}) }],
    start: r.start,
    end: r.end,
    strength: r.strength,
  }));
  // A sentence naming them, between the verb and "as … processors" ("Keboola engages Amazon Web Services, Inc., Seattle,
  // WA - USA and Snowflake Computing, Inc., San Mateo, CA – USA as another processors"), or after its lead-in ("Acme
  // currently engages the following third-party subprocessors: Microsoft Ireland Operations Limited (hosting, Ireland) and
  // Twilio Inc. (SMS, USA)."): each company with the place written after it, up to the next name, as its country.
  const alt = vendorAlt(ctx);
  const vendor = alt ? new RegExp(`^(?:${alt})\\b`, 'i') : null;
  const named = (list: string) => {
    const names = [...list.matchAll(companyRe())].filter((c) => !vendor?.test(c[0]));
    return names.map((c, i) => {
      const country = countriesIn(list.slice(c.index! + c[0].length, names[i + 1]?.index ?? list.length))[0]?.code;
      return { name: c[0].replace(/\s+/g, ' '), ...(country ? { country } : {}) };
    });
  };
  for (const s of ss) {
    if (rows.some((r) => r.start < s.end && r.end > s.start)) continue;
    for (const re of [ENGAGED_AS, FOLLOWING_LIST]) {
      const m = re.exec(s.text);
      const value = m ? named(m[1]!) : [];
      if (!value.length) continue;
      rows.push({ value, start: s.start, end: s.end, strength: 0.8 });
      break;
    }
  }
  // A cover page's list in one cell or line (Common Paper's DPA): "| Approved Subprocessors | [Cloudflare](…) (US; DNS
  // provider), [Vultr](…) (US; hosting provider), …", stored as "Term: Approved Subprocessors; Value: Cloudflare (US; …), …":
  // each name with its country and role in brackets.
  const lines = content.split('\n');
  let at = 0;
  for (const line of lines) {
    const m = LISTED_IN_CELL.exec(line);
    if (m && !rows.some((r) => r.start < at + line.length && r.end > at)) {
      const value = [...m[1]!.matchAll(NAME_IN_LIST)].map((x) => {
        const [where = '', role] = x[3]!.split(/;\s*/);
        const country = countriesIn(where)[0]?.code;
        return { name: (x[1] ?? x[2]!).trim(), ...(role ? { role: role.trim() } : {}), ...(country ? { country } : {}) };
      });
      if (value.length >= 2) rows.push({ value, start: at, end: at + line.length, strength: 0.8 });
    }
    at += line.length + 1;
  }
  // Under a subprocessors heading, a name with what it does, then the company's address on the next line:
  // "Hetzner: Server Hosting, Link, Privacy policy" + "Hetzner Online GmbH, Industriestr. 25, 91710 Gunzenhausen, Germany".
  if (SUBPROCESSOR_SECTION.test(section)) {
    const cards: Found[] = [];
    let offset = 0;
    for (const [i, line] of lines.entries()) {
      const m = NAME_COLON.exec(line.trim());
      const next = lines[i + 1]?.trim() ?? '';
      if (m && companyAt(next) && !rows.some((r) => r.start <= offset && r.end > offset)) {
        const country = countriesIn(next).at(-1)?.code;
        // What it does, without the links that follow it ("Emails, Newsletter, Link, Privacy policy").
        const role = m[2]!
          .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
          .split(/,\s*/)
          .filter((x) => !/^(link|privacy policy|info|website|terms|dpa)$/i.test(x.trim()))
          .join(', ')
          .trim();
        cards.push({
          value: [{ name: m[1]!.trim(), ...(role ? { role } : {}), ...(country ? { country } : {}) }],
          start: offset,
          end: offset + line.length,
          strength: 0.75,
        });
      }
      offset += line.length + 1;
    }
    if (cards.length >= 2) rows.push(...cards);
  }
  // A pointer to a list kept elsewhere ("A current list of Subprocessors is available at https://…"): why the field stays
  // open when the documents name no subprocessor (a list found in them wins).
  for (const s of ss) {
    if (LIST_ELSEWHERE.test(s.text))
      rows.push({
        value: null,
        start: s.start,
        end: s.end,
        strength: 0.5,
        open: 'the documents point to a subprocessor list kept elsewhere (a web page or trust centre); no subprocessor is named in them',
      });
  }
  return rows;
};

const LIST_ELSEWHERE =
  /\b(list of (our |its |the )?(current |authori[sz]ed |approved )?sub-?processors|sub-?processors? list)\b[^.]{0,80}\b(available|found|published|located|accessible|maintained)\b[^.]{0,40}\b(at|on|via|here|in (our|the) trust)\b|\bsub-?processors\b[^.]{0,40}\b(are )?listed (at|on) (our|the|its) (website|web ?page|site|trust (center|centre|portal))\b/i;

/** A heading of a subprocessor list. */
/** A heading about subprocessors (the rows under it need no lead-in of their own). */
export const SUBPROCESSOR_SECTION = /\bsub-?\s?(processor|contractor)s?\b/i;
/** "Name: what it does" at the start of a line (the name a brand, not a sentence). */
const NAME_COLON = /^\**([A-Z][\w&.'’ -]{1,40}?)\**:\s+(\S.{2,200})$/;

/** A line or table row whose label is the subprocessors and whose value lists them. */
const LISTED_IN_CELL =
  /^\s*(?:\|\s*|[A-Z][^:;|]{0,30}:\s*)?\**(?:approved |authori[sz]ed |current )?sub-?processors\**\s*(?:\||:|;\s*[A-Z][^:;|]{0,30}:)\s*(.{20,})$/i;
/** One name of such a list, a link or plain, with what is in the brackets after it ("(US; hosting provider)"). */
const NAME_IN_LIST = /(?:\[([^\]]{2,60})\]\([^)]*\)|([A-Z][\w&.'’ -]{1,60}?))\s*\(([^()]{2,80})\)/g;

/** The companies listed after a sentence's own lead-in: "engages the following third-party subprocessors: …". */
const FOLLOWING_LIST = /\bthe following (?:[\w-]+ ){0,2}sub[- ]?(?:processors?|contractors?)\b[^:]{0,40}:\s*(.{10,})$/i;

/** Companies engaged as (sub)processors in one sentence: what stands between the verb and "as … processors". */
const ENGAGED_AS =
  /\b(?:engages?|engaged|uses|use|appoints?|appointed|relies on|rely on|has authori[sz]ed|authori[sz]es)\s+(.{10,400}?)\s+as\s+(?:an?\s+|its\s+|our\s+|their\s+)?(?:another|other|additional|further)?\s*(?:sub-?processors?|processors?|sub-?contractors?)\b/i;
