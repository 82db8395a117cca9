/**
 * A quoted passage for reading: the hard line breaks of its source (a text or PDF file wrapped at
 * 100 columns) joined into flowing lines; paragraph breaks, points of lists and lines that end a
 * paragraph are kept. The twin of src/lib/reflow.ts (the exports quote with it); both are tested
 * with the same cases (test/web/quotes.test.ts).
 */
const POINT = /^(?:[-*•▪◦]|\(?(?:[a-z]|[ivxlc]{1,6}|\d{1,3})[.)]|\d{1,2}(?:\.\d{1,2})+\.?)\s/i;
const ENDS_SENTENCE = /[.!?;:]["”’)\]]*$/;

function reflowParagraph(p: string): string {
  const lines = p
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length < 2) return lines.join('');
  const width = Math.max(...lines.map((l) => l.length));
  let out = lines[0]!;
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1]!;
    const line = lines[i]!;
    // A point of a list, a line after a lead-in, or after a short line that ends a sentence: a line of its own.
    const own = POINT.test(line) || /:$/.test(prev) || (ENDS_SENTENCE.test(prev) && prev.length < width * 0.75);
    if (own) out += `\n${line}`;
    else if (/\p{L}-$/u.test(prev) && /^\p{Ll}/u.test(line))
      out += line; // a word hyphenated at the end of a line
    else out += ` ${line}`;
  }
  return out;
}

export function reflowQuote(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map(reflowParagraph)
    .filter(Boolean)
    .join('\n\n');
}
