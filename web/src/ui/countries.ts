import { COUNTRY_CODES, COUNTRY_OPTIONS } from '../profile/codes';

/** Other names people type for a country (the list itself has the browser's English names). */
const ALIASES: Record<string, string> = {
  uk: 'GB',
  'great britain': 'GB',
  england: 'GB',
  usa: 'US',
  'united states of america': 'US',
  america: 'US',
  holland: 'NL',
  'the netherlands': 'NL',
  'czech republic': 'CZ',
  deutschland: 'DE',
  espana: 'ES',
  españa: 'ES',
  'south korea': 'KR',
  russia: 'RU',
};

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
const NAMES = COUNTRY_OPTIONS.map((o) => ({ ...o, name: fold(o.label.replace(/ \([A-Z]{2}\)$/, '')) }));

/**
 * The ISO code a typed country means, or null: a code (`DE`), a name (`Germany`, any case and
 * accents), a label of the list (`Germany (DE)`) or a common other name (`UK`). "Germany" is never
 * cut to "GE" (Georgia).
 */
export function countryFromText(text: string): string | null {
  const t = text.trim();
  if (!t) return null;
  const code = /^([A-Za-z]{2})$/.exec(t)?.[1] ?? /\(([A-Z]{2})\)\s*$/.exec(t)?.[1];
  if (code && COUNTRY_CODES.includes(code.toUpperCase())) return code.toUpperCase();
  const f = fold(t);
  return NAMES.find((n) => n.name === f)?.value ?? ALIASES[f] ?? null;
}

/** The options for typed text: names that start with it first, then names that contain it, then a matching code. */
export function countryMatches(text: string, max = 50): { value: string; label: string }[] {
  const f = fold(text);
  if (!f) return COUNTRY_OPTIONS.slice(0, max);
  const starts = NAMES.filter((n) => n.name.startsWith(f));
  const contains = NAMES.filter((n) => !n.name.startsWith(f) && n.name.includes(f));
  const alias = ALIASES[f] ? NAMES.filter((n) => n.value === ALIASES[f]) : [];
  const code = f.length === 2 ? NAMES.filter((n) => n.value === f.toUpperCase()) : [];
  const seen = new Set<string>();
  return [...alias, ...starts, ...contains, ...code].filter((n) => !seen.has(n.value) && seen.add(n.value)).slice(0, max);
}
