import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { newId } from '../../lib/ids.js';

/**
 * `Idempotency-Key` records (docs/api-conventions.md, "Retries"): the first request with a
 * key claims it (`in_flight`), its effect marks it in the effect's own transaction
 * (`committedAt`), and its response is kept (`completed`) for 24 hours to be replayed.
 * One row per caller (user, or organization API key) and key.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    /** `user:<id>` or `key:<id>`: keys of different callers never meet. */
    owner: text('owner').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of method, route, workspace and body: the same key with another request is refused. */
    requestHash: text('request_hash').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    /** in_flight (claimed), completed (response stored). */
    state: text('state').$type<'in_flight' | 'completed'>().notNull().default('in_flight'),
    /** Until when the claim is held by a running request; a claim past it was abandoned (process gone). */
    leaseUntil: timestamp('lease_until', { withTimezone: true }).notNull(),
    /** Set in the transaction of the request's effect: the effect is in the database. */
    committedAt: timestamp('committed_at', { withTimezone: true }),
    statusCode: integer('status_code'),
    contentType: text('content_type'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('idempotency_keys_owner_key_idx').on(t.owner, t.key), index('idempotency_keys_expires_idx').on(t.expiresAt)],
);
