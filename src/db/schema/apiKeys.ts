import { index, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { newId } from '../../lib/ids.js';
import { organizations } from './organizations.js';
import { users } from './users.js';
import type { Permissions } from './workspaces.js';

/**
 * Organization API keys for systems (docs/api-keys.md): created by an org_admin for some
 * workspaces and permissions, stored as the SHA-256 of the secret, sent as
 * `Authorization: Bearer dora_sk_...`.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The first characters of the key (`dora_sk_` and 6 more), shown in lists to tell keys apart. */
    prefix: text('prefix').notNull(),
    /** SHA-256 (hex) of the whole key. */
    keyHash: text('key_hash').notNull(),
    /** The org_admin who created it; the key acts with at most this user's access. */
    createdBy: text('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Opaque ids of the workspaces the key may use. */
    workspaceIds: jsonb('workspace_ids').$type<string[]>().notNull(),
    /** The permission flags the key holds (in each of its workspaces). */
    permissions: jsonb('permissions').$type<Permissions>().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('api_keys_hash_uidx').on(t.keyHash), index('api_keys_org_idx').on(t.orgId, t.createdAt)],
);
