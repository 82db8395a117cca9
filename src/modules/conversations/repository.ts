import { and, asc, count, desc, eq, gt, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db, withIdempotencyMark } from '../../db/client.js';
import { conversations, messages, type ConversationStatus } from '../../db/schema/index.js';
import type { AssistantMetadata } from '../../domain/answers.js';
import type { Scope } from '../../domain/scope.js';
import { newId } from '../../lib/ids.js';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

export const SORT_FIELDS = {
  createdAt: conversations.createdAt,
  lastMessageAt: conversations.lastMessageAt,
  updatedAt: conversations.updatedAt,
  title: conversations.title,
  messageCount: conversations.messageCount,
} as const;
export type SortField = keyof typeof SORT_FIELDS;

/** A conversation is visible only to its user, in its workspace. */
const owned = (scope: Pick<Scope, 'workspaceId' | 'userId'>, id?: string): SQL =>
  and(eq(conversations.workspaceId, scope.workspaceId), eq(conversations.userId, scope.userId), id === undefined ? undefined : eq(conversations.id, id))!;

export interface NewMessage {
  role: 'user' | 'assistant';
  content: string;
  metadata: AssistantMetadata | null;
  createdAt: Date;
}

/** All SQL of conversations and their messages. */
export function conversationsRepository(db: Db) {
  /** The messages of a conversation of the scope's user (none when it is another's). */
  const messagesOf = (scope: Scope, conversationId: string): SQL =>
    and(
      eq(messages.conversationId, conversationId),
      inArray(messages.conversationId, db.select({ id: conversations.id }).from(conversations).where(owned(scope, conversationId))),
    )!;

  return {
    async insert(scope: Scope, title: string): Promise<ConversationRow> {
      // With an Idempotency-Key claim, marked in the same commit (src/db/client.ts).
      const [row] = await withIdempotencyMark(db, (tx) =>
        tx.insert(conversations).values({ workspaceId: scope.workspaceId, userId: scope.userId, title }).returning(),
      );
      return row;
    },

    async find(scope: Scope, id: string): Promise<ConversationRow | null> {
      const [row] = await db.select().from(conversations).where(owned(scope, id));
      return row ?? null;
    },

    async list(scope: Scope, q: { status: ConversationStatus; sort: SortField; desc: boolean; limit: number; offset: number }) {
      const where = and(owned(scope), eq(conversations.status, q.status));
      const col = SORT_FIELDS[q.sort];
      const order = q.desc ? [desc(col), desc(conversations.id)] : [asc(col), asc(conversations.id)];
      const rows = await db
        .select()
        .from(conversations)
        .where(where)
        .orderBy(...order)
        .limit(q.limit)
        .offset(q.offset);
      const [{ n }] = await db.select({ n: count() }).from(conversations).where(where);
      return { rows, total: Number(n) };
    },

    async update(scope: Scope, id: string, patch: { title?: string; status?: ConversationStatus }): Promise<ConversationRow | null> {
      const [row] = await db
        .update(conversations)
        .set({ ...patch, updatedAt: new Date() })
        .where(owned(scope, id))
        .returning();
      return row ?? null;
    },

    /** Deletes the conversation; its messages go with it (ON DELETE CASCADE). */
    async delete(scope: Scope, id: string): Promise<boolean> {
      const rows = await db.delete(conversations).where(owned(scope, id)).returning({ id: conversations.id });
      return rows.length > 0;
    },

    /** Deletes every message and resets the counters, in one transaction; returns how many went. */
    async clearMessages(scope: Scope, conversation: ConversationRow): Promise<number> {
      return db.transaction(async (tx) => {
        const gone = await tx.delete(messages).where(messagesOf(scope, conversation.id)).returning({ id: messages.id });
        await tx
          .update(conversations)
          .set({ messageCount: 0, lastMessageAt: conversation.createdAt, updatedAt: new Date() })
          .where(owned(scope, conversation.id));
        return gone.length;
      });
    },

    async messageSeq(scope: Scope, conversationId: string, messageId: string): Promise<number | null> {
      const [row] = await db
        .select({ seq: messages.seq })
        .from(messages)
        .where(and(messagesOf(scope, conversationId), eq(messages.id, messageId)));
      return row ? Number(row.seq) : null;
    },

    /**
     * A page of messages between two positions. `fromEnd` pages backwards from the
     * newest matching message; rows always come back oldest first.
     */
    async messages(scope: Scope, conversationId: string, q: { beforeSeq?: number; afterSeq?: number; limit: number; offset: number; fromEnd: boolean }) {
      const where = and(
        messagesOf(scope, conversationId),
        q.beforeSeq !== undefined ? lt(messages.seq, q.beforeSeq) : undefined,
        q.afterSeq !== undefined ? gt(messages.seq, q.afterSeq) : undefined,
      );
      const rows = await db
        .select()
        .from(messages)
        .where(where)
        .orderBy(q.fromEnd ? desc(messages.seq) : asc(messages.seq))
        .limit(q.limit)
        .offset(q.offset);
      const [{ n }] = await db.select({ n: count() }).from(messages).where(where);
      return { rows: q.fromEnd ? rows.reverse() : rows, total: Number(n) };
    },

    async allMessages(scope: Scope, conversationId: string): Promise<MessageRow[]> {
      return db.select().from(messages).where(messagesOf(scope, conversationId)).orderBy(asc(messages.seq));
    },

    /**
     * Stores one exchange (question and answer) in one statement, so in one round trip:
     * creates the conversation when `conversationId` is null, appends the messages and
     * moves the counters. Appending to an existing conversation updates its row first
     * (a row lock, so concurrent exchanges of one conversation keep their counters right)
     * and inserts the messages only when that update found the row. Returns null when the
     * conversation is not the scope's user's (or disappeared meanwhile).
     */
    async appendExchange(
      scope: Pick<Scope, 'workspaceId' | 'userId'>,
      input: { conversationId: string | null; newConversationId?: string; newTitle: string; messages: NewMessage[] },
    ) {
      const conversationId = input.conversationId ?? input.newConversationId ?? newId();
      const messageIds = input.messages.map(() => newId());
      const last = input.messages[input.messages.length - 1].createdAt.toISOString();
      const n = input.messages.length;
      const conv =
        input.conversationId === null
          ? sql`INSERT INTO conversations (id, workspace_id, user_id, title, message_count, last_message_at, created_at, updated_at)
              VALUES (${conversationId}, ${scope.workspaceId}, ${scope.userId}, ${input.newTitle}, ${n},
                      greatest(now(), ${last}::timestamptz), ${input.messages[0].createdAt.toISOString()}::timestamptz, now())
              RETURNING id`
          : sql`UPDATE conversations
              SET message_count = message_count + ${n}, last_message_at = greatest(last_message_at, ${last}::timestamptz), updated_at = now()
              WHERE id = ${conversationId} AND workspace_id = ${scope.workspaceId} AND user_id = ${scope.userId}
              RETURNING id`;
      const rows = sql.join(
        input.messages.map(
          (m, i) =>
            sql`(${i}, ${messageIds[i]}, ${m.role}, ${m.content}, ${m.metadata === null ? null : JSON.stringify(m.metadata)}::jsonb, ${m.createdAt.toISOString()}::timestamptz)`,
        ),
        sql`, `,
      );
      // seq (bigserial) is drawn in insert order, which ORDER BY v.ord makes the messages' order.
      // One statement; with an `Idempotency-Key` claim, in a transaction of its own so that
      // the claim is marked (with the answer) in the same commit (src/db/client.ts).
      const [row] = await withIdempotencyMark(db, async (tx) =>
        queryRows<{ n: number | string }>(
          tx,
          sql`WITH conv AS (${conv}),
          inserted AS (
            INSERT INTO messages (id, conversation_id, role, content, metadata, created_at)
            SELECT v.id, conv.id, v.role, v.content, v.metadata, v.created_at
            FROM conv, (VALUES ${rows}) AS v(ord, id, role, content, metadata, created_at)
            ORDER BY v.ord
            RETURNING id
          )
          SELECT count(*) AS n FROM inserted`,
        ),
      );
      if (Number(row?.n ?? 0) !== n) return null;
      return { conversationId, messageIds };
    },
  };
}
export type ConversationsRepository = ReturnType<typeof conversationsRepository>;
