import type { Block } from '../../domain/blocks.js';
import type { ParsedDocument } from '../types.js';

const NUMBERED = /^((?:\d{1,2}\.)+\d{0,2}|\d{1,2}\)|[IVXLC]{1,6}\.|[A-Z]\.|(?:section|article|chapter|part|annex|appendix|schedule)\s+[\dIVXLC]+[.:]?)\s+\S/i;

const TITLE_CASE_LEVEL = 3;

function headingLevel(line: string, hasTextAfter: boolean): number | null {
  const t = line.trim();
  if (!t || t.length > 90 || !hasTextAfter) return null;
  if (/[.;,:]$/.test(t) && !NUMBERED.test(t)) return null;
  if (/[.;,]$/.test(t)) return null;
  const words = t.split(/\s+/);
  if (words.length > 12) return null;
  const num = /^((?:\d{1,2}\.)+\d{0,2})\s/.exec(t);
  if (num) return Math.min(6, num[1]!.split('.').filter(Boolean).length + 1);
  if (NUMBERED.test(t)) return 2;
  const letters = t.replace(/[^\p{L}]/gu, '');
  if (letters.length >= 3 && letters === letters.toUpperCase()) return 1;
  const capitalised = words.filter((w) => /^[\p{Lu}\d]/u.test(w)).length;
  const small = words.filter((w) => /^(a|an|and|the|of|for|to|in|on|at|by|or|with|our|your)$/.test(w)).length;
  if (words.length >= 2 && capitalised + small === words.length && capitalised >= 2) return TITLE_CASE_LEVEL;
  return null;
}

/**
 * Plain text: paragraphs are separated by blank lines; a short stand-alone line that
 * looks like a heading (numbered `1.2 Scope`, `ARTICLE 5`, ALL CAPS or Title Case,
 * without closing punctuation) and is followed by text opens a section.
 */
export function parseText(text: string): ParsedDocument {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  const stack: { level: number; text: string }[] = [];
  let para: string[] = [];
  let title: string | undefined;
  const flush = () => {
    const t = para
      .join('\n')
      .replace(/[ \t]+/g, ' ')
      .trim();
    if (t) blocks.push({ text: t, headings: stack.map((h) => h.text) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) {
      flush();
      continue;
    }
    const prevBlank = i === 0 || !lines[i - 1]!.trim();
    // A heading starts after a blank line. Followed directly by text (no blank line), only
    // numbered and ALL CAPS lines count: a Title Case line could open a wrapped paragraph.
    const next = lines[i + 1];
    const joined = next !== undefined && next.trim() !== '';
    let level = prevBlank
      ? headingLevel(
          line,
          lines.slice(i + 1).some((x) => x.trim()),
        )
      : null;
    if (level !== null && joined && level === TITLE_CASE_LEVEL) level = null;
    if (level !== null) {
      flush();
      const h = line.trim().replace(/\s+/g, ' ');
      while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
      stack.push({ level, text: h });
      title ??= h;
      continue;
    }
    para.push(line);
  }
  flush();
  return { format: 'text', title, pageCount: 1, blocks };
}
