import { DORA_DOMAINS, readDoraArticles, type DoraArticle } from '../../compliance/dora.js';
import { notFound } from '../../lib/errors.js';
import type { ArticleRow, ComplianceRepository } from './repository.js';
import { pageOf, type PageRequest } from '../../domain/paging.js';

export const REGULATION = 'DORA';

function summary(r: ArticleRow) {
  return { regulation: r.regulation, article: r.article, title: r.title, domain: r.domain, chapter: r.chapter, obligations: r.obligations };
}

/** Parses `Article 28`, `Article-28`, `article 28` into 28; null when it is not that form. */
export function parseArticleParam(raw: string): number | null {
  const m = /^article[\s-]+(\d{1,3})$/i.exec(raw.trim());
  return m ? Number(m[1]) : null;
}

/**
 * The DORA reference API. The articles never change while the process runs (they are
 * loaded at start or by the seed), so they are read from the database once and kept in
 * memory; `loadReferenceData` in this process drops that copy. `version` changes with
 * it, for callers that keep derived copies (the routes keep serialised bodies).
 */
export function complianceService(repo: ComplianceRepository) {
  let cached: Promise<ArticleRow[]> | null = null;
  let version = 0;
  const all = (): Promise<ArticleRow[]> => {
    if (!cached) {
      const loading = repo.list({});
      cached = loading;
      // A failed read is not kept: the next call reads again.
      loading.catch(() => {
        if (cached === loading) cached = null;
      });
    }
    return cached;
  };
  const service = {
    /** Loads the DORA reference data; repeatable, `reset` wipes and reloads. */
    async loadReferenceData(opts: { reset?: boolean; articles?: DoraArticle[] } = {}): Promise<{ articles: number }> {
      const articles = opts.articles ?? readDoraArticles();
      try {
        await repo.load(REGULATION, articles, opts.reset ?? false);
      } finally {
        cached = null;
        version += 1;
      }
      return { articles: articles.length };
    },
    async isLoaded(): Promise<boolean> {
      return (await repo.count()) > 0;
    },
    /** Changes whenever this process reloads the reference data. */
    version: () => version,
    /** The domains (reference data, 7) with their articles. */
    async domains() {
      const rows = await all();
      const domains = DORA_DOMAINS.map((d) => {
        const articles = rows.filter((r) => r.domain === d.domain).map((r) => r.article);
        return { domain: d.domain, chapter: d.chapter, articleCount: articles.length, articles };
      });
      return { total: domains.length, domains };
    },
    /** Every article matching the filters (reference data, 45 at most). */
    async articles(filter: { domain?: string; chapter?: string }) {
      const rows = (await all()).filter((r) => (!filter.domain || r.domain === filter.domain) && (!filter.chapter || r.chapter === filter.chapter));
      return { total: rows.length, articles: rows.map(summary) };
    },
    /** A page of the domains for the API; `total` counts all domains. */
    async domainPage(q: PageRequest) {
      const { domains, total } = await service.domains();
      const { items, pagination } = pageOf(domains, q);
      return { total, domains: items, pagination };
    },
    /** A page of the matching articles for the API; `total` counts all matches. */
    async articlePage(q: { domain?: string; chapter?: string } & PageRequest) {
      const { articles, total } = await service.articles({ domain: q.domain, chapter: q.chapter });
      const { items, pagination } = pageOf(articles, q);
      return { total, articles: items, pagination };
    },
    async article(raw: string) {
      const n = parseArticleParam(raw);
      const row = n === null ? null : (await all()).find((r) => r.regulation === REGULATION && r.number === n);
      if (!row) {
        const shown = n === null ? raw.replace(/-/g, ' ') : `Article ${n}`;
        throw notFound(`Article not found: ${shown}`, 'ARTICLE_NOT_FOUND');
      }
      return { ...summary(row), number: row.number, text: row.text };
    },
  };
  return service;
}
export type ComplianceService = ReturnType<typeof complianceService>;
