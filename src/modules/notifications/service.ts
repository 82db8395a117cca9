import { NOTIFICATION_TYPES, type NotificationType } from '../../db/schema/notifications.js';
import { AppError, notFound } from '../../lib/errors.js';
import {
  busNotificationOf,
  NOTIFY_INLINE_MAX,
  type BusMessage,
  type NotificationRow,
  type NotificationsRepository,
  type WorkspaceEventName,
} from './repository.js';
import type { NotificationBus } from './bus.js';
import { offsetOf, pagination, type Pagination } from '../../domain/paging.js';
import type { Log } from '../../domain/log.js';

/**
 * Notifications (docs/notifications.md): stored per user, counted, listed, marked read,
 * and pushed to open streams of every instance through Postgres LISTEN/NOTIFY.
 */

export interface NotifyInput {
  /** Recipients. With `workspaceId` too, only those of them who can access the workspace. */
  userIds?: string[];
  /** The workspace the notification is about; without `userIds`, everyone with access to it. */
  workspaceId?: string | null;
  /** Users left out (typically the one whose action caused the notification). */
  excludeUserIds?: string[];
  type: NotificationType;
  title: string;
  body?: string;
  /** Small JSON object for the client (ids to link to); at most 4 KB serialized. */
  data?: Record<string, unknown>;
}

export interface NotificationView {
  id: string;
  type: NotificationType;
  title: string;
  body: string;
  data: Record<string, unknown>;
  workspaceId: string | null;
  read: boolean;
  readAt: string | null;
  createdAt: string;
}

/** Payload of the `notification:new` event. */
export interface NewEvent {
  id: string;
  type: NotificationType;
  title: string;
  body: string;
  data: Record<string, unknown>;
  workspaceId: string | null;
  createdAt: string;
  unreadCount: number;
  timestamp: number;
}

/** A live event about a workspace, not stored (e.g. a data source's status change). */
export interface WorkspaceEventInput {
  workspaceId: string;
  event: WorkspaceEventName;
  payload: Record<string, unknown>;
  /** Only users holding this workspace permission receive it (e.g. `canViewSources`). */
  permission?: string;
}

/** What a stream receives. */
export type StreamEvent =
  | { event: 'notification:new'; id: string; payload: NewEvent }
  | { event: 'notification:count'; payload: { unreadCount: number; timestamp: number } }
  | { event: WorkspaceEventName; payload: Record<string, unknown> };

export interface Subscriber {
  onEvent(e: StreamEvent): void;
  /** The service is shutting down: end the stream. */
  onClose(): void;
}

export interface Subscription {
  unsubscribe(): void;
}

export const TITLE_MAX = 200;
export const BODY_MAX = 2000;
export const DATA_MAX_BYTES = 4096;
/** Notifications replayed to a stream that resumes with `Last-Event-ID`. */
export const REPLAY_MAX = 100;

export const tooManyStreams = (max: number) =>
  new AppError(429, 'TOO_MANY_STREAMS', `Too many open notification streams (at most ${max} per user); close one first`);

function view(r: NotificationRow): NotificationView {
  return {
    id: r.id,
    type: r.type,
    title: r.title,
    body: r.body,
    data: r.data,
    workspaceId: r.workspaceId,
    read: r.readAt !== null,
    readAt: r.readAt ? r.readAt.toISOString() : null,
    createdAt: r.createdAt.toISOString(),
  };
}

function newEvent(r: NotificationRow, unreadCount: number): StreamEvent {
  return { event: 'notification:new', id: r.id, payload: { ...busNotificationOf(r), unreadCount, timestamp: Date.now() } };
}

/** A mistake of the calling module (not of the API client): a plain Error, a 500 if it reaches HTTP. */
function checkInput(input: NotifyInput) {
  if (!NOTIFICATION_TYPES.includes(input.type)) throw new Error(`notify: unknown notification type ${String(input.type)}`);
  if (!input.userIds && !input.workspaceId) throw new Error('notify: userIds or workspaceId is required');
  const title = input.title.trim();
  if (!title || title.length > TITLE_MAX) throw new Error(`notify: title must be 1-${TITLE_MAX} characters`);
  if ((input.body ?? '').length > BODY_MAX) throw new Error(`notify: body must be at most ${BODY_MAX} characters`);
  const data = input.data ?? {};
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('notify: data must be an object');
  if (Buffer.byteLength(JSON.stringify(data)) > DATA_MAX_BYTES) throw new Error(`notify: data must be at most ${DATA_MAX_BYTES} bytes`);
  return { title, body: input.body ?? '', data };
}

/** Gives an event to streams; a stream that throws is logged and the others still get it. */
function pushTo(subs: Iterable<Subscriber>, ev: StreamEvent, log: Log | undefined) {
  for (const s of subs) {
    try {
      s.onEvent(ev);
    } catch (err) {
      log?.warn({ err }, 'notifications: a stream failed to take an event');
    }
  }
}

/** Who receives a notification: `userIds` (limited to the workspace's members with a workspace), or every member; minus `excludeUserIds`. */
async function recipients(workspaceMembers: NotificationsDeps['workspaceMembers'], input: NotifyInput): Promise<string[]> {
  let ids: string[];
  if (input.workspaceId) {
    const members = await workspaceMembers(input.workspaceId);
    ids = input.userIds ? input.userIds.filter((u) => members.includes(u)) : members;
  } else {
    ids = input.userIds ?? [];
  }
  const excluded = new Set(input.excludeUserIds ?? []);
  return [...new Set(ids)].filter((u) => !excluded.has(u));
}

export interface NotificationsDeps {
  repo: NotificationsRepository;
  /** Ids of everyone who can access a workspace (holding `permission`, when given) (the workspaces service). */
  workspaceMembers(workspaceId: string, permission?: string): Promise<string[]>;
  /** Builds the LISTEN side of the fan-out, delivering to `receive`. */
  createBus(receive: (m: BusMessage) => void): NotificationBus;
  maxStreamsPerUser: number;
  log?: Log;
}

/** One page of a user's notifications. */
export interface NotificationPage {
  notifications: NotificationView[];
  unreadCount: number;
  pagination: Pagination & { hasMore: boolean; offset: number };
}

/**
 * The notifications of users (stored, per user; not workspace-scoped: a user's
 * notifications of every workspace) and the live events of workspaces.
 */
export interface NotificationsService {
  /** Stores a notification for each recipient and pushes it to their open streams on every instance; returns the stored ones. */
  notify(input: NotifyInput): Promise<NotificationView[]>;
  /** Like notify, for side effects of another action: a failure is logged and never fails that action. */
  notifyQuietly(input: NotifyInput): Promise<void>;
  /** A live, unstored event about a workspace to the open streams of everyone with access (holding `permission`); never throws. */
  broadcast(input: WorkspaceEventInput): Promise<void>;
  /** The badge count: the user's unread notifications, across all workspaces. */
  unreadCount(userId: string): Promise<number>;
  /** A page of the user's notifications: by `page`, or by `offset` when given (it wins). */
  list(
    userId: string,
    q: { page: number; limit: number; offset?: number; unread?: boolean; type?: NotificationType; workspaceId?: string },
  ): Promise<NotificationPage>;
  /** Marks one of the user's notifications read (or unread); someone else's is 404 (never revealed). */
  setRead(userId: string, id: string, read?: boolean): Promise<{ notification: NotificationView; unreadCount: number }>;
  /** Marks all the user's unread notifications read (optionally those of one workspace). */
  markAllRead(userId: string, workspaceId?: string): Promise<{ updated: number; unreadCount: number }>;
  /** Registers an open stream of the user on this instance (429 TOO_MANY_STREAMS beyond the limit); starts listening on first use. */
  subscribe(userId: string, sub: Subscriber): Promise<Subscription>;
  /** What a stream shows first: the unread count, then what it missed after `lastEventId`. */
  opening(userId: string, lastEventId?: string): Promise<StreamEvent[]>;
  /** Number of open streams on this instance (for tests and metrics). */
  openStreams(): number;
  /** Ends every open stream and stops listening (app shutdown). */
  close(): Promise<void>;
}

export function notificationsService(deps: NotificationsDeps): NotificationsService {
  const { repo, maxStreamsPerUser } = deps;
  const subscribers = new Map<string, Set<Subscriber>>();
  let closed = false;
  // The messages of one user are handled one after another (their streams see events in
  // commit order); different users' in parallel.
  const chains = new Map<string, Promise<void>>();

  /** A workspace event: to this instance's streams of the users with access to the workspace. */
  async function deliverWorkspace(m: Extract<BusMessage, { e: 'ws' }>) {
    const users = (await deps.workspaceMembers(m.w, m.perm)).filter((u) => subscribers.has(u));
    const ev: StreamEvent = { event: m.ev, payload: { ...m.p, timestamp: Date.now() } };
    for (const u of users) pushTo(subscribers.get(u) ?? [], ev, deps.log);
  }

  async function deliver(m: BusMessage) {
    if (m.e === 'ws') return deliverWorkspace(m);
    const subs = subscribers.get(m.u);
    if (!subs || subs.size === 0) return;
    let ev: StreamEvent | null = null;
    if (m.e === 'new') {
      let n = m.n;
      if (!n) {
        const row = await repo.byId(m.id);
        if (!row || row.userId !== m.u) return;
        n = busNotificationOf(row);
      }
      ev = { event: 'notification:new', id: n.id, payload: { ...n, unreadCount: await repo.unreadCount(m.u), timestamp: Date.now() } };
    } else if (m.e === 'read') {
      ev = { event: 'notification:count', payload: { unreadCount: await repo.unreadCount(m.u), timestamp: Date.now() } };
    }
    if (!ev) return;
    pushTo(subscribers.get(m.u) ?? [], ev, deps.log);
  }

  const bus = deps.createBus((m) => {
    // Events of one user (or one workspace) are delivered in commit order.
    let key: string;
    if (m.e === 'ws') {
      if (subscribers.size === 0) return; // no stream open on this instance
      key = `ws:${m.w}`;
    } else {
      if (!subscribers.has(m.u)) return; // nobody of this user listens on this instance
      key = m.u;
    }
    const next = (chains.get(key) ?? Promise.resolve()).then(() => deliver(m)).catch((err) => deps.log?.error({ err }, 'notifications: delivery failed'));
    chains.set(key, next);
    void next.then(() => {
      if (chains.get(key) === next) chains.delete(key);
    });
  });

  const service: NotificationsService = {
    /**
     * Stores a notification for each recipient and pushes it to their open streams on
     * every instance. Returns the stored notifications (one per recipient).
     */
    async notify(input: NotifyInput): Promise<NotificationView[]> {
      const { title, body, data } = checkInput(input);
      const users = await recipients(deps.workspaceMembers, input);
      const rows = await repo.insertAndPublish(
        users.map((userId) => ({ userId, workspaceId: input.workspaceId ?? null, type: input.type, title, body, data })),
      );
      return rows.map(view);
    },

    /**
     * Like notify, for side effects of another action (an invitation, a finished sync):
     * a failure is logged and never fails that action.
     */
    async notifyQuietly(input: NotifyInput): Promise<void> {
      try {
        await service.notify(input);
      } catch (err) {
        deps.log?.error({ err, type: input.type }, 'notifications: notify failed');
      }
    },

    /**
     * A live event about a workspace that is not stored (docs/notifications.md, "Live workspace
     * events"): pushed to the open streams, on every instance, of everyone with access to the
     * workspace (holding `permission`, when given). A stream that is not open misses it; clients
     * re-read the resource when they reconnect. Never throws: a failure is logged.
     */
    async broadcast(input: WorkspaceEventInput): Promise<void> {
      const m: BusMessage = { e: 'ws', w: input.workspaceId, ev: input.event, p: input.payload, ...(input.permission ? { perm: input.permission } : {}) };
      if (Buffer.byteLength(JSON.stringify(m)) > NOTIFY_INLINE_MAX) {
        deps.log?.warn({ event: input.event }, 'notifications: workspace event too large to announce');
        return;
      }
      try {
        await repo.publishEvent(m);
      } catch (err) {
        deps.log?.error({ err, event: input.event }, 'notifications: broadcast failed');
      }
    },

    /** The badge count: the caller's unread notifications, across all workspaces. */
    unreadCount: (userId: string) => repo.unreadCount(userId),

    /** A page of the caller's notifications: by `page`, or by `offset` when given (it wins). */
    async list(userId: string, q: { page: number; limit: number; offset?: number; unread?: boolean; type?: NotificationType; workspaceId?: string }) {
      const offset = q.offset ?? offsetOf(q);
      const [{ rows, total }, unreadCount] = await Promise.all([repo.list(userId, { ...q, offset }), repo.unreadCount(userId)]);
      const page = Math.floor(offset / q.limit) + 1;
      return {
        notifications: rows.map(view),
        unreadCount,
        pagination: { ...pagination({ page, limit: q.limit }, total), hasMore: offset + rows.length < total, offset },
      };
    },

    /** Marks one of the caller's notifications read (or unread); someone else's is 404 (never revealed). */
    async setRead(userId: string, id: string, read = true) {
      const row = await repo.setRead(userId, id, read);
      if (!row) throw notFound('Notification not found', 'NOTIFICATION_NOT_FOUND');
      return { notification: view(row), unreadCount: await repo.unreadCount(userId) };
    },

    async markAllRead(userId: string, workspaceId?: string) {
      const updated = await repo.markAllRead(userId, workspaceId);
      return { updated, unreadCount: await repo.unreadCount(userId) };
    },

    /**
     * Registers an open stream of `userId` on this instance; starts listening on first use.
     * 429 TOO_MANY_STREAMS beyond `maxStreamsPerUser` streams of one user on one instance.
     */
    async subscribe(userId: string, sub: Subscriber): Promise<Subscription> {
      if (closed) throw new AppError(503, 'SHUTTING_DOWN', 'The service is shutting down');
      const set = subscribers.get(userId) ?? new Set<Subscriber>();
      if (set.size >= maxStreamsPerUser) throw tooManyStreams(maxStreamsPerUser);
      set.add(sub);
      subscribers.set(userId, set);
      const unsubscribe = () => {
        set.delete(sub);
        if (set.size === 0 && subscribers.get(userId) === set) subscribers.delete(userId);
      };
      try {
        await bus.start();
      } catch (err) {
        unsubscribe();
        throw err;
      }
      return { unsubscribe };
    },

    /** What a stream shows first: the unread count, then what it missed after `lastEventId`. */
    async opening(userId: string, lastEventId?: string): Promise<StreamEvent[]> {
      const unreadCount = await repo.unreadCount(userId);
      const out: StreamEvent[] = [{ event: 'notification:count', payload: { unreadCount, timestamp: Date.now() } }];
      if (lastEventId) {
        const missed = await repo.after(userId, lastEventId, REPLAY_MAX);
        for (const r of missed ?? []) out.push(newEvent(r, unreadCount));
      }
      return out;
    },

    /** Number of open streams on this instance (for tests and metrics). */
    openStreams(): number {
      let n = 0;
      for (const s of subscribers.values()) n += s.size;
      return n;
    },

    /** Ends every open stream and stops listening (app shutdown). */
    async close() {
      closed = true;
      const all = [...subscribers.values()].flatMap((s) => [...s]);
      subscribers.clear();
      for (const s of all) {
        try {
          s.onClose();
        } catch {
          // ending a stream that is already gone
        }
      }
      await bus.close();
      await Promise.all([...chains.values()]);
    },
  };
  return service;
}
