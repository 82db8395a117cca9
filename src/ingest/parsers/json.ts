import type { Block } from '../../domain/blocks.js';
import type { ParsedDocument } from '../types.js';
import { parseDate } from './html.js';

const MAX_DEPTH = 20;
/** Deepest nesting a JSON document may have: deeper levels carry no text the reader uses (MAX_DEPTH), only work and memory. */
export const MAX_JSON_NESTING = 1000;

/**
 * The deepest nesting of a JSON text (arrays and objects, brackets inside strings not
 * counted), scanning no further than a level past `max`: one pass without building
 * anything, so a two-million-deep document costs a few milliseconds instead of two
 * million arrays (about 170 MB) in `JSON.parse`.
 */
export function jsonNesting(text: string, max = MAX_JSON_NESTING): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > max) return deepest;
      }
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return deepest;
}
const TITLE_KEYS = ['title', 'name', 'heading', 'subject'];

function scalar(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

function labelOf(v: unknown): string | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  for (const k of TITLE_KEYS) {
    const s = scalar((v as Record<string, unknown>)[k]);
    if (s && s.length <= 200) return s;
  }
  return null;
}

/**
 * JSON: every object becomes a block of `key: value` lines (nested keys joined by `.`);
 * top-level keys and the elements of top-level arrays open sections, named by their
 * key or by their `title`/`name` field. The document title is the root's `title` or
 * `name`.
 */
export function parseJson(text: string): ParsedDocument {
  const root: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
  const blocks: Block[] = [];

  const lines = (v: unknown, prefix: string, depth: number, out: string[]) => {
    if (depth > MAX_DEPTH) return;
    const s = scalar(v);
    if (s !== null) {
      out.push(prefix ? `${prefix}: ${s}` : s);
      return;
    }
    if (Array.isArray(v)) {
      if (v.every((x) => scalar(x) !== null || x === null)) {
        const items = v.map(scalar).filter((x): x is string => x !== null);
        if (items.length) out.push(prefix ? `${prefix}: ${items.join(', ')}` : items.join(', '));
        return;
      }
      v.forEach((x, i) => lines(x, `${prefix}[${i + 1}]`, depth + 1, out));
      return;
    }
    if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) lines(x, prefix ? `${prefix}.${k}` : k, depth + 1, out);
    }
  };

  const section = (v: unknown, headings: string[]) => {
    const out: string[] = [];
    lines(v, '', 0, out);
    if (out.length) blocks.push({ text: out.join('\n'), headings });
  };

  if (Array.isArray(root)) {
    root.forEach((item, i) => section(item, [labelOf(item) ?? `Item ${i + 1}`]));
  } else if (root && typeof root === 'object') {
    const scalars: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(root)) {
      if (scalar(v) !== null || (Array.isArray(v) && v.every((x) => scalar(x) !== null))) scalars[k] = v;
    }
    if (Object.keys(scalars).length) section(scalars, []);
    for (const [k, v] of Object.entries(root)) {
      if (k in scalars) continue;
      if (Array.isArray(v)) v.forEach((item, i) => section(item, [k, labelOf(item) ?? `${k} ${i + 1}`]));
      else section(v, [k]);
    }
  } else {
    section(root, []);
  }
  const rec = root && typeof root === 'object' && !Array.isArray(root) ? (root as Record<string, unknown>) : {};
  return {
    format: 'json',
    title: labelOf(root) ?? undefined,
    date: parseDate(rec.date ?? rec.effectiveDate ?? rec.effective_date ?? rec.updatedAt),
    pageCount: 1,
    blocks,
  };
}
