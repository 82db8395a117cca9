import { and, count, desc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { notifications, type NotificationType } from '../../db/schema/notifications.js';

export type NotificationRow = typeof notifications.$inferSelect;
export interface NewNotification {
  userId: string;
  workspaceId: string | null;
  type: NotificationType;
  title: string;
  body: string;
  data: Record<string, unknown>;
}

/** The Postgres LISTEN/NOTIFY channel of the push channel (docs/notifications.md). */
export const NOTIFY_CHANNEL = 'dora_notifications';

/** A stored notification as it travels in a NOTIFY payload. */
export interface BusNotification {
  id: string;
  type: NotificationType;
  title: string;
  body: string;
  data: Record<string, unknown>;
  workspaceId: string | null;
  createdAt: string;
}

/**
 * What travels through NOTIFY. `new` carries the notification itself when the payload stays
 * under NOTIFY_INLINE_MAX bytes (PostgreSQL's limit is 8000), else only its id and the
 * listener reads the row.
 */
export type BusMessage =
  | { e: 'new'; id: string; u: string; n?: BusNotification }
  | { e: 'read'; u: string }
  /** A live workspace event (not stored): delivered to the streams of everyone with access (and `perm`, when given). */
  | { e: 'ws'; w: string; ev: WorkspaceEventName; p: Record<string, unknown>; perm?: string };
/** Names of the non-stored workspace events of the stream (docs/notifications.md). */
export type WorkspaceEventName = 'data-source:status' | 'assessment:status' | 'mcp-source:status';
export const NOTIFY_INLINE_MAX = 7000;

export function busNotificationOf(r: NotificationRow): BusNotification {
  return { id: r.id, type: r.type, title: r.title, body: r.body, data: r.data, workspaceId: r.workspaceId, createdAt: r.createdAt.toISOString() };
}

export function busMessageOf(r: NotificationRow): BusMessage {
  const n = busNotificationOf(r);
  const full: BusMessage = { e: 'new', id: r.id, u: r.userId, n };
  return Buffer.byteLength(JSON.stringify(full)) <= NOTIFY_INLINE_MAX ? full : { e: 'new', id: r.id, u: r.userId };
}

export interface ListFilter {
  limit: number;
  offset: number;
  unread?: boolean;
  type?: NotificationType;
  workspaceId?: string;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

async function publish(tx: Tx | Db, messages: BusMessage[]) {
  for (const m of messages) await tx.execute(sql`select pg_notify(${NOTIFY_CHANNEL}, ${JSON.stringify(m)})`);
}

/** All SQL of notifications. */
export function notificationsRepository(db: Db) {
  const where = (userId: string, f: Omit<ListFilter, 'limit' | 'offset'>): SQL => {
    const parts: SQL[] = [eq(notifications.userId, userId)];
    if (f.unread) parts.push(isNull(notifications.readAt));
    if (f.type) parts.push(eq(notifications.type, f.type));
    if (f.workspaceId) parts.push(eq(notifications.workspaceId, f.workspaceId));
    return and(...parts)!;
  };

  return {
    /**
     * Stores notifications and announces each one on the NOTIFY channel in the same
     * transaction: listeners hear of a row only once it is committed.
     */
    async insertAndPublish(rows: NewNotification[]): Promise<NotificationRow[]> {
      if (rows.length === 0) return [];
      return db.transaction(async (tx) => {
        const inserted = await tx.insert(notifications).values(rows).returning();
        await publish(tx, inserted.map(busMessageOf));
        return inserted;
      });
    },

    /** Announces a live event that is not stored (no transaction: it describes what was just committed). */
    async publishEvent(m: BusMessage): Promise<void> {
      await publish(db, [m]);
    },

    async byId(id: string): Promise<NotificationRow | null> {
      const [row] = await db.select().from(notifications).where(eq(notifications.id, id)).limit(1);
      return row ?? null;
    },

    async forUser(userId: string, id: string): Promise<NotificationRow | null> {
      const [row] = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
        .limit(1);
      return row ?? null;
    },

    async unreadCount(userId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(notifications)
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
      return Number(row?.n ?? 0);
    },

    async list(userId: string, f: ListFilter): Promise<{ rows: NotificationRow[]; total: number }> {
      const cond = where(userId, f);
      const rows = await db.select().from(notifications).where(cond).orderBy(desc(notifications.seq)).limit(f.limit).offset(f.offset);
      const [t] = await db.select({ n: count() }).from(notifications).where(cond);
      return { rows, total: Number(t?.n ?? 0) };
    },

    /** A user's notifications created after the given one (oldest first), for a resuming stream. */
    async after(userId: string, afterId: string, limit: number): Promise<NotificationRow[] | null> {
      const [anchor] = await db
        .select({ seq: notifications.seq })
        .from(notifications)
        .where(and(eq(notifications.id, afterId), eq(notifications.userId, userId)))
        .limit(1);
      if (!anchor) return null;
      return db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), gt(notifications.seq, anchor.seq)))
        .orderBy(notifications.seq)
        .limit(limit);
    },

    /**
     * Marks one notification read (idempotent: the first read time is kept) or unread;
     * announces the new count when it changed.
     */
    async setRead(userId: string, id: string, read: boolean): Promise<NotificationRow | null> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(notifications)
          .set({ readAt: read ? sql`coalesce(${notifications.readAt}, now())` : null })
          .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
          .returning();
        if (row) await publish(tx, [{ e: 'read', u: userId }]);
        return row ?? null;
      });
    },

    /** Marks every unread notification of a user read (optionally of one workspace); returns how many. */
    async markAllRead(userId: string, workspaceId?: string): Promise<number> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .update(notifications)
          .set({ readAt: sql`now()` })
          .where(where(userId, { unread: true, workspaceId }))
          .returning({ id: notifications.id });
        if (rows.length) await publish(tx, [{ e: 'read', u: userId }]);
        return rows.length;
      });
    },
  };
}
export type NotificationsRepository = ReturnType<typeof notificationsRepository>;
