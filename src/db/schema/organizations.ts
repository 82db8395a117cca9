import { index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { newId } from '../../lib/ids.js';
import { users } from './users.js';

/** Organization roles (docs/organizations-and-workspaces.md). */
export const ORG_ROLES = ['org_admin', 'analyst', 'viewer'] as const;
export type OrgRole = (typeof ORG_ROLES)[number];

/** A company account (the financial entity); it owns the vendor workspaces. */
export const organizations = pgTable('organizations', {
  id: text('id').primaryKey().$defaultFn(newId),
  name: text('name').notNull(),
  /** LEI of the financial entity itself (ISO 17442), optional. */
  lei: text('lei'),
  /** ISO 3166-1 alpha-2 country of the entity, optional. */
  country: text('country'),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A user belongs to at most one organization (unique user_id). */
export const organizationMembers = pgTable(
  'organization_members',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `org_admin`, `analyst` or `viewer`. */
    role: text('role').$type<OrgRole>().notNull(),
    /** `active`. */
    status: text('status').notNull().default('active'),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.userId] }), uniqueIndex('organization_members_user_uidx').on(t.userId)],
);

/** E-mail invitations to an organization: single-use, expiring, token stored hashed. */
export const organizationInvitations = pgTable(
  'organization_invitations',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').$type<OrgRole>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: text('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('organization_invitations_org_email_idx').on(t.orgId, t.email)],
);
