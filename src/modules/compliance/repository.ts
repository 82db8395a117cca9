import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { complianceArticles } from '../../db/schema/index.js';
import type { DoraArticle } from '../../compliance/dora.js';

export type ArticleRow = typeof complianceArticles.$inferSelect;

export function complianceRepository(db: Db) {
  return {
    async list(filter: { domain?: string; chapter?: string }): Promise<ArticleRow[]> {
      return db
        .select()
        .from(complianceArticles)
        .where(
          and(
            filter.domain ? eq(complianceArticles.domain, filter.domain) : undefined,
            filter.chapter ? eq(complianceArticles.chapter, filter.chapter) : undefined,
          ),
        )
        .orderBy(asc(complianceArticles.number));
    },
    async count(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(complianceArticles);
      return Number(row?.n ?? 0);
    },
    /** Upserts every article (repeatable); with reset, wipes the table first. One transaction. */
    async load(regulation: string, articles: DoraArticle[], reset: boolean): Promise<void> {
      await db.transaction(async (tx) => {
        if (reset) await tx.delete(complianceArticles);
        for (const a of articles) {
          const values = {
            id: `${regulation}-${a.number}`,
            regulation,
            number: a.number,
            article: a.article,
            title: a.title,
            chapter: a.chapter,
            domain: a.domain,
            text: a.text,
            obligations: a.obligations,
            loadedAt: new Date(),
          };
          await tx
            .insert(complianceArticles)
            .values(values)
            .onConflictDoUpdate({ target: complianceArticles.id, set: { ...values, id: undefined } });
        }
      });
    },
  };
}
export type ComplianceRepository = ReturnType<typeof complianceRepository>;
