import countries from 'i18n-iso-countries';
import { EEA } from '../../domain/countries.js';

/**
 * Text helpers of the register drafting rules (docs/register-drafting.md): sentences
 * with their exact offsets (a quote is always a slice of the stored passage), numbers
 * written in words or digits, durations to days, dates, and country names to ISO codes.
 */

export interface Sentence {
  text: string;
  start: number;
  end: number;
}

/**
 * Splits a passage into sentences, table rows and list items. Each sentence is the exact
 * slice `content.slice(start, end)` (trimmed of surrounding blanks), so that a quote built
 * from it is verbatim in the passage.
 */
export function sentences(content: string): Sentence[] {
  const out: Sentence[] = [];
  const push = (start: number, end: number) => {
    while (start < end && /\s/.test(content[start]!)) start++;
    while (end > start && /\s/.test(content[end - 1]!)) end--;
    if (end - start >= 3) out.push({ text: content.slice(start, end), start, end });
  };
  // Blocks: paragraphs, and every line of a table or list on its own.
  const lines = content.split('\n');
  let offset = 0;
  let blockStart = -1;
  let blockEnd = -1;
  const flush = () => {
    if (blockStart >= 0) splitProse(content, blockStart, blockEnd, push);
    blockStart = -1;
  };
  for (const line of lines) {
    const lineStart = offset;
    const lineEnd = offset + line.length;
    offset = lineEnd + 1;
    const trimmed = line.trim();
    if (!trimmed) {
      // A blank line inside a sentence (text converted from PDF) does not end it: the block
      // goes on when it stopped mid-sentence and the next line continues it.
      const prev = blockStart >= 0 ? content.slice(blockStart, blockEnd).trimEnd() : '';
      const nextLine = (content.slice(offset).match(/^\s*([^\n]*)/)?.[1] ?? '').trim();
      const midSentence =
        !!nextLine &&
        !/^(\||[*\-+•]\s|#)/.test(nextLine) &&
        ((/[\p{L},\-–]$/u.test(prev) && /^[\p{Ll}(]/u.test(nextLine)) ||
          /(,|\b(to|the|and|or|of|in|a|an|by|for|with|as|at|on|that|which|its|their|our|your))$/i.test(prev));
      if (!midSentence) flush();
      continue;
    }
    if (/^[A-Z][\w ’'()/,-]{2,80}:(\s+\S|\s*<\/?br\s*\/?>\s*$|\s*$)/.test(trimmed) && !/^(\||[*\-+•]\s)/.test(trimmed)) {
      // "Label: value" (Name:, Address:, Activities relevant ...:) starts a block of its own.
      flush();
      blockStart = lineStart;
      blockEnd = lineEnd;
      continue;
    }
    if (/^(\||[*\-+•]\s|\d{1,3}[.)]\s|#{1,6}\s|[A-Z][\w ()/'’-]{0,60}:\s*$)/.test(trimmed)) {
      flush();
      // A list item or table row is one unit; a long list item may hold several sentences.
      if (trimmed.startsWith('|')) push(lineStart, lineEnd);
      else splitProse(content, lineStart, lineEnd, push);
      continue;
    }
    if (blockStart < 0) blockStart = lineStart;
    blockEnd = lineEnd;
  }
  flush();
  return out;
}

const ABBREV =
  /\b(?:\w*str|Inc|Ltd|Corp|Co|No|no|Jr|Sr|St|Ste|Ave|ul|Nr|nr|Apt|Bldg|Blvd|Rd|Str|Pty|U\.S|e\.g|i\.e|etc|vs|Dr|Mr|Ms|Art|Sec|para|approx|B\.V|N\.V|S\.A|[Oo]rg|[Rr]eg|Pte|L\.P|e\.K|K\.K|a\.\s?s|spol|Ltda|Lda|ehf)\.$/;

function splitProse(content: string, start: number, end: number, push: (s: number, e: number) => void) {
  let s = start;
  for (let i = start; i < end; i++) {
    const ch = content[i]!;
    if (ch !== '.' && ch !== '!' && ch !== '?' && ch !== ';') continue;
    const next = content[i + 1];
    if (next !== undefined && i + 1 < end && !/[\s<]/.test(next)) continue;
    // The next sentence starts with a capital, a digit, a quote or a bracket (after any markup).
    let j = i + 1;
    for (;;) {
      while (j < end && /\s/.test(content[j]!)) j++;
      const tag = /^<\/?[a-z][^>\n]{0,80}>/i.exec(content.slice(j, Math.min(end, j + 90)));
      if (!tag) break;
      j += tag[0].length;
    }
    if (j < end && !/[A-Z0-9“"([*_]/.test(content[j]!)) continue;
    if (ch === '.' && ABBREV.test(content.slice(Math.max(start, i - 8), i + 1))) continue;
    if (ch === '.' && /\b[A-Z]\.$/.test(content.slice(Math.max(start, i - 3), i + 1))) continue; // initials, U.S.
    push(s, i + 1);
    s = j;
  }
  push(s, end);
}

const WORD_NUMBERS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fourteen: 14,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  'forty-five': 45,
  fifty: 50,
  sixty: 60,
  ninety: 90,
  'one hundred eighty': 180,
  'one hundred and eighty': 180,
};
const UNIT_DAYS: Record<string, number> = { day: 1, days: 1, week: 7, weeks: 7, month: 30, months: 30, year: 365, years: 365 };

/** `thirty (30) days`, `30 days`, `three months` → { days, text } for every duration in the text. */
export function durations(text: string): { days: number; index: number; length: number }[] {
  const words = Object.keys(WORD_NUMBERS)
    .sort((a, b) => b.length - a.length)
    .join('|');
  const re = new RegExp(
    `\\b(?:(${words})\\s*(?:\\((\\d{1,4})\\))?|(\\d{1,4}))[\\s-]*(?:calendar\\s+|business\\s+)?(days?|weeks?|months?|years?)(?![\\w])`,
    'gi',
  );
  const out: { days: number; index: number; length: number }[] = [];
  for (const m of text.matchAll(re)) {
    const n = m[2] ? Number(m[2]) : m[3] ? Number(m[3]) : WORD_NUMBERS[m[1]!.toLowerCase()]!;
    out.push({ days: n * UNIT_DAYS[m[4]!.toLowerCase()]!, index: m.index!, length: m[0].length });
  }
  return out;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const pad = (n: number) => String(n).padStart(2, '0');
function isoDate(y: number, m: number, d: number): string | null {
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCFullYear() !== y || dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** Dates written as `November 16, 2020`, `16 November 2020` or `2020-11-16`, as YYYY-MM-DD. */
export function dates(text: string): { date: string; index: number }[] {
  const out: { date: string; index: number }[] = [];
  const month = MONTHS.join('|');
  for (const m of text.matchAll(new RegExp(`\\b(${month})\\s+(\\d{1,2}),?\\s+(\\d{4})\\b`, 'gi'))) {
    const d = isoDate(Number(m[3]), MONTHS.indexOf(m[1]!.toLowerCase()) + 1, Number(m[2]));
    if (d) out.push({ date: d, index: m.index! });
  }
  for (const m of text.matchAll(new RegExp(`\\b(\\d{1,2})\\s+(${month})\\s+(\\d{4})\\b`, 'gi'))) {
    const d = isoDate(Number(m[3]), MONTHS.indexOf(m[2]!.toLowerCase()) + 1, Number(m[1]));
    if (d) out.push({ date: d, index: m.index! });
  }
  for (const m of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) {
    const d = isoDate(Number(m[1]), Number(m[2]), Number(m[3]));
    if (d) out.push({ date: d, index: m.index! });
  }
  return out.sort((a, b) => a.index - b.index);
}

const US_STATES = [
  'Alabama',
  'Alaska',
  'Arizona',
  'Arkansas',
  'California',
  'Colorado',
  'Connecticut',
  'Delaware',
  'Florida',
  'Georgia',
  'Hawaii',
  'Idaho',
  'Illinois',
  'Indiana',
  'Iowa',
  'Kansas',
  'Kentucky',
  'Louisiana',
  'Maine',
  'Maryland',
  'Massachusetts',
  'Michigan',
  'Minnesota',
  'Mississippi',
  'Missouri',
  'Montana',
  'Nebraska',
  'Nevada',
  'New Hampshire',
  'New Jersey',
  'New Mexico',
  'New York',
  'North Carolina',
  'North Dakota',
  'Ohio',
  'Oklahoma',
  'Oregon',
  'Pennsylvania',
  'Rhode Island',
  'South Carolina',
  'South Dakota',
  'Tennessee',
  'Texas',
  'Utah',
  'Vermont',
  'Virginia',
  'Washington',
  'West Virginia',
  'Wisconsin',
  'Wyoming',
];

/** Extra names and abbreviations the country list does not hold. */
const ALIASES: Record<string, string> = {
  'united states': 'US',
  'united states of america': 'US',
  'u.s.': 'US',
  'u.s': 'US',
  usa: 'US',
  us: 'US',
  'the us': 'US',
  'united kingdom': 'GB',
  uk: 'GB',
  'u.k.': 'GB',
  'great britain': 'GB',
  england: 'GB',
  'the netherlands': 'NL',
  netherlands: 'NL',
  'south korea': 'KR',
  prc: 'CN',
  "people's republic of china": 'CN',
  'people’s republic of china': 'CN',
  'china mainland': 'CN',
  'mainland china': 'CN',
  'czech republic': 'CZ',
  russia: 'RU',
};

/**
 * Places that stand for their country where a text says where data or a service is: the
 * cities of the usual cloud data centres and the cloud providers' region names ("Europe
 * (Frankfurt)", "US East (N. Virginia)", Azure's "West Europe"). Only names that are not
 * common words; a city alone names its country ("hosted in Frankfurt" → DE).
 */
const PLACES: Record<string, string> = {
  frankfurt: 'DE',
  'frankfurt am main': 'DE',
  berlin: 'DE',
  munich: 'DE',
  nuremberg: 'DE',
  falkenstein: 'DE',
  dublin: 'IE',
  amsterdam: 'NL',
  eemshaven: 'NL',
  'west europe': 'NL',
  'north europe': 'IE',
  london: 'GB',
  paris: 'FR',
  stockholm: 'SE',
  helsinki: 'FI',
  hamina: 'FI',
  zurich: 'CH',
  zürich: 'CH',
  milan: 'IT',
  madrid: 'ES',
  warsaw: 'PL',
  vienna: 'AT',
  copenhagen: 'DK',
  oslo: 'NO',
  brussels: 'BE',
  'st. ghislain': 'BE',
  ashburn: 'US',
  'northern virginia': 'US',
  'n. virginia': 'US',
  'us east': 'US',
  'us west': 'US',
  'east us': 'US',
  'west us': 'US',
  'central us': 'US',
  oregon: 'US',
  ohio: 'US',
  iowa: 'US',
  montreal: 'CA',
  toronto: 'CA',
  mumbai: 'IN',
  tokyo: 'JP',
  'são paulo': 'BR',
  'sao paulo': 'BR',
};

let countryRe: RegExp | null = null;
let countryByName: Map<string, string> | null = null;
function countryIndex() {
  if (countryRe && countryByName) return { re: countryRe, byName: countryByName };
  const byName = new Map<string, string>();
  const names = countries.getNames('en', { select: 'all' }) as Record<string, string[] | string>;
  for (const [code, list] of Object.entries(names)) {
    for (const n of Array.isArray(list) ? list : [list])
      if (
        n.length > 3 ||
        n === 'Chad' ||
        n === 'Peru' ||
        n === 'Fiji' ||
        n === 'Oman' ||
        n === 'Iran' ||
        n === 'Iraq' ||
        n === 'Cuba' ||
        n === 'Mali' ||
        n === 'Togo'
      )
        byName.set(n.toLowerCase(), code);
  }
  for (const [n, c] of Object.entries({ ...ALIASES, ...PLACES })) byName.set(n, c);
  // Names that are also common words or US states are left out (Georgia, Jersey, Chad as a name is rare in contracts).
  byName.delete('georgia');
  byName.delete('jersey');
  const alternatives = [...byName.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // Upper-case abbreviations only in capitals (US, USA, UK); names case-insensitively but starting with a capital.
  countryRe = new RegExp(`(?<![\\w.])(?:${alternatives.join('|')})(?![\\w])`, 'gi');
  countryByName = byName;
  return { re: countryRe, byName };
}

/**
 * The country of a public cloud region named by its code (AWS `eu-central-1`, Google Cloud
 * `europe-west3`, Azure `germanywestcentral`): where a vendor says it hosts "in AWS eu-west-1",
 * that is Ireland. Codes only: a region's display name ("West Europe") is too close to prose.
 */
const CLOUD_REGIONS: Record<string, string> = {
  // AWS
  'us-east-1': 'US',
  'us-east-2': 'US',
  'us-west-1': 'US',
  'us-west-2': 'US',
  'ca-central-1': 'CA',
  'ca-west-1': 'CA',
  'eu-central-1': 'DE',
  'eu-central-2': 'CH',
  'eu-west-1': 'IE',
  'eu-west-2': 'GB',
  'eu-west-3': 'FR',
  'eu-north-1': 'SE',
  'eu-south-1': 'IT',
  'eu-south-2': 'ES',
  'ap-south-1': 'IN',
  'ap-south-2': 'IN',
  'ap-southeast-1': 'SG',
  'ap-southeast-2': 'AU',
  'ap-southeast-3': 'ID',
  'ap-northeast-1': 'JP',
  'ap-northeast-2': 'KR',
  'ap-northeast-3': 'JP',
  'ap-east-1': 'HK',
  'sa-east-1': 'BR',
  'me-south-1': 'BH',
  'me-central-1': 'AE',
  'af-south-1': 'ZA',
  'il-central-1': 'IL',
  // Google Cloud
  'europe-west1': 'BE',
  'europe-west2': 'GB',
  'europe-west3': 'DE',
  'europe-west4': 'NL',
  'europe-west6': 'CH',
  'europe-west8': 'IT',
  'europe-west9': 'FR',
  'europe-west10': 'DE',
  'europe-west12': 'IT',
  'europe-north1': 'FI',
  'europe-central2': 'PL',
  'europe-southwest1': 'ES',
  'us-central1': 'US',
  'us-east1': 'US',
  'us-east4': 'US',
  'us-east5': 'US',
  'us-west1': 'US',
  'us-west2': 'US',
  'us-west3': 'US',
  'us-west4': 'US',
  'us-south1': 'US',
  'northamerica-northeast1': 'CA',
  'northamerica-northeast2': 'CA',
  'southamerica-east1': 'BR',
  'asia-northeast1': 'JP',
  'asia-southeast1': 'SG',
  'australia-southeast1': 'AU',
  'asia-south1': 'IN',
  // Azure
  westeurope: 'NL',
  northeurope: 'IE',
  germanywestcentral: 'DE',
  francecentral: 'FR',
  swedencentral: 'SE',
  uksouth: 'GB',
  ukwest: 'GB',
  switzerlandnorth: 'CH',
  norwayeast: 'NO',
  polandcentral: 'PL',
  italynorth: 'IT',
  eastus: 'US',
  eastus2: 'US',
  westus: 'US',
  westus2: 'US',
  westus3: 'US',
  centralus: 'US',
  southcentralus: 'US',
  northcentralus: 'US',
  canadacentral: 'CA',
  australiaeast: 'AU',
  japaneast: 'JP',
};
/** The region codes as an alternation (for phrases like "in the europe-west1 region", which start in lower case). */
export const CLOUD_REGION_CODES = Object.keys(CLOUD_REGIONS).join('|');
const CLOUD_REGION_RE = new RegExp(`(?<![\\w-])(${CLOUD_REGION_CODES})(?![\\w-])`, 'g');

/** ISO 3166-1 alpha-2 codes of the countries a text names (or its cloud region codes), in order of appearance (no repeats). */
export function countriesIn(text: string): { code: string; index: number; name: string }[] {
  const { re, byName } = countryIndex();
  const out: { code: string; index: number; name: string }[] = [];
  const seen = new Set<string>();
  const regions = [...text.matchAll(CLOUD_REGION_RE)].map((m) => ({ code: CLOUD_REGIONS[m[1]!]!, index: m.index!, name: m[1]! }));
  for (const r of regions) {
    if (seen.has(r.code)) continue;
    seen.add(r.code);
    out.push(r);
  }
  for (const m of text.matchAll(re)) {
    const name = m[0];
    // Abbreviations count only in capitals ("us" is a pronoun).
    if (name.length <= 4 && name !== name.toUpperCase()) continue;
    if (!/^[A-Z]/.test(name) && !/^the\s/i.test(name)) continue;
    const code = byName.get(name.toLowerCase());
    if (!code || seen.has(code)) continue;
    seen.add(code);
    out.push({ code, index: m.index!, name });
  }
  return regions.length ? out.sort((a, b) => a.index - b.index) : out;
}

/** States and provinces of federal countries whose law a contract names instead of the country's. */
const SUBDIVISIONS: Record<string, string[]> = {
  US: US_STATES,
  CA: [
    'Ontario',
    'Quebec',
    'Québec',
    'British Columbia',
    'Alberta',
    'Manitoba',
    'Saskatchewan',
    'Nova Scotia',
    'New Brunswick',
    'Newfoundland and Labrador',
    'Prince Edward Island',
  ],
  AU: ['New South Wales', 'Victoria', 'Queensland', 'South Australia', 'Western Australia', 'Tasmania', 'Australian Capital Territory', 'Northern Territory'],
};

/**
 * The country of a governing-law phrase: a country ("the Federal Republic of Germany",
 * "England and Wales" → GB), or a state or province of a federal country (`State of
 * California` → US, `Province of Ontario` → CA, `New South Wales` → AU).
 */
export function jurisdictionCountry(phrase: string): string | null {
  const c = countriesIn(phrase)[0];
  const sub = Object.entries(SUBDIVISIONS)
    .map(([code, names]) => ({ code, m: new RegExp(`\\b(?:${names.join('|')})\\b`).exec(phrase) }))
    .filter((x) => x.m)
    .sort((a, b) => a.m!.index - b.m!.index)[0];
  if (c && (!sub || c.index <= sub.m!.index)) return c.code;
  return sub ? sub.code : null;
}

/** Adjectives a contract names a country's law by ("Dutch law", "English law"). */
const LAW_ADJECTIVES: Record<string, string> = {
  dutch: 'NL',
  german: 'DE',
  english: 'GB',
  scottish: 'GB',
  irish: 'IE',
  french: 'FR',
  swedish: 'SE',
  swiss: 'CH',
  austrian: 'AT',
  belgian: 'BE',
  danish: 'DK',
  finnish: 'FI',
  norwegian: 'NO',
  spanish: 'ES',
  italian: 'IT',
  polish: 'PL',
  portuguese: 'PT',
  luxembourg: 'LU',
  luxembourgish: 'LU',
  estonian: 'EE',
  czech: 'CZ',
  australian: 'AU',
  canadian: 'CA',
  israeli: 'IL',
  singapore: 'SG',
  singaporean: 'SG',
  indian: 'IN',
  japanese: 'JP',
};
const ADJECTIVE_LAW = new RegExp(
  `\\b(${[...Object.keys(LAW_ADJECTIVES), ...US_STATES.map((n) => n.toLowerCase())].join('|')})\\s+(?:(?:substantive|statutory|material)\\s+)?laws?\\b`,
  'i',
);

/**
 * The country of a law named by its adjective or its state ("Dutch law", "the substantive laws
 * of ..." is `jurisdictionCountry`'s): `Dutch laws` → NL, `English law` → GB, `Delaware law` → US.
 */
export function lawAdjectiveCountry(text: string): { code: string; index: number } | null {
  const m = ADJECTIVE_LAW.exec(text);
  if (!m || !/^[A-Z]/.test(m[1]!)) return null;
  const key = m[1]!.toLowerCase();
  const code = LAW_ADJECTIVES[key] ?? (US_STATES.some((n) => n.toLowerCase() === key) ? 'US' : null);
  return code ? { code, index: m.index } : null;
}

/** Lower-case words of a text, for comparing values loosely. */
export const normalizeText = (s: string) =>
  s
    .toLowerCase()
    .replace(/<[^>]+>/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * A section of terms for another region's or consumers' contracts ("PRC Service Region Terms", "North America Terms",
 * "EEA Consumer Terms"), at any level of a heading path: not what an EU financial entity, a business customer, contracts under.
 */
export function otherCustomersSection(section: string): boolean {
  return section.split(' > ').some((heading) => {
    if (!/\b(terms|addendum|conditions|region)\b/i.test(heading)) return false;
    if (/\bconsumers?\b/i.test(heading)) return true;
    if (/\b(north america|americas|latin america|apac|asia[- ]pacific)\b/i.test(heading)) return true;
    return onlyOutsideEurope(heading);
  });
}

/** Whether a text names countries and all of them lie outside Europe (the EEA, the United Kingdom and Switzerland). */
export function onlyOutsideEurope(text: string): boolean {
  const codes = countriesIn(text).map((c) => c.code);
  return codes.length > 0 && codes.every((c) => !EEA.has(c) && c !== 'GB' && c !== 'CH');
}
