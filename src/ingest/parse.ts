import { AppError } from '../lib/errors.js';
import { corruptFile, documentTooLarge, emptyDocument, encryptedFile, unsupportedType } from './errors.js';
import { parseHtml } from './parsers/html.js';
import { jsonNesting, MAX_JSON_NESTING, parseJson } from './parsers/json.js';
import { parseMarkdown } from './parsers/markdown.js';
import { parseText } from './parsers/text.js';
import { decodeText, sniff, type Sniffed } from './sniff.js';
import { TextLimitError, type ParsedDocument, type ParseLimits } from './types.js';
import { DOCX_TEXT, inspectZip, XLSX_TEXT } from './zipGuard.js';

export const MAX_PDF_PAGES = 2000;

export interface ParsedFile {
  sniffed: Sniffed;
  doc: ParsedDocument;
  chars: number;
}

/**
 * Sniffs, checks and parses one file. Every way a file can be unusable ends in a 4xx
 * AppError naming the file: unsupported type (415), too large when expanded, encrypted,
 * corrupt or without text (422). The character limit is applied while the text is
 * produced (Office XML as it is inflated, PDF page by page, workbook row by row), never
 * after the whole text exists. The services call it through the parse pool
 * (parsePool.ts), which runs it in a worker thread with a time and memory budget; the
 * PDF, DOCX and XLSX parsers are imported on first use.
 */
export async function parseFile(buf: Buffer, filename: string, declaredType: string | null | undefined, limits: ParseLimits): Promise<ParsedFile> {
  const sniffed = await sniff(buf, filename, declaredType);
  let doc: ParsedDocument;
  try {
    doc = await parseAs(sniffed, buf, filename, limits);
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof TextLimitError) throw documentTooLarge(filename, err.message);
    if ((err as Error)?.name === 'PdfPasswordError') throw encryptedFile(filename);
    if ((err as Error)?.name === 'PdfTooLargeError') throw documentTooLarge(filename, (err as Error).message);
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
    case 'pdf': {
      const { parsePdf } = await import('./parsers/pdf.js');
      return parsePdf(buf, { maxPages: MAX_PDF_PAGES, maxChars: limits.maxTextChars });
    }
    // The DOCX and XLSX readers (mammoth, ExcelJS) are large: loaded with the first such file.
    case 'docx': {
      const zip = await inspectZip(buf, filename, limits.maxDecompressedBytes, ['docProps/core.xml'], DOCX_TEXT(limits.maxTextChars));
      const { parseDocx } = await import('./parsers/docx.js');
      return parseDocx(buf, zip.files.get('docProps/core.xml'));
    }
    case 'xlsx': {
      const zip = await inspectZip(buf, filename, limits.maxDecompressedBytes, ['docProps/core.xml'], XLSX_TEXT(limits.maxTextChars));
      const { parseXlsx } = await import('./parsers/xlsx.js');
      return parseXlsx(buf, { maxChars: limits.maxTextChars, coreXml: zip.files.get('docProps/core.xml') });
    }
    default: {
      const text = decodeText(buf);
      if (text === null) throw unsupportedType(filename, 'binary content of unknown type');
      if (text.length > limits.maxTextChars * 4) throw documentTooLarge(filename, `${text.length} characters (limit ${limits.maxTextChars})`);
      if (sniffed.format === 'json') {
        if (jsonNesting(text) > MAX_JSON_NESTING) throw documentTooLarge(filename, `JSON nested deeper than ${MAX_JSON_NESTING} levels`);
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
