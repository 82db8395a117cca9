import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One article of the DORA reference data (`data/dora/articles.json`). */
export interface DoraArticle {
  number: number;
  article: string;
  title: string;
  chapter: string;
  domain: string;
  text: string;
  obligations: string[];
}

/** The domain table of the contract, in chapter order. */
export const DORA_DOMAINS = [
  { domain: 'General Provisions', chapter: 'I', from: 1, to: 4 },
  { domain: 'ICT Risk Management', chapter: 'II', from: 5, to: 16 },
  { domain: 'Incident Reporting', chapter: 'III', from: 17, to: 23 },
  { domain: 'Resilience Testing', chapter: 'IV', from: 24, to: 27 },
  { domain: 'Third-Party Risk', chapter: 'V', from: 28, to: 30 },
  { domain: 'ICT Third-Party Oversight', chapter: 'V', from: 31, to: 44 },
  { domain: 'Information Sharing', chapter: 'VI', from: 45, to: 45 },
] as const;

export const DORA_CHAPTERS = ['I', 'II', 'III', 'IV', 'V', 'VI'] as const;

export const doraDataFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../data/dora/articles.json');

/** Reads and checks the reference data file. */
export function readDoraArticles(file = doraDataFile): DoraArticle[] {
  const articles = JSON.parse(readFileSync(file, 'utf8')) as DoraArticle[];
  if (!Array.isArray(articles) || articles.length !== 45) throw new Error(`DORA reference data must hold 45 articles: ${file}`);
  for (const a of articles) {
    const d = DORA_DOMAINS.find((x) => a.number >= x.from && a.number <= x.to);
    if (!d || d.domain !== a.domain || d.chapter !== a.chapter || a.article !== `Article ${a.number}` || !a.text) {
      throw new Error(`DORA reference data is inconsistent at ${a.article}`);
    }
  }
  return articles;
}
