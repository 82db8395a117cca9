import { stemmer } from 'stemmer';
import stopword from 'stopword';

/**
 * Text analysis shared by the extractive generator and the answer validator:
 * sentence splitting (Intl.Segmenter), content terms (English stop words removed,
 * Porter stems) and figures (numbers that must be found in a source verbatim).
 */

const STOP = new Set<string>([
  ...stopword.eng,
  // Question words and fillers that carry no content in a question about documents.
  'what',
  'which',
  'who',
  'whom',
  'whose',
  'when',
  'where',
  'why',
  'how',
  'does',
  'do',
  'did',
  'can',
  'could',
  'should',
  'would',
  'shall',
  'may',
  'might',
  'must',
  'will',
  'tell',
  'explain',
  'describe',
  'please',
  'say',
  'says',
  'according',
  'regarding',
  'about',
  'there',
  'any',
  'also',
  'etc',
  'e.g',
  'i.e',
  'often',
  'quickly',
  'soon',
  'much',
  'many',
  'long',
  'apply',
  'applies',
  'happen',
  'happens',
  'get',
  'gets',
  'mean',
  'means',
  'know',
]);

/** Lower-case word tokens (letters, digits, inner dots/hyphens kept inside numbers like 99.9). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:[.,][\p{N}]+)*/gu) ?? [];
}

/**
 * A copy of a string that holds no reference to the text it was cut from. V8 keeps a
 * substring of 13 characters or more (a regular expression's match) as a view of its
 * whole text: kept in a cache, one word would keep a whole document alive.
 */
const ownString = (s: string): string => (s.length < 13 ? s : ` ${s}`.slice(1));

/** Longest word a per-word cache keeps (longer runs of letters are not words, and are rare). */
const CACHED_WORD_MAX = 48;

/**
 * `compute` of a word, kept by word: texts repeat their words, and computing each once per
 * process instead of once per occurrence keeps the answer path cheap. At most `max` words
 * (emptied when full), none longer than CACHED_WORD_MAX, each kept as its own copy.
 */
export function perWord<T>(compute: (word: string) => T, max = 100_000): (word: string) => T {
  const memo = new Map<string, T>();
  return (word) => {
    const hit = memo.get(word);
    if (hit !== undefined) return hit;
    if (word.length > CACHED_WORD_MAX) return compute(word);
    // Computed from the copy: neither the word nor what is derived from it may keep its text.
    const own = ownString(word);
    const value = compute(own);
    if (memo.size >= max) memo.clear();
    memo.set(own, value);
    return value;
  };
}

/** The term of a word (null: a stop word or a single letter). */
const termOf = perWord((w: string): string | null => (STOP.has(w) ? null : /^\p{N}/u.test(w) ? w : w.length < 2 ? null : stemmer(w)));

/** Stemmed content terms of a text, in order (duplicates kept). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    const t = termOf(w);
    if (t !== null) out.push(t);
  }
  return out;
}

export function termSet(text: string): Set<string> {
  return new Set(terms(text));
}

/**
 * Figures of a text: numbers with a digit (`72`, `99.9`, `2022`), normalised. Citation
 * markers and list numbering must be removed from the text before calling this.
 */
export function figures(text: string): string[] {
  const found = text.match(/\d+(?:[.,]\d+)*/g) ?? [];
  return [...new Set(found.map((f) => f.replace(/,(?=\d{3}\b)/g, '')))];
}

/** The marker of a point of a list at the start of a line: `- `, `* `, `1. `, `(a) `. */
const LIST_MARKER = /^(\s*(?:[-*+•]|\d{1,3}[.)]|\(?[a-z]\))\s+)/gm;

/** Turns Markdown/HTML/Liquid source text into plain prose before it is split into sentences. */
export function plainText(text: string): string {
  return text
    .replace(/^---\n[\s\S]*?\n---\n/, '') // YAML front matter
    .replace(/\{%[\s\S]*?%\}|\{\{[\s\S]*?\}\}/g, ' ') // Liquid
    .replace(/<\/?(br|p|div|li|ul|ol|h\d|tr|td|th|table)\b[^>\n]{0,200}>/gi, '\n\n') // block tags break paragraphs
    .replace(/<[^>\n]{1,200}>/g, ' ') // other HTML tags
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ') // images
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1') // links -> text
    .replace(/^\s{0,3}#{1,6}\s+(.*)$/gm, '\n$1.\n') // headings are sentences of their own
    .replace(LIST_MARKER, '\n') // list items start a new paragraph
    .replace(/^\s*>\s?/gm, '') // quotes
    .replace(/^\s*\|.*\|\s*$/gm, (row) => `\n${row.replace(/\|/g, ' ').trim()}.\n`) // table rows
    .replace(/^\s*[-=|: ]{3,}\s*$/gm, '') // rules, table separators
    .replace(/[ \t]+\|[ \t]+/g, '\n\n') // cells of tables written without outer pipes
    .replace(/[*_`]{1,3}([^*_`\n]+)[*_`]{1,3}/g, '$1') // emphasis, code
    .replace(/\.{2,}(?=\s|$)/g, '.')
    .replace(/[ \t]+/g, ' ');
}

/** Marks the paragraphs that were points of a list (`listParagraphs`); never in real text. */
export const ITEM_MARK = '\u2063';
/** How a point of a list is marked: `1.`, `(a)`, `-`. A point marked otherwise than the list's first is not of that list. */
export type ListMarker = 'number' | 'letter' | 'bullet';
const KINDS: ListMarker[] = ['number', 'letter', 'bullet'];
/** Private-use characters after ITEM_MARK that say the marker's kind; never in real text. */
const KIND_MARK: Record<ListMarker, string> = { number: '\uE001', letter: '\uE002', bullet: '\uE003' };
const KIND_MARKS = /[\uE001-\uE003]/g;

/**
 * The plain text's paragraphs, each with whether it was a point of a list ("- Braintree. Payment
 * processing services."): a list goes on over its points, whatever full stops they hold.
 */
export function listParagraphs(text: string): { text: string; item: boolean; marker?: ListMarker }[] {
  const marked = plainText(
    text.replace(LIST_MARKER, (m: string) => `${m}${ITEM_MARK}${KIND_MARK[/\d/.test(m) ? 'number' : /[a-z]/i.test(m) ? 'letter' : 'bullet']}`),
  );
  return marked
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const item = p.startsWith(ITEM_MARK);
      const marker = item ? KINDS.find((k) => p.charAt(1) === KIND_MARK[k]) : undefined;
      const clean = p.replaceAll(ITEM_MARK, '').replace(KIND_MARKS, '').trim();
      return { text: clean, item, ...(marker ? { marker } : {}) };
    })
    .filter((p) => p.text);
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' });

/**
 * Splits text into sentences. Paragraph breaks always end a sentence; line breaks
 * inside a paragraph (PDF conversions) do not.
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const para of text.split(/\n\s*\n/)) {
    const flat = para.replace(/\s*\n\s*/g, ' ').trim();
    if (!flat) continue;
    for (const seg of segmenter.segment(flat)) {
      const s = seg.segment.trim();
      if (s) out.push(s);
    }
  }
  return out;
}

/** Share of `needles` found in `haystack` (1 when there is nothing to find). */
export function coverage(needles: Iterable<string>, haystack: Set<string>): number {
  let n = 0;
  let hit = 0;
  for (const t of new Set(needles)) {
    n += 1;
    if (haystack.has(t)) hit += 1;
  }
  return n === 0 ? 1 : hit / n;
}

export const round2 = (x: number) => Math.round(x * 100) / 100;
