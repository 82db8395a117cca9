import { sql } from 'drizzle-orm';
import { bigserial, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { newId } from '../../lib/ids.js';
import { users } from './users.js';
import { workspaces } from './workspaces.js';

/** Kinds of notification (docs/notifications.md). */
export const NOTIFICATION_TYPES = [
  'sync_completed',
  'sync_failed',
  'questionnaire_answered',
  'assessment_completed',
  'assessment_failed',
  'profile_draft_completed',
  'profile_draft_failed',
  'invitation',
  'document_expiring',
  'system',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/**
 * One notification for one user. A notification about a workspace is stored once per
 * member (each has their own read state) and is deleted with the workspace; `seq`
 * orders a user's notifications (two rows can share a timestamp) and is the resume
 * point of the push channel.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: text('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    type: text('type').$type<NotificationType>().notNull(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_seq_idx').on(t.userId, t.seq),
    index('notifications_user_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
    index('notifications_workspace_idx').on(t.workspaceId),
  ],
);
