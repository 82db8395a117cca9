import { Marked } from 'marked';
import { parse as parseYaml } from 'yaml';
import type { ParsedDocument } from '../types.js';
import { htmlToBlocks, parseDate } from './html.js';

const marked = new Marked({ gfm: true, async: false });

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** YAML front matter (title, date) and the Markdown body without it. */
export function splitFrontMatter(md: string): { meta: Record<string, unknown>; body: string } {
  const m = FRONT_MATTER.exec(md);
  if (!m) return { meta: {}, body: md };
  let meta: Record<string, unknown> = {};
  try {
    const parsed: unknown = parseYaml(m[1]!);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) meta = parsed as Record<string, unknown>;
  } catch {
    // Not YAML after all: keep it as text.
    return { meta: {}, body: md };
  }
  return { meta, body: md.slice(m[0].length) };
}

/**
 * Markdown: YAML front matter gives the title and date; template tags (`{% ... %}`,
 * `{{ ... }}`) are removed; marked renders the rest (GFM: tables, lists, inline HTML)
 * and the HTML walker turns it into blocks under their headings.
 */
export function parseMarkdown(md: string): ParsedDocument {
  const { meta, body } = splitFrontMatter(md);
  const cleaned = body.replace(/\{%-?[\s\S]*?-?%\}/g, '').replace(/\{\{[\s\S]*?\}\}/g, '');
  const html = marked.parse(cleaned) as string;
  const { blocks, firstHeading } = htmlToBlocks(html);
  const title = typeof meta.title === 'string' && meta.title.trim() ? meta.title.trim() : firstHeading;
  const date = parseDate(meta.effective_date ?? meta.date ?? meta.updated ?? meta.last_updated);
  return { format: 'markdown', title, date, pageCount: 1, blocks };
}
