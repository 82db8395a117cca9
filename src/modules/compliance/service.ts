import { DORA_DOMAINS, readDoraArticles, type DoraArticle } from '../../compliance/dora.js';
import { notFound } from '../../lib/errors.js';
import type { ArticleRow, ComplianceRepository } from './repository.js';
import { pageOf, type PageRequest, type Pagination } from '../../domain/paging.js';

export const REGULATION = 'DORA';

function summary(r: ArticleRow) {
  return { regulation: r.regulation, article: r.article, title: r.title, domain: r.domain, chapter: r.chapter, obligations: r.obligations };
}
/** An article as listed (without its text). */
export type ArticleSummary = ReturnType<typeof summary>;
/** An article with its number and text. */
export type ArticleDetail = ArticleSummary & { number: number; text: string };

/** A DORA domain (chapter) with its articles. */
export interface DomainView {
  domain: (typeof DORA_DOMAINS)[number]['domain'];
  chapter: (typeof DORA_DOMAINS)[number]['chapter'];
  articleCount: number;
  articles: string[];
}

/** The DORA reference data: domains and articles, read once and kept in memory. */
export interface ComplianceService {
  /** Loads the DORA reference data; repeatable, `reset` wipes and reloads. */
  loadReferenceData(opts?: { reset?: boolean; articles?: DoraArticle[] }): Promise<{ articles: number }>;
  /** Whether the reference data is loaded. */
  isLoaded(): Promise<boolean>;
  /** Changes whenever this process reloads the reference data. */
  version(): number;
  /** The domains (reference data, 7) with their articles. */
  domains(): Promise<{ total: number; domains: DomainView[] }>;
  /** Every article matching the filters (reference data, 45 at most). */
  articles(filter: { domain?: string; chapter?: string }): Promise<{ total: number; articles: ArticleSummary[] }>;
  /** A page of the domains for the API; `total` counts all domains. */
  domainPage(q: PageRequest): Promise<{ total: number; domains: DomainView[]; pagination: Pagination }>;
  /** A page of the matching articles for the API; `total` counts all matches. */
  articlePage(q: { domain?: string; chapter?: string } & PageRequest): Promise<{ total: number; articles: ArticleSummary[]; pagination: Pagination }>;
  /** One article by `Article 28`, `Article-28` or `article 28` (404 ARTICLE_NOT_FOUND). */
  article(raw: string): Promise<ArticleDetail>;
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
export function complianceService(repo: ComplianceRepository): ComplianceService {
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
  const service: ComplianceService = {
    async loadReferenceData(opts = {}) {
      const articles = opts.articles ?? readDoraArticles();
      try {
        await repo.load(REGULATION, articles, opts.reset ?? false);
      } finally {
        cached = null;
        version += 1;
      }
      return { articles: articles.length };
    },
    async isLoaded() {
      return (await repo.count()) > 0;
    },
    version: () => version,
    async domains() {
      const rows = await all();
      const domains = DORA_DOMAINS.map((d) => {
        const articles = rows.filter((r) => r.domain === d.domain).map((r) => r.article);
        return { domain: d.domain, chapter: d.chapter, articleCount: articles.length, articles };
      });
      return { total: domains.length, domains };
    },
    async articles(filter) {
      const rows = (await all()).filter((r) => (!filter.domain || r.domain === filter.domain) && (!filter.chapter || r.chapter === filter.chapter));
      return { total: rows.length, articles: rows.map(summary) };
    },
    async domainPage(q) {
      const { domains, total } = await service.domains();
      const { items, pagination } = pageOf(domains, q);
      return { total, domains: items, pagination };
    },
    async articlePage(q) {
      const { articles, total } = await service.articles({ domain: q.domain, chapter: q.chapter });
      const { items, pagination } = pageOf(articles, q);
      return { total, articles: items, pagination };
    },
    async article(raw) {
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
