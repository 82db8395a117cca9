import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { DocumentFormat } from '../db/schema/documents.js';
import { encryptedFile, unsupportedType } from './errors.js';

export interface Sniffed {
  format: DocumentFormat;
  /** Media type of the detected format. */
  mimeType: string;
}

export const FORMAT_MIME: Record<DocumentFormat, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  html: 'text/html',
  markdown: 'text/markdown',
  text: 'text/plain',
  json: 'application/json',
};

/** File name extensions of each format (a client's pre-check; the content decides, see `sniff`). */
export const EXTENSIONS: Record<string, DocumentFormat> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.xlsx': 'xlsx',
  '.html': 'html',
  '.htm': 'html',
  '.xhtml': 'html',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.txt': 'text',
  '.text': 'text',
  '.json': 'json',
};

const MIME_FORMATS: Record<string, DocumentFormat> = Object.fromEntries([
  ...Object.entries(FORMAT_MIME).map(([f, m]) => [m, f as DocumentFormat]),
  ['application/xhtml+xml', 'html'],
  ['text/x-markdown', 'markdown'],
]);

const BINARY_FORMATS: ReadonlySet<DocumentFormat> = new Set(['pdf', 'docx', 'xlsx']);

/** The format a client claims, from the file name's extension, else its content type. */
export function declaredFormat(filename: string, declaredType?: string | null): DocumentFormat | undefined {
  const ext = path.extname(filename).toLowerCase();
  if (EXTENSIONS[ext]) return EXTENSIONS[ext];
  const mime = (declaredType ?? '').split(';')[0]!.trim().toLowerCase();
  return MIME_FORMATS[mime];
}

const UTF16_ENCRYPTION_INFO = Buffer.from('EncryptionInfo', 'utf16le');
const UTF16_ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

/**
 * Decodes a text file: UTF-8 (BOM optional) or UTF-16 with a BOM. Returns null when the
 * bytes are not text (invalid UTF-8, NUL bytes).
 */
export function decodeText(buf: Buffer): string | null {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf.subarray(2));
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) return new TextDecoder('utf-16be').decode(buf.subarray(2));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(buf);
  } catch {
    return null;
  }
  if (text.includes('\u0000')) return null;
  return text;
}

function looksLikeJson(text: string): boolean {
  const t = text.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function looksLikeHtml(text: string): boolean {
  return /^\s*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text.slice(0, 2048));
}

/**
 * Finds the format of a file from its bytes (magic numbers), never from the client's
 * content type alone. Text files are told apart by content and then by extension.
 * Rejects encrypted Office files, legacy binary Office files, archives, images,
 * executables, and any file whose bytes contradict a binary type it claims.
 */
export async function sniff(buf: Buffer, filename: string, declaredType?: string | null): Promise<Sniffed> {
  const claimed = declaredFormat(filename, declaredType);
  const detected = await fileTypeFromBuffer(buf);
  if (detected) {
    let format: DocumentFormat | undefined;
    if (detected.ext === 'pdf') format = 'pdf';
    else if (detected.ext === 'docx') format = 'docx';
    else if (detected.ext === 'xlsx') format = 'xlsx';
    else if (detected.ext === 'zip' && (claimed === 'docx' || claimed === 'xlsx'))
      format = claimed; // the zip check decides
    else if (detected.ext === 'cfb') {
      if (buf.includes(UTF16_ENCRYPTION_INFO) || buf.includes(UTF16_ENCRYPTED_PACKAGE)) throw encryptedFile(filename);
      throw unsupportedType(filename, 'legacy binary Office file; save it as .docx or .xlsx');
    } else if (detected.ext === 'xml' || detected.mime === 'application/xml' || detected.ext === 'html') {
      format = undefined; // text formats are decided below
    } else {
      throw unsupportedType(filename, `detected ${detected.mime}`);
    }
    if (format) {
      if (claimed && claimed !== format) throw unsupportedType(filename, `content is ${format.toUpperCase()}, not ${claimed}`);
      return { format, mimeType: FORMAT_MIME[format] };
    }
  }
  if (claimed && BINARY_FORMATS.has(claimed)) throw unsupportedType(filename, `content is not a valid ${claimed.toUpperCase()} file`);
  const text = decodeText(buf);
  if (text === null) throw unsupportedType(filename, 'binary content of unknown type');
  let format: DocumentFormat;
  if (claimed === 'json' || (!claimed && looksLikeJson(text))) format = 'json';
  else if (claimed === 'html' || (!claimed && looksLikeHtml(text))) format = 'html';
  else if (claimed) format = claimed;
  else format = /^#{1,6}\s+\S/m.test(text) ? 'markdown' : 'text';
  return { format, mimeType: FORMAT_MIME[format] };
}
