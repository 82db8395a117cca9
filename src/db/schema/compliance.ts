import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** DORA reference data (Regulation (EU) 2022/2554, Articles 1-45). */
export const complianceArticles = pgTable('compliance_articles', {
  /** `DORA-28` */
  id: text('id').primaryKey(),
  regulation: text('regulation').notNull(),
  number: integer('number').notNull(),
  /** `Article 28` */
  article: text('article').notNull(),
  title: text('title').notNull(),
  chapter: text('chapter').notNull(),
  domain: text('domain').notNull(),
  text: text('text').notNull(),
  obligations: jsonb('obligations').$type<string[]>().notNull(),
  loadedAt: timestamp('loaded_at', { withTimezone: true }).notNull().defaultNow(),
});
