import type { ParsedDocument } from '../../ingest/types.js';
import type { ComplianceService } from '../compliance/service.js';

export const DORA_CORPUS = 'dora';
/** Regulation (EU) 2022/2554 was adopted on 14 December 2022. */
const DORA_DATE = new Date('2022-12-14T00:00:00Z');
const DORA_URL = 'https://eur-lex.europa.eu/eli/reg/2022/2554/oj';

/** What the corpus needs from the compliance module (through its service). */
export type CorpusArticleSource = Pick<ComplianceService, 'articles' | 'article'>;

export interface CorpusDocument {
  sourceKey: string;
  title: string;
  url: string;
  date: Date;
  text: string;
  parsed: ParsedDocument;
  metadata: Record<string, unknown>;
}

/**
 * The DORA articles as corpus documents: one per article, titled `DORA Article 28:
 * General principles`, section path `Chapter V – Third-Party Risk > Article 28: General
 * principles`, one block per paragraph of the regulatory text.
 */
export async function doraCorpusDocuments(compliance: CorpusArticleSource, only?: number[]): Promise<CorpusDocument[]> {
  const { articles } = await compliance.articles({});
  const out: CorpusDocument[] = [];
  for (const summary of articles) {
    const a = await compliance.article(summary.article);
    if (only && !only.includes(a.number)) continue;
    const headings = [`Chapter ${a.chapter} – ${a.domain}`, `${a.article}: ${a.title}`];
    const blocks = a.text
      .split(/\n+/)
      .map((t) => t.trim())
      .filter(Boolean)
      .map((text) => ({ text, headings }));
    out.push({
      sourceKey: `DORA-${a.number}`,
      title: `DORA ${a.article}: ${a.title}`,
      url: `${DORA_URL}#art_${a.number}`,
      date: DORA_DATE,
      text: a.text,
      parsed: { format: 'text', title: `DORA ${a.article}: ${a.title}`, pageCount: 1, blocks },
      metadata: { regulation: a.regulation, article: a.article, chapter: a.chapter, domain: a.domain },
    });
  }
  return out;
}
