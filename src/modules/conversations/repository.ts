import { and, asc, count, desc, eq, gt, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { conversations, messages, type ConversationStatus } from '../../db/schema/index.js';
import type { AssistantMetadata } from '../../domain/answers.js';

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

/** The caller's scope: a conversation is visible only to its user, in its workspace. */
export interface Owner {
  workspaceId: string;
  userId: string;
}

export const SORT_FIELDS = {
  createdAt: conversations.createdAt,
  lastMessageAt: conversations.lastMessageAt,
  updatedAt: conversations.updatedAt,
  title: conversations.title,
  messageCount: conversations.messageCount,
} as const;
export type SortField = keyof typeof SORT_FIELDS;

const owned = (owner: Owner, id?: string): SQL =>
  and(
    eq(conversations.workspaceId, owner.workspaceId),
    eq(conversations.userId, owner.userId),
    id === undefined ? undefined : eq(conversations.id, id),
  )!;

export interface NewMessage {
  role: 'user' | 'assistant';
  content: string;
  metadata: AssistantMetadata | null;
  createdAt: Date;
}

/** All SQL of conversations and their messages. */
export function conversationsRepository(db: Db) {
  return {
    async insert(owner: Owner, title: string): Promise<ConversationRow> {
      const [row] = await db.insert(conversations).values({ ...owner, title }).returning();
      return row;
    },

    async find(owner: Owner, id: string): Promise<ConversationRow | null> {
      const [row] = await db.select().from(conversations).where(owned(owner, id));
      return row ?? null;
    },

    async list(owner: Owner, q: { status: ConversationStatus; sort: SortField; desc: boolean; limit: number; offset: number }) {
      const where = and(owned(owner), eq(conversations.status, q.status));
      const col = SORT_FIELDS[q.sort];
      const order = q.desc ? [desc(col), desc(conversations.id)] : [asc(col), asc(conversations.id)];
      const rows = await db.select().from(conversations).where(where).orderBy(...order).limit(q.limit).offset(q.offset);
      const [{ n }] = await db.select({ n: count() }).from(conversations).where(where);
      return { rows, total: Number(n) };
    },

    async update(owner: Owner, id: string, patch: { title?: string; status?: ConversationStatus }): Promise<ConversationRow | null> {
      const [row] = await db
        .update(conversations)
        .set({ ...patch, updatedAt: new Date() })
        .where(owned(owner, id))
        .returning();
      return row ?? null;
    },

    /** Deletes the conversation; its messages go with it (ON DELETE CASCADE). */
    async delete(owner: Owner, id: string): Promise<boolean> {
      const rows = await db.delete(conversations).where(owned(owner, id)).returning({ id: conversations.id });
      return rows.length > 0;
    },

    /** Deletes every message and resets the counters, in one transaction; returns how many went. */
    async clearMessages(conversation: ConversationRow): Promise<number> {
      return db.transaction(async (tx) => {
        const gone = await tx.delete(messages).where(eq(messages.conversationId, conversation.id)).returning({ id: messages.id });
        await tx
          .update(conversations)
          .set({ messageCount: 0, lastMessageAt: conversation.createdAt, updatedAt: new Date() })
          .where(eq(conversations.id, conversation.id));
        return gone.length;
      });
    },

    async messageSeq(conversationId: string, messageId: string): Promise<number | null> {
      const [row] = await db
        .select({ seq: messages.seq })
        .from(messages)
        .where(and(eq(messages.conversationId, conversationId), eq(messages.id, messageId)));
      return row ? Number(row.seq) : null;
    },

    /**
     * A page of messages between two positions. `fromEnd` pages backwards from the
     * newest matching message; rows always come back oldest first.
     */
    async messages(conversationId: string, q: { beforeSeq?: number; afterSeq?: number; limit: number; offset: number; fromEnd: boolean }) {
      const where = and(
        eq(messages.conversationId, conversationId),
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

    async allMessages(conversationId: string): Promise<MessageRow[]> {
      return db.select().from(messages).where(eq(messages.conversationId, conversationId)).orderBy(asc(messages.seq));
    },

    /**
     * Stores one exchange (question and answer) in one transaction: creates the
     * conversation when `conversationId` is null, appends both messages and moves the
     * counters. Returns null when the conversation disappeared meanwhile.
     */
    async appendExchange(owner: Owner, input: { conversationId: string | null; newTitle: string; messages: NewMessage[] }) {
      return db.transaction(async (tx) => {
        let conversationId = input.conversationId;
        if (conversationId === null) {
          const [row] = await tx.insert(conversations).values({ ...owner, title: input.newTitle, createdAt: input.messages[0].createdAt }).returning({ id: conversations.id });
          conversationId = row.id;
        } else {
          // Lock the row so that concurrent exchanges of one conversation keep their counters right.
          const [row] = await tx.select({ id: conversations.id }).from(conversations).where(owned(owner, conversationId)).for('update');
          if (!row) return null;
        }
        const inserted = await tx
          .insert(messages)
          .values(input.messages.map((m) => ({ conversationId: conversationId!, ...m })))
          .returning({ id: messages.id, role: messages.role });
        const last = input.messages[input.messages.length - 1].createdAt;
        await tx
          .update(conversations)
          .set({
            messageCount: sql`${conversations.messageCount} + ${input.messages.length}`,
            lastMessageAt: sql`greatest(${conversations.lastMessageAt}, ${last.toISOString()}::timestamptz)`,
            updatedAt: new Date(),
          })
          .where(eq(conversations.id, conversationId));
        return { conversationId, messageIds: inserted.map((m) => m.id) };
      });
    },
  };
}
export type ConversationsRepository = ReturnType<typeof conversationsRepository>;
