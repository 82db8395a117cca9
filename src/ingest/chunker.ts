import type { Block } from '../domain/blocks.js';

export interface ChunkOptions {
  /** Target maximum characters of a chunk. */
  size: number;
  /** Characters of the previous chunk of the same section repeated at the start of the next. */
  overlap: number;
}

export interface ChunkDraft {
  index: number;
  /** Heading path, `A > B > C` (empty when the text is above any heading). */
  section: string;
  content: string;
  page: number | null;
  pageEnd: number | null;
}

interface Unit {
  text: string;
  page: number | null;
}

const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/** A line that starts a point of a list, a table row, a heading, a numbered clause or a `Label: value` field. */
const LINE_START = /^\s*(?:[-*•|#>]|\(?(?:\d{1,3}|[a-z]|[ivxlc]{1,6})[.)]\s|\p{Lu}[^.:;\n]{0,80}:(?:\s|$))/u;
/** Shortest line taken as wrapped: a shorter one ends where its writer ended it ("Name: 37signals LLC"). */
const WRAP_MIN = 50;

/**
 * The text with each line break that only wraps a sentence replaced by a space, the same length
 * as the text (hard-wrapped plain text and PDF conversions): the line is long, ends without a full
 * stop, colon or semicolon, and the next line starts no point of a list, table row, numbered
 * clause or `Label:` field. Intl.Segmenter ends a sentence at every line break; the sentences are
 * found in this text and cut from the original, which keeps its lines.
 */
function wrapsMasked(text: string): string {
  const lines = text.split('\n');
  let out = lines[0]!;
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1]!.trimEnd();
    const next = lines[i]!;
    const wrapped = prev.length >= WRAP_MIN && !/[.!?:;|]$/.test(prev) && next.trim() !== '' && !LINE_START.test(next);
    out += `${wrapped ? ' ' : '\n'}${next}`;
  }
  return out;
}

/** Splits a text longer than `size` into pieces at sentence, then word boundaries. */
function splitLong(text: string, size: number): string[] {
  if (text.length <= size) return [text];
  const pieces: string[] = [];
  for (const { index, segment } of sentenceSegmenter.segment(wrapsMasked(text))) {
    // The sentence as written, with the line breaks that wrap it.
    const s = text.slice(index, index + segment.length).trim();
    if (!s) continue;
    if (s.length <= size) {
      pieces.push(s);
      continue;
    }
    let rest = s;
    while (rest.length > size) {
      let cut = rest.lastIndexOf(' ', size);
      if (cut < size * 0.5) cut = size;
      pieces.push(rest.slice(0, cut).trim());
      rest = rest.slice(cut).trim();
    }
    if (rest) pieces.push(rest);
  }
  return pieces;
}

/** The end of `text`, at most `overlap` characters, starting at a sentence or word boundary. */
function tail(text: string, overlap: number): string {
  if (overlap <= 0 || !text) return '';
  if (text.length <= overlap) return text;
  const sentences = [...sentenceSegmenter.segment(text)].map((s) => s.segment);
  let out = '';
  for (let i = sentences.length - 1; i >= 0; i--) {
    const next = sentences[i]! + out;
    if (next.trim().length > overlap) break;
    out = next;
  }
  if (out.trim()) return out.trim();
  const slice = text.slice(text.length - overlap);
  const sp = slice.indexOf(' ');
  return (sp >= 0 ? slice.slice(sp + 1) : slice).trim();
}

/** Changes when the same blocks would be cut differently: part of a document's index fingerprint. */
export const CHUNKING_VERSION = 3;

/** A point of a list: `(d) where …`, `(iv) …`, `b) …`, `- …`, `• …`. */
const LIST_POINT = /^(?:\((?:[a-z]{1,2}|[ivxlc]{1,6}|\d{1,3})\)|[a-z]\)|[-*•])\s/i;
/** A lead-in that introduces a list (`… in any of the following circumstances:`). */
export const LEAD_IN = /:\s*$/;

/** The lead-ins of a stored chunk that a point of their list follows (its units are joined by blank lines). */
export function leadInsOf(content: string): string[] {
  const units = content.split('\n\n');
  return units.filter((u, i) => LEAD_IN.test(u) && LIST_POINT.test(units[i + 1] ?? ''));
}

/**
 * Cuts blocks into chunks. A chunk never spans two sections (heading paths): blocks of
 * one section are packed together up to `size` characters, a block longer than that is
 * split at sentence and then word boundaries, and each chunk after the first of a
 * section starts with the last `overlap` characters (whole sentences where possible)
 * of the one before. A chunk that starts inside a list starts with the list's lead-in
 * (at most a third of `size`) before that overlap: a point of a list means little
 * without it ("(d) where the competent authority can no longer …" of "… may be terminated
 * in any of the following circumstances:"). Pages are the first and last page the chunk's
 * own text covers.
 */
export function chunkBlocks(blocks: Block[], opts: ChunkOptions): ChunkDraft[] {
  const size = Math.max(100, opts.size);
  const overlap = Math.max(0, Math.min(opts.overlap, Math.floor(size / 2)));
  const out: ChunkDraft[] = [];

  // Consecutive blocks with the same heading path form a section.
  const sections: { section: string; units: Unit[] }[] = [];
  for (const b of blocks) {
    const section = b.headings.join(' > ');
    const last = sections[sections.length - 1];
    const units = splitLong(b.text, size - overlap).map((text) => ({ text, page: b.page ?? null }));
    if (last && last.section === section) last.units.push(...units);
    else sections.push({ section, units });
  }

  for (const { section, units } of sections) {
    let parts: Unit[] = [];
    let prefix = '';
    let length = 0;
    // The lead-in of the list the last unit belongs to (null outside a list).
    let lead: string | null = null;
    const emit = () => {
      if (!parts.length) return;
      const body = parts.map((p) => p.text).join('\n\n');
      const content = prefix ? `${prefix}\n\n${body}` : body;
      const pages = parts.map((p) => p.page).filter((p): p is number => p !== null);
      out.push({ index: out.length, section, content, page: pages.length ? Math.min(...pages) : null, pageEnd: pages.length ? Math.max(...pages) : null });
      if (lead !== null && lead.length <= size / 3) {
        // The overlap is taken from the points after the lead-in, which comes first.
        const texts = parts.map((p) => p.text);
        const at = texts.lastIndexOf(lead);
        const points = tail(at >= 0 ? texts.slice(at + 1).join('\n\n') : body, overlap);
        prefix = points ? `${lead}\n\n${points}` : lead;
      } else {
        prefix = tail(body, overlap);
      }
      parts = [];
      length = prefix.length;
    };
    for (const u of units) {
      const add = u.text.length + (parts.length || prefix ? 2 : 0);
      if (parts.length && length + add > size) emit();
      parts.push(u);
      length += u.text.length + 2;
      if (LEAD_IN.test(u.text)) lead = u.text;
      else if (!LIST_POINT.test(u.text)) lead = null;
    }
    emit();
  }
  return out;
}

/** A stored chunk as `blocksFromChunks` reads it. */
export interface StoredChunk {
  chunkIndex: number;
  section: string;
  content: string;
  page: number | null;
}

/**
 * The text of a document back from its chunks (the reverse of `chunkBlocks`), for reading: the
 * chunks in order, cut at the blank lines that join their units, each chunk's start that repeats
 * the chunk before (the list's lead-in and the overlap) left out, headings from the section path.
 * A block longer than a chunk comes back as the pieces it was cut into; pages are the chunk's
 * first page. Used where the original is not kept or is costly to parse again (GET /documents/:id).
 */
export function blocksFromChunks(stored: StoredChunk[], opts: ChunkOptions): Block[] {
  const size = Math.max(100, opts.size);
  const overlap = Math.max(0, Math.min(opts.overlap, Math.floor(size / 2)));
  // A repeated start is at most the lead-in (a third of a chunk) and the overlap, with their separators.
  const maxRepeat = Math.floor(size / 3) + overlap + 8;
  const out: Block[] = [];
  let section: string | null = null;
  let seen = new Set<string>();
  let recent: string[] = [];
  for (const c of [...stored].sort((a, b) => a.chunkIndex - b.chunkIndex)) {
    if (c.section !== section) {
      section = c.section;
      seen = new Set();
      recent = [];
    }
    const headings = c.section ? c.section.split(' > ') : [];
    const parts = c.content.split('\n\n');
    let i = 0;
    let skipped = 0;
    if (recent.length) {
      while (i < parts.length - 1) {
        const p = parts[i]!;
        const repeat = seen.has(p) || recent.some((u) => u.endsWith(p));
        if (!repeat || skipped + p.length > maxRepeat) break;
        skipped += p.length + 2;
        i++;
      }
    }
    for (const text of parts.slice(i)) {
      if (!text.trim()) continue;
      out.push({ text, headings, ...(c.page !== null ? { page: c.page } : {}) });
      seen.add(text);
      recent.push(text);
      if (recent.length > 12) recent.shift();
    }
  }
  return out;
}
