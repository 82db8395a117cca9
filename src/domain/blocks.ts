/** One block of text (paragraph, list item, table row...) under its heading path. */
export interface Block {
  text: string;
  /** Headings above the block, outermost first (`['Terms', '3. Termination']`). */
  headings: string[];
  /** 1-based page (PDF) or worksheet (XLSX) number; absent for flowing formats. */
  page?: number;
}
