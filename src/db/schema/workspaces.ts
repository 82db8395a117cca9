import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { newId } from '../../lib/ids.js';
import { organizations } from './organizations.js';
import { users } from './users.js';
import type { FieldSource } from '../../domain/profileDrafts.js';
import type { LifecycleStatus } from '../../domain/inventory.js';
import type { CRITICALITY_TIERS } from '../../domain/vendorProfile.js';

export const WORKSPACE_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

export const PERMISSION_FLAGS = ['canQuery', 'canViewSources', 'canInvite', 'canManageSync', 'canEditSettings', 'canDeleteWorkspace'] as const;
export type PermissionFlag = (typeof PERMISSION_FLAGS)[number];
export type Permissions = Record<PermissionFlag, boolean>;

export interface SyncSchedule {
  enabled: boolean;
  intervalHours: number;
}

/**
 * A vendor workspace. `id` is the opaque id; `slug` (column `workspace_id`, the API's
 * `workspaceId` field) is the second, human-readable identifier. Both are accepted in
 * `X-Workspace-Id`.
 * Tables of other domains reference `workspaces.id` with ON DELETE CASCADE.
 */
export const workspaces = pgTable(
  'workspaces',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    slug: text('workspace_id').notNull().unique(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    ownerId: text('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    syncSchedule: jsonb('sync_schedule').$type<SyncSchedule>().notNull().default({ enabled: false, intervalHours: 24 }),
    /** The vendor profile (shape: VendorProfile in src/domain/vendorProfile.ts). */
    vendorProfile: jsonb('vendor_profile').$type<Record<string, unknown>>().notNull().default({}),
    /**
     * Where profile values came from (docs/register-drafting.md): profile path
     * (`contracts.0.governingLaw`) -> the accepted draft value's passage. A value changed by
     * hand loses its source.
     */
    fieldSources: jsonb('field_sources').$type<Record<string, FieldSource>>().notNull().default({}),
    /** The person accountable for the vendor relationship (docs/inventory.md); null: not named. */
    vendorOwnerId: text('vendor_owner_id').references(() => users.id, { onDelete: 'set null' }),
    /** `onboarding`, `active`, `exiting` or `exited` (LIFECYCLE_STATUSES). */
    lifecycle: text('lifecycle').$type<LifecycleStatus>().notNull().default('active'),
    /** The profile's tier, kept by the database for the inventory's filters and sorts. */
    criticalityTier: text('criticality_tier').$type<(typeof CRITICALITY_TIERS)[number]>().generatedAlwaysAs(sql`vendor_profile->>'criticalityTier'`),
    /** The profile's next review date (YYYY-MM-DD), kept by the database. */
    nextReviewDate: text('next_review_date').generatedAlwaysAs(sql`vendor_profile->>'nextReviewDate'`),
    /** The latest end date of the profile's contracts (contractEndOf), written with the profile. */
    contractEnd: text('contract_end'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('workspaces_org_idx').on(t.orgId),
    uniqueIndex('workspaces_org_name_uidx').on(t.orgId, sql`lower(${t.name})`),
    index('workspaces_org_tier_idx').on(t.orgId, t.criticalityTier),
    index('workspaces_org_next_review_idx').on(t.orgId, t.nextReviewDate),
    index('workspaces_org_contract_end_idx').on(t.orgId, t.contractEnd),
    index('workspaces_org_lifecycle_idx').on(t.orgId, t.lifecycle),
    index('workspaces_vendor_owner_idx').on(t.vendorOwnerId),
  ],
);

/**
 * Explicit workspace memberships (the owner always has one). Organization members
 * without a row get the role their organization role maps to; a row with status
 * `removed` or `left` withdraws that implicit access.
 */
export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').$type<WorkspaceRole>().notNull(),
    permissions: jsonb('permissions').$type<Permissions>().notNull(),
    /** `active`, `removed` or `left`. */
    status: text('status').notNull().default('active'),
    addedBy: text('added_by').references(() => users.id, { onDelete: 'set null' }),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index('workspace_members_user_idx').on(t.userId)],
);
