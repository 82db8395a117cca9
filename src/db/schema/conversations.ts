import { bigserial, boolean, index, integer, jsonb, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import type { AssistantMetadata } from '../../domain/answers.js';
import type { QueryLogSource } from '../../domain/sources.js';
import { newId } from '../../lib/ids.js';
import { users } from './users.js';
import { workspaces } from './workspaces.js';

export const CONVERSATION_STATUSES = ['active', 'archived', 'deleted'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/** A conversation belongs to one user inside one workspace (docs/conversations.md). */
export const conversations = pgTable(
  'conversations',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull().default('New Conversation'),
    status: text('status').$type<ConversationStatus>().notNull().default('active'),
    messageCount: integer('message_count').notNull().default(0),
    /** Time of the newest message; the creation time while there is none. */
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('conversations_owner_idx').on(t.workspaceId, t.userId, t.status, t.lastMessageAt)],
);

/** Messages of a conversation; `seq` orders them (two messages can share a timestamp). */
export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    conversationId: text('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    role: text('role').$type<'user' | 'assistant'>().notNull(),
    content: text('content').notNull(),
    metadata: jsonb('metadata').$type<AssistantMetadata>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('messages_conversation_seq_idx').on(t.conversationId, t.seq)],
);

/** One row per question asked (answered, failed or aborted), for analytics (docs/analytics.md). */
export const queryLog = pgTable(
  'query_log',
  {
    id: text('id').primaryKey().$defaultFn(newId),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The organization API key the question came with (docs/api-keys.md), else null. */
    apiKeyId: text('api_key_id'),
    conversationId: text('conversation_id').references(() => conversations.id, { onDelete: 'set null' }),
    /** `rag`, `stream` or `conversation`. */
    endpoint: text('endpoint').notNull(),
    question: text('question').notNull(),
    /** `answered`, `failed` or `aborted`. */
    status: text('status').notNull(),
    errorCode: text('error_code'),
    generator: text('generator').notNull(),
    model: text('model'),
    latencyMs: integer('latency_ms').notNull(),
    /** Time to the first answer chunk of a stream. */
    firstChunkMs: integer('first_chunk_ms'),
    confidence: real('confidence'),
    isGrounded: boolean('is_grounded'),
    hasHallucinations: boolean('has_hallucinations'),
    isRelevant: boolean('is_relevant'),
    sourceCount: integer('source_count').notNull().default(0),
    citedCount: integer('cited_count').notNull().default(0),
    sources: jsonb('sources').$type<QueryLogSource[]>().notNull().default([]),
    inputTokens: integer('input_tokens'),
    outputTokens: integer('output_tokens'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('query_log_workspace_time_idx').on(t.workspaceId, t.createdAt), index('query_log_user_idx').on(t.userId)],
);
