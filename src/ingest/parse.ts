import { AppError } from '../lib/errors.js';
import { corruptFile, documentTooLarge, emptyDocument, encryptedFile, unsupportedType } from './errors.js';
import { parseDocx } from './parsers/docx.js';
import { parseHtml } from './parsers/html.js';
import { parseJson } from './parsers/json.js';
import { parseMarkdown } from './parsers/markdown.js';
import { parsePdf, PdfPasswordError, PdfTooLargeError } from './parsers/pdf.js';
import { parseText } from './parsers/text.js';
import { parseXlsx } from './parsers/xlsx.js';
import { decodeText, sniff, type Sniffed } from './sniff.js';
import type { ParsedDocument, ParseLimits } from './types.js';
import { inspectZip } from './zipGuard.js';

export const MAX_PDF_PAGES = 2000;

export interface ParsedFile {
  sniffed: Sniffed;
  doc: ParsedDocument;
  chars: number;
}

/**
 * Sniffs, checks and parses one file. Every way a file can be unusable ends in a 4xx
 * AppError naming the file: unsupported type (415), too large when expanded, encrypted,
 * corrupt or without text (422).
 */
export async function parseFile(buf: Buffer, filename: string, declaredType: string | null | undefined, limits: ParseLimits): Promise<ParsedFile> {
  const sniffed = await sniff(buf, filename, declaredType);
  let doc: ParsedDocument;
  try {
    doc = await parseAs(sniffed, buf, filename, limits);
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof PdfPasswordError) throw encryptedFile(filename);
    if (err instanceof PdfTooLargeError) throw documentTooLarge(filename, err.message);
    const msg = (err as Error)?.message ?? String(err);
    throw corruptFile(filename, msg.length > 200 ? `${msg.slice(0, 200)}...` : msg);
  }
  const chars = doc.blocks.reduce((n, b) => n + b.text.length, 0);
  if (chars === 0) throw emptyDocument(filename);
  if (chars > limits.maxTextChars) throw documentTooLarge(filename, `${chars} characters of text (limit ${limits.maxTextChars})`);
  return { sniffed, doc, chars };
}

async function parseAs(sniffed: Sniffed, buf: Buffer, filename: string, limits: ParseLimits): Promise<ParsedDocument> {
  switch (sniffed.format) {
    case 'pdf':
      return parsePdf(buf, { maxPages: MAX_PDF_PAGES });
    case 'docx': {
      const zip = await inspectZip(buf, filename, limits.maxDecompressedBytes, ['docProps/core.xml']);
      return parseDocx(buf, zip.files.get('docProps/core.xml'));
    }
    case 'xlsx':
      await inspectZip(buf, filename, limits.maxDecompressedBytes);
      return parseXlsx(buf);
    default: {
      const text = decodeText(buf);
      if (text === null) throw unsupportedType(filename, 'binary content of unknown type');
      if (text.length > limits.maxTextChars * 4) throw documentTooLarge(filename, `${text.length} characters (limit ${limits.maxTextChars})`);
      if (sniffed.format === 'json') {
        try {
          return parseJson(text);
        } catch (err) {
          throw corruptFile(filename, `invalid JSON: ${(err as Error).message}`);
        }
      }
      if (sniffed.format === 'html') return parseHtml(text);
      if (sniffed.format === 'markdown') return parseMarkdown(text);
      return parseText(text);
    }
  }
}
