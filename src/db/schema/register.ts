import { doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { EntitySettings } from '../../domain/register.js';
import { newId } from '../../lib/ids.js';
import { organizations } from './organizations.js';
import { users } from './users.js';

/**
 * The Register of Information's own records, per organization (docs/register-of-information.md):
 * the entity settings, the business functions (B_06.01), the exchange rates the analyst records,
 * and the audit of their changes.
 */

/** The entity settings an organization stored; a field absent or null falls back to the organization and the ROI_* defaults. */
export const registerEntitySettings = pgTable('register_entity_settings', {
  orgId: text('org_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  values: jsonb('values').$type<Partial<EntitySettings>>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A business function of the entity; `code` (`F1`, `F2`, …) is its identifier in the templates, assigned once. */
export const businessFunctions = pgTable(
  'business_functions',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    licensedActivity: text('licensed_activity').notNull(),
    /** `yes`, `no` or `not_assessed` (B_06.01 c0050). */
    criticality: text('criticality').notNull(),
    reasons: text('reasons'),
    /** YYYY-MM-DD: date of the last assessment of criticality or importance (B_06.01 c0070). */
    lastAssessmentDate: text('last_assessment_date').notNull(),
    rtoHours: integer('rto_hours').notNull(),
    rpoHours: integer('rpo_hours').notNull(),
    /** `low`, `medium`, `high` or `not_assessed` (B_06.01 c0100). */
    impact: text('impact').notNull(),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('business_functions_org_code_uidx').on(t.orgId, t.code), index('business_functions_org_idx').on(t.orgId)],
);

/** 1 unit of `currency` = `rate` units of `base_currency` as at `rate_date` (YYYY-MM-DD). */
export const fxRates = pgTable(
  'fx_rates',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    baseCurrency: text('base_currency').notNull(),
    currency: text('currency').notNull(),
    rateDate: text('rate_date').notNull(),
    rate: doublePrecision('rate').notNull(),
    updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.baseCurrency, t.currency, t.rateDate] })],
);

/** One change of the entity settings, a function or an exchange rate: who, when, old and new value. */
export const registerAudit = pgTable(
  'register_audit',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** `entity`, `function` or `fx_rate`. */
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    field: text('field').notNull(),
    oldValue: text('old_value'),
    newValue: text('new_value'),
    changedBy: text('changed_by').references(() => users.id, { onDelete: 'set null' }),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('register_audit_org_idx').on(t.orgId, t.changedAt)],
);
