import { DORA_DOMAINS, readDoraArticles, type DoraArticle } from '../../compliance/dora.js';
import { notFound } from '../../lib/errors.js';
import type { ArticleRow, ComplianceRepository } from './repository.js';

export const REGULATION = 'DORA';

function summary(r: ArticleRow) {
  return { regulation: r.regulation, article: r.article, title: r.title, domain: r.domain, chapter: r.chapter, obligations: r.obligations };
}

/** Parses `Article 28`, `Article-28`, `article 28` into 28; null when it is not that form. */
export function parseArticleParam(raw: string): number | null {
  const m = /^article[\s-]+(\d{1,3})$/i.exec(raw.trim());
  return m ? Number(m[1]) : null;
}

export function complianceService(repo: ComplianceRepository) {
  return {
    /** Loads the DORA reference data; repeatable, `reset` wipes and reloads. */
    async loadReferenceData(opts: { reset?: boolean; articles?: DoraArticle[] } = {}): Promise<{ articles: number }> {
      const articles = opts.articles ?? readDoraArticles();
      await repo.load(REGULATION, articles, opts.reset ?? false);
      return { articles: articles.length };
    },
    async isLoaded(): Promise<boolean> {
      return (await repo.count()) > 0;
    },
    async domains() {
      const rows = await repo.list({});
      const domains = DORA_DOMAINS.map((d) => {
        const articles = rows.filter((r) => r.domain === d.domain).map((r) => r.article);
        return { domain: d.domain, chapter: d.chapter, articleCount: articles.length, articles };
      });
      return { total: domains.length, domains };
    },
    async articles(filter: { domain?: string; chapter?: string }) {
      const rows = await repo.list(filter);
      return { total: rows.length, articles: rows.map(summary) };
    },
    async article(raw: string) {
      const n = parseArticleParam(raw);
      const row = n === null ? null : await repo.byNumber(REGULATION, n);
      if (!row) {
        const shown = n === null ? raw.replace(/-/g, ' ') : `Article ${n}`;
        throw notFound(`Article not found: ${shown}`, 'ARTICLE_NOT_FOUND');
      }
      return { ...summary(row), number: row.number, text: row.text };
    },
  };
}
export type ComplianceService = ReturnType<typeof complianceService>;
