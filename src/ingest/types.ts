import type { DocumentFormat } from '../db/schema/documents.js';

export type { DocumentFormat };

/** One block of text (paragraph, list item, table row...) under its heading path. */
export interface Block {
  text: string;
  /** Headings above the block, outermost first (`['Terms', '3. Termination']`). */
  headings: string[];
  /** 1-based page (PDF) or worksheet (XLSX) number; absent for flowing formats. */
  page?: number;
}

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
