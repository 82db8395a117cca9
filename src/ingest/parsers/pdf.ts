import type { Block } from '../../domain/blocks.js';
import { TextLimitError, type ParsedDocument } from '../types.js';
import { parseDate } from './html.js';

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjsPromise: Promise<PdfJs> | null = null;

/** pdfjs-dist (legacy build for Node) with its worker run on the main thread. */
async function pdfjs(): Promise<PdfJs> {
  pdfjsPromise ??= (async () => {
    const g = globalThis as { pdfjsWorker?: unknown };
    // @ts-expect-error the worker module ships without type declarations
    g.pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return pdfjsPromise;
}

export class PdfPasswordError extends Error {
  override name = 'PdfPasswordError';
}
export class PdfTooLargeError extends Error {
  override name = 'PdfTooLargeError';
}

interface Line {
  page: number;
  y: number;
  size: number;
  text: string;
}

interface TextItemLike {
  str: string;
  transform: number[];
  height: number;
  hasEOL?: boolean;
}

/** `D:20240131120000Z` (PDF date) or ISO text to a Date. */
function pdfDate(v: unknown): Date | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?/.exec(v);
  if (m) return parseDate(`${m[1]}-${m[2] ?? '01'}-${m[3] ?? '01'}T${m[4] ?? '00'}:${m[5] ?? '00'}:${m[6] ?? '00'}Z`);
  return parseDate(v);
}

const PAGE_NUMBER = /^(page\s+)?\d{1,4}(\s*(\/|of)\s*\d{1,4})?$/i;

/**
 * PDF with pdfjs-dist: text items are joined into lines per page; lines whose font is
 * clearly larger than the body text (at least 1.15x the most common size) are headings,
 * ranked by size into levels; other lines are joined into paragraphs, split where the
 * vertical gap exceeds 1.6 line heights. Bare page numbers are dropped. Encrypted PDFs
 * (a user password) throw PdfPasswordError; text beyond `maxChars` stops the reading at
 * that page (TextLimitError).
 */
export async function parsePdf(buf: Buffer, opts: { maxPages: number; maxChars?: number }): Promise<ParsedDocument> {
  const lib = await pdfjs();
  const task = lib.getDocument({
    data: new Uint8Array(buf),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  let doc: Awaited<typeof task.promise>;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy().catch(() => {});
    if ((err as Error)?.name === 'PasswordException') throw new PdfPasswordError('encrypted');
    throw err;
  }
  try {
    if (doc.numPages > opts.maxPages) throw new PdfTooLargeError(`${doc.numPages} pages (limit ${opts.maxPages})`);
    const lines: Line[] = [];
    let chars = 0;
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      let cur: { y: number; size: number; parts: string[] } | null = null;
      const end = () => {
        if (cur) {
          const text = cur.parts.join('').normalize('NFKC').replace(/\s+/g, ' ').trim();
          if (text && !PAGE_NUMBER.test(text)) {
            lines.push({ page: p, y: cur.y, size: cur.size, text });
            chars += text.length + 1;
          }
        }
        cur = null;
      };
      for (const raw of content.items as TextItemLike[]) {
        if (typeof raw.str !== 'string') continue;
        const y = raw.transform[5] ?? 0;
        const size = Math.round((Math.hypot(raw.transform[2] ?? 0, raw.transform[3] ?? 0) || raw.height || 0) * 10) / 10;
        if (cur && Math.abs((cur as { y: number }).y - y) > Math.max(2, size * 0.5) && raw.str.trim()) end();
        if (!cur) cur = { y, size, parts: [] };
        cur.parts.push(raw.str);
        if (raw.str.trim()) cur.size = Math.max(cur.size, size);
        if (raw.hasEOL) {
          end();
        }
      }
      end();
      page.cleanup();
      if (opts.maxChars !== undefined && chars > opts.maxChars) throw new TextLimitError(opts.maxChars);
    }

    // Body size: the size carrying the most characters.
    const bySize = new Map<number, number>();
    for (const l of lines) bySize.set(l.size, (bySize.get(l.size) ?? 0) + l.text.length);
    const body = [...bySize.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
    const isHeading = (l: Line) => body > 0 && l.size >= body * 1.15 && l.text.length <= 120 && /\p{L}/u.test(l.text);
    const headingSizes = [...new Set(lines.filter(isHeading).map((l) => l.size))].sort((a, b) => b - a);

    const blocks: Block[] = [];
    const stack: { level: number; text: string }[] = [];
    let para: string[] = [];
    let paraPage = 1;
    let prev: Line | null = null;
    let title: string | undefined;
    const flush = () => {
      const text = para
        .join(' ')
        .replace(/(\p{L})- (\p{Ll})/gu, '$1-$2')
        .trim();
      if (text) blocks.push({ text, headings: stack.map((h) => h.text), page: paraPage });
      para = [];
    };
    for (const l of lines) {
      if (isHeading(l)) {
        flush();
        const level = headingSizes.indexOf(l.size) + 1;
        if (prev && isHeading(prev) && prev.size === l.size && prev.page === l.page && Math.abs(prev.y - l.y) < l.size * 1.6 && stack.length) {
          // A heading wrapped over two lines.
          stack[stack.length - 1]!.text += ` ${l.text}`;
        } else {
          while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
          stack.push({ level, text: l.text });
        }
        title ??= l.text;
        prev = l;
        continue;
      }
      const gap = prev && prev.page === l.page ? Math.abs(prev.y - l.y) : Infinity;
      if (!para.length || prev?.page !== l.page || gap > Math.max(l.size, 1) * 1.6 || (prev && isHeading(prev))) {
        flush();
        paraPage = l.page;
      }
      para.push(l.text);
      prev = l;
    }
    flush();

    let info: Record<string, unknown> = {};
    try {
      info = ((await doc.getMetadata()).info ?? {}) as Record<string, unknown>;
    } catch {
      // Metadata is optional.
    }
    const metaTitle = typeof info.Title === 'string' && info.Title.trim() ? info.Title.trim() : undefined;
    return {
      format: 'pdf',
      title: metaTitle ?? title,
      date: pdfDate(info.ModDate) ?? pdfDate(info.CreationDate),
      pageCount: doc.numPages,
      blocks,
    };
  } finally {
    await doc.destroy().catch(() => {});
  }
}
