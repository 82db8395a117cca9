import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.js';
import { users } from './users.js';

/**
 * An organization's overrides of the provider alias table (docs/concentration.md): a name
 * (normalized) merged into a provider, or split off as its own provider.
 */
export const providerAliases = pgTable(
  'provider_aliases',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The normalized name (nameKey in src/compliance/concentration/providers.ts). */
    nameKey: text('name_key').notNull(),
    /** The name as the analyst wrote it. */
    name: text('name').notNull(),
    /** `merge` or `split`. */
    action: text('action').$type<'merge' | 'split'>().notNull(),
    providerKey: text('provider_key').notNull(),
    providerName: text('provider_name').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.nameKey] }), index('provider_aliases_provider_idx').on(t.orgId, t.providerKey)],
);
