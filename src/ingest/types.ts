import type { Block } from '../domain/blocks.js';
import type { DocumentFormat } from '../db/schema/documents.js';

export type { DocumentFormat };

/** What a parser extracts from one file. */
export interface ParsedDocument {
  format: DocumentFormat;
  /** Title found in the file (metadata, front matter, first heading), if any. */
  title?: string;
  /** Date found in the file (metadata, front matter), if any. */
  date?: Date;
  /** Pages (PDF), worksheets (XLSX), else 1. */
  pageCount: number;
  blocks: Block[];
}

export interface ParseLimits {
  /** Most characters of text kept from one file. */
  maxTextChars: number;
  /** Most bytes an Office file (zip) may expand to. */
  maxDecompressedBytes: number;
}

/** Thrown by a parser whose text passes the character limit while it is being produced. */
export class TextLimitError extends Error {
  constructor(limit: number) {
    super(`more than ${limit} characters of text`);
    this.name = 'TextLimitError';
  }
}
