/**
 * Dates and sizes as an analyst reads them: in the browser's languages (`navigator.languages`:
 * "27 Nov 2026, 14:05" for en-GB, "27.11.2026, 14:05" for de-DE, day first for European users),
 * no library. Exports keep ISO 8601 (docs/dashboard.md, "Dates").
 */
const locales = typeof navigator !== 'undefined' && navigator.languages?.length ? [...navigator.languages] : undefined;
const dateTime = new Intl.DateTimeFormat(locales, { dateStyle: 'medium', timeStyle: 'short' });
// A calendar date (YYYY-MM-DD) is the same day everywhere: formatted in UTC, where it was written.
const dateOnly = new Intl.DateTimeFormat(locales, { dateStyle: 'medium', timeZone: 'UTC' });
const dayShort = new Intl.DateTimeFormat(locales, { day: 'numeric', month: 'short', timeZone: 'UTC' });
const rel = new Intl.RelativeTimeFormat(locales, { numeric: 'auto' });

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '—' : dateTime.format(d);
}

/** A calendar date (`2026-12-31`, or the date part of an ISO time) in the reader's locale. */
export function formatDate(date: string | null | undefined): string {
  if (!date) return '—';
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : dateOnly.format(d);
}

/** A day of a chart's axis: "27 Nov" (en-GB), "Nov 27" (en-US). */
export function formatDay(date: string): string {
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : dayShort.format(d);
}

export function timeAgo(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const s = Math.round((new Date(iso).getTime() - now) / 1000);
  const a = Math.abs(s);
  if (a < 45) return 'just now';
  if (a < 3600) return rel.format(Math.round(s / 60), 'minute');
  if (a < 86400) return rel.format(Math.round(s / 3600), 'hour');
  if (a < 30 * 86400) return rel.format(Math.round(s / 86400), 'day');
  return formatDateTime(iso);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
