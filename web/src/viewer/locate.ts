/**
 * Finds a quoted passage in a document's blocks (docs/dashboard.md, "The document viewer"). The
 * passage may be a whole chunk (which starts with a lead-in or the end of the chunk before), a
 * sentence of it, or a quote cut with "…"; the blocks may differ from it in spaces, quotes and
 * dashes. Both are compared folded (lower case, one space, straight quotes); the passage is
 * looked for whole, else sentence by sentence, and the densest run of found sentences wins, so
 * a lead-in repeated from further up does not stretch the highlight.
 */
export interface Position {
  block: number;
  offset: number;
}
/** From `start` to `end` (exclusive), in the blocks' own text. */
export interface Span {
  start: Position;
  end: Position;
}

const FOLD: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
  '\u2026': '...',
  '\u00ad': '',
};

/** The folded text of the blocks and, for each of its characters, the block and offset it comes from. */
function folded(blocks: string[]) {
  let text = '';
  const block: number[] = [];
  const offset: number[] = [];
  const push = (s: string, b: number, o: number) => {
    for (const ch of s) {
      if (ch === ' ' && (text.length === 0 || text.endsWith(' '))) continue;
      text += ch;
      block.push(b);
      offset.push(o);
    }
  };
  blocks.forEach((t, b) => {
    for (let o = 0; o < t.length; o++) {
      const ch = t[o]!;
      push(/\s/.test(ch) ? ' ' : (FOLD[ch] ?? ch.toLowerCase()), b, o);
    }
    push(' ', b, t.length);
  });
  return { text, block, offset };
}

export function fold(s: string): string {
  return folded([s]).text.trim();
}

const MIN_PIECE = 12;
/** Found pieces further apart than this are not one passage. */
const GAP = 300;

/** Where `passage` is in `blocks`, or null. */
export function locate(blocks: string[], passage: string): Span | null {
  const doc = folded(blocks);
  const p = fold(passage)
    .replace(/^(\.\.\.\s*)+|(\s*\.\.\.)+$/g, '')
    .trim();
  if (p.length < 4) return null;
  const at = (from: number, to: number): Span => ({
    start: { block: doc.block[from]!, offset: doc.offset[from]! },
    end: { block: doc.block[to - 1]!, offset: doc.offset[to - 1]! + 1 },
  });
  const whole = doc.text.indexOf(p);
  if (whole >= 0) return at(whole, whole + p.length);

  // Sentence by sentence (and the parts of a quote cut with "…").
  const pieces = p
    .split(/\.\.\.|(?<=[.!?;:])\s+/)
    .map((x) => x.trim())
    .filter((x) => x.length >= MIN_PIECE);
  const found: [number, number][] = [];
  let from = 0;
  for (const piece of pieces) {
    let i = doc.text.indexOf(piece, from);
    if (i < 0) i = doc.text.indexOf(piece);
    if (i < 0) continue;
    found.push([i, i + piece.length]);
    from = i + piece.length;
  }
  if (found.length) {
    found.sort((a, b) => a[0] - b[0]);
    let best: [number, number, number] = [found[0]![0], found[0]![1], 0];
    let cur: [number, number, number] = [found[0]![0], found[0]![1], found[0]![1] - found[0]![0]];
    for (const [s, e] of found.slice(1)) {
      if (s - cur[1] <= GAP) cur = [cur[0], Math.max(cur[1], e), cur[2] + (e - s)];
      else {
        if (cur[2] > best[2]) best = cur;
        cur = [s, e, e - s];
      }
    }
    if (cur[2] > best[2]) best = cur;
    return at(best[0], best[1]);
  }

  // Nothing verbatim (a paraphrase, a re-indexed document): the block that shares most of its words.
  const words = new Set(p.match(/[\p{L}\p{N}]{4,}/gu) ?? []);
  if (words.size < 3) return null;
  let bestBlock = -1;
  let bestShare = 0;
  blocks.forEach((b, i) => {
    const own = new Set(fold(b).match(/[\p{L}\p{N}]{4,}/gu) ?? []);
    let n = 0;
    for (const w of words) if (own.has(w)) n++;
    const share = n / words.size;
    if (share > bestShare) {
      bestShare = share;
      bestBlock = i;
    }
  });
  return bestShare >= 0.6 ? { start: { block: bestBlock, offset: 0 }, end: { block: bestBlock, offset: blocks[bestBlock]!.length } } : null;
}
