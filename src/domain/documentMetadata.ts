/**
 * Document metadata (docs/inventory.md, "Document metadata"): what kind of document it is, from
 * when it applies, until when, and which version; proposed from the text where it states them,
 * editable by an analyst (an edited value is never overwritten by a later sync).
 */
export const DOCUMENT_TYPES = ['contract', 'dpa', 'sla', 'soc_report', 'policy', 'certificate', 'other'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export interface DocumentMetadataValues {
  type: DocumentType | null;
  effectiveDate: string | null;
  expiryDate: string | null;
  version: string | null;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\\.?`;
/** 2025-03-01, March 1, 2025, 1 March 2025. */
const DATE = `(\\d{4}-\\d{2}-\\d{2}|${MONTH}\\s+\\d{1,2},?\\s+\\d{4}|\\d{1,2}\\s+${MONTH},?\\s+\\d{4})`;

/** A date as written in a document, as YYYY-MM-DD; null when it is not a real calendar date. */
export function parseWrittenDate(s: string): string | null {
  const t = s.trim().toLowerCase().replace(/,/g, '');
  let y: number;
  let m: number;
  let d: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  const mdy = /^([a-z]+)\.?\s+(\d{1,2})\s+(\d{4})$/.exec(t);
  const dmy = /^(\d{1,2})\s+([a-z]+)\.?\s+(\d{4})$/.exec(t);
  const month = (name: string) => MONTHS.findIndex((mo) => mo.startsWith(name.slice(0, 3))) + 1;
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (mdy) [y, m, d] = [Number(mdy[3]), month(mdy[1]!), Number(mdy[2])];
  else if (dmy) [y, m, d] = [Number(dmy[3]), month(dmy[2]!), Number(dmy[1])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (m < 1 || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return date.toISOString().slice(0, 10);
}

/** The first date following one of the labels, as YYYY-MM-DD. */
function dateAfter(text: string, labels: string): string | null {
  const re = new RegExp(`(?:${labels})\\s*(?:date)?\\s*(?:is|of|on|from|:|-)?\\s*(?:as of|from|on)?\\s*:?\\s*\\**\\s*${DATE}`, 'i');
  const m = re.exec(text);
  return m ? parseWrittenDate(m[1]!) : null;
}

/** The kind of document from its title first, then from its opening text. */
function typeOf(title: string, head: string): DocumentType | null {
  const rules: [DocumentType, RegExp][] = [
    ['soc_report', /\bSOC\s*[123]\b|service organi[sz]ation control/i],
    ['dpa', /\bdata (protection|processing) (agreement|addendum)\b|\bDPA\b/i],
    ['sla', /\bservice[- ]level (agreement|commitment)s?\b|\bSLA\b/i],
    ['certificate', /\bcertificate\b|\bcertification of\b|\bISO\/IEC 27001:\d{4} certificate/i],
    ['contract', /\b(agreement|terms of service|customer terms|master services|contract)\b/i],
    ['policy', /\bpolicy\b|\bstatement\b|\bprocedure\b/i],
  ];
  for (const text of [title.replace(/[-_]+/g, ' '), head]) {
    for (const [type, re] of rules) if (re.test(text)) return type;
  }
  return null;
}

/**
 * Metadata proposed from a document's title and text: the type from the title (else the
 * opening), the effective date ("Effective date: ...", "Effective as of ...", "Last updated ..."),
 * the expiry ("Valid until ...", "Expires on ...", "Expiry date ..."), the version ("Version
 * 2.1", "v3"). A value the text does not state is null: nothing is guessed.
 */
export function proposeDocumentMetadata(title: string, text: string): DocumentMetadataValues {
  const head = text.slice(0, 20_000);
  const version = /\b(?:version|revision|rev\.)\s*:?\s*v?(\d+(?:\.\d+){0,3})\b/i.exec(head)?.[1] ?? /\bv(\d+(?:\.\d+){1,3})\b/.exec(title)?.[1] ?? null;
  return {
    type: typeOf(title, head.slice(0, 3000)),
    effectiveDate: dateAfter(head, 'effective|last updated|last revised|in force from|dated'),
    expiryDate: dateAfter(head, 'valid until|valid through|expires|expiry|expiration|expiring'),
    version,
  };
}
