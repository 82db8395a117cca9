import type { AnyNode, Element } from 'domhandler';
import { parseDocument } from 'htmlparser2';
import type { Block } from '../../domain/blocks.js';
import type { DocumentFormat, ParsedDocument } from '../types.js';

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'head', 'nav', 'button', 'form', 'select', 'object', 'canvas', 'map']);
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'aside',
  'header',
  'footer',
  'ul',
  'ol',
  'dl',
  'dt',
  'dd',
  'blockquote',
  'figure',
  'figcaption',
  'address',
  'details',
  'summary',
  'hr',
  'body',
  'html',
  'center',
  'fieldset',
  'caption',
]);
const HEADING = /^h([1-6])$/;

const isElement = (n: AnyNode): n is Element => n.type === 'tag' || n.type === 'script' || n.type === 'style';

/** Text content of a node, script and style left out. */
export function textOf(node: AnyNode): string {
  if (node.type === 'text') return (node as unknown as { data: string }).data;
  if (!isElement(node) || SKIP.has(node.name)) return '';
  if (node.name === 'br') return '\n';
  return node.children.map(textOf).join('');
}

const squash = (s: string) =>
  s
    .replace(/[ \t\r\f\v\u00a0\u200b]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{2,}/g, '\n')
    .trim();

function findFirst(node: AnyNode, pred: (e: Element) => boolean): Element | null {
  if (isElement(node)) {
    if (pred(node)) return node;
    for (const c of node.children) {
      const f = findFirst(c, pred);
      if (f) return f;
    }
  } else if ('children' in node && Array.isArray((node as { children?: AnyNode[] }).children)) {
    for (const c of (node as { children: AnyNode[] }).children) {
      const f = findFirst(c, pred);
      if (f) return f;
    }
  }
  return null;
}

/**
 * Turns HTML into blocks under their heading path. Used for HTML files and, after
 * conversion to HTML, for Markdown (marked) and DOCX (mammoth). Headings h1-h6 open
 * sections; paragraphs, list items and table rows become blocks (a row of a table with
 * a header row reads `Header: value; ...`); scripts, styles and navigation are dropped.
 */
export function htmlToBlocks(html: string): { blocks: Block[]; title?: string; date?: Date; firstHeading?: string } {
  const doc = parseDocument(html, { decodeEntities: true, lowerCaseTags: true });
  const blocks: Block[] = [];
  const stack: { level: number; text: string }[] = [];
  let buf: string[] = [];
  let firstHeading: string | undefined;

  const headings = () => stack.map((h) => h.text);
  const push = (text: string) => {
    const t = squash(text);
    if (t) blocks.push({ text: t, headings: headings() });
  };
  const flush = () => {
    if (buf.length) push(buf.join(''));
    buf = [];
  };

  const table = (el: Element) => {
    const rows: { cells: string[]; header: boolean }[] = [];
    const collect = (n: AnyNode, inHead: boolean) => {
      if (!isElement(n)) return;
      if (n.name === 'table' && n !== el) {
        flush();
        table(n);
        return;
      }
      if (n.name === 'tr') {
        const cells = n.children.filter(isElement).filter((c) => c.name === 'td' || c.name === 'th');
        rows.push({
          cells: cells.map((c) => squash(textOf(c)).replace(/\n/g, ' ')),
          header: inHead || (cells.length > 0 && cells.every((c) => c.name === 'th')),
        });
        return;
      }
      for (const c of n.children) collect(c, inHead || n.name === 'thead');
    };
    for (const c of el.children) collect(c, false);
    let header: string[] | null = null;
    for (const r of rows) {
      if (r.header && !header) {
        header = r.cells;
        continue;
      }
      const cells = r.cells;
      if (cells.every((c) => !c)) continue;
      if (header && header.some(Boolean)) {
        push(
          cells
            .map((c, i) => (header![i] ? `${header![i]!.replace(/\s*:\s*$/, '')}: ${c}` : c))
            .filter((c) => c.replace(/^[^:]*:\s*/, ''))
            .join('; '),
        );
      } else {
        push(cells.filter(Boolean).join(' | '));
      }
    }
  };

  const visit = (node: AnyNode) => {
    if (node.type === 'text') {
      buf.push((node as unknown as { data: string }).data);
      return;
    }
    if (!isElement(node)) {
      if ('children' in node) for (const c of (node as { children: AnyNode[] }).children) visit(c);
      return;
    }
    const name = node.name;
    if (SKIP.has(name)) return;
    const h = HEADING.exec(name);
    if (h) {
      flush();
      const text = squash(textOf(node)).replace(/\n/g, ' ');
      if (!text) return;
      const level = Number(h[1]);
      while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
      stack.push({ level, text });
      firstHeading ??= text;
      return;
    }
    if (name === 'br') {
      buf.push('\n');
      return;
    }
    if (name === 'table') {
      flush();
      table(node);
      return;
    }
    if (name === 'pre') {
      flush();
      const t = textOf(node).replace(/\r/g, '').trim();
      if (t) blocks.push({ text: t, headings: headings() });
      return;
    }
    if (name === 'li') {
      flush();
      buf.push('- ');
      for (const c of node.children) visit(c);
      flush();
      return;
    }
    if (BLOCK.has(name)) {
      // A list item's first paragraph (a loose list: "1. …" items apart by blank lines) keeps the item's marker, so the
      // item is still read as one of its list (passages.ts: a lead-in ending in a colon binds its items).
      if (!(buf.length === 1 && buf[0] === '- ')) flush();
      for (const c of node.children) visit(c);
      flush();
      return;
    }
    for (const c of node.children) visit(c);
  };

  for (const c of doc.children) visit(c);
  flush();
  // A list item that only held a nested list leaves a bare dash.
  const cleaned = blocks.filter((b) => b.text !== '-');

  const titleEl = findFirst(doc, (e) => e.name === 'title');
  const title = titleEl ? squash(textOf(titleEl)).replace(/\n/g, ' ') || undefined : undefined;
  const metaDate = findFirst(
    doc,
    (e) => e.name === 'meta' && /^(date|dcterms\.date|dc\.date|article:published_time|last-modified)$/i.test(e.attribs.name ?? e.attribs.property ?? ''),
  );
  const date = parseDate(metaDate?.attribs.content);
  return { blocks: cleaned, title, date, firstHeading };
}

/** A date from metadata text (ISO 8601 and the like), or undefined. */
export function parseDate(value: unknown): Date | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value;
  if (typeof value !== 'string' || !value.trim()) return undefined;
  const d = new Date(value.trim());
  if (Number.isNaN(d.getTime())) return undefined;
  const y = d.getUTCFullYear();
  return y >= 1900 && y <= 2200 ? d : undefined;
}

export function parseHtml(html: string, format: DocumentFormat = 'html'): ParsedDocument {
  const { blocks, title, date, firstHeading } = htmlToBlocks(html);
  return { format, title: title ?? firstHeading, date, pageCount: 1, blocks };
}
