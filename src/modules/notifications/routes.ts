import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { NOTIFICATION_TYPES } from '../../db/schema/notifications.js';
import { Envelope, ErrorEnvelope, errorResponses, ok } from '../../lib/envelope.js';
import type { NotificationsService, StreamEvent, Subscription } from './service.js';
import { MAX_OFFSET, pageQuery, PaginationSchema } from '../../domain/paging.js';

const Notification = Type.Object({
  id: Type.String(),
  type: Type.Enum([...NOTIFICATION_TYPES]),
  title: Type.String(),
  body: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown()),
  workspaceId: Type.Union([Type.String(), Type.Null()]),
  read: Type.Boolean(),
  readAt: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});

export interface NotificationRoutesOptions {
  service: NotificationsService;
  /** Interval of the heartbeat comments on open streams. */
  heartbeatMs: number;
}

/** One server-sent event: `event`, optional `id`, one `data` line of JSON. */
export function sseFrame(e: StreamEvent): string {
  const id = e.event === 'notification:new' ? `id: ${e.id}\n` : '';
  return `event: ${e.event}\n${id}data: ${JSON.stringify(e.payload)}\n\n`;
}

/**
 * Notifications of the caller (docs/notifications.md). Not workspace-scoped: a user's
 * notifications of every workspace, counted together for the badge.
 */
const routes: FastifyPluginAsyncTypebox<NotificationRoutesOptions> = async (app, { service, heartbeatMs }) => {
  app.get('/notifications/count', {
    config: { rateLimitScope: 'notificationsCount' },
    schema: {
      tags: ['notifications'],
      summary: 'Badge count: unread notifications of the caller, across workspaces',
      response: { 200: Envelope(Type.Object({ count: Type.Integer(), unreadCount: Type.Integer() })), ...errorResponses },
    },
  }, async (request) => {
    const n = await service.unreadCount(request.auth!.id);
    return ok({ count: n, unreadCount: n });
  });

  app.get('/notifications', {
    schema: {
      tags: ['notifications'],
      summary: 'Notifications of the caller, newest first',
      description: 'Paged with `page` and `limit`; `offset` (items to skip) may be given instead of `page` and then wins.',
      querystring: Type.Object({
        ...pageQuery(),
        offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, description: 'items to skip; replaces `page` when given' })),
        unread: Type.Optional(Type.Boolean({ description: 'true: only unread notifications' })),
        type: Type.Optional(Type.Enum([...NOTIFICATION_TYPES])),
        workspaceId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'only notifications about this workspace (opaque id)' })),
      }, { additionalProperties: false }),
      response: {
        200: Envelope(Type.Object({
          notifications: Type.Array(Notification),
          unreadCount: Type.Integer(),
          pagination: Type.Object({ ...PaginationSchema.properties, offset: Type.Integer({ description: 'items skipped' }) }),
        })),
        ...errorResponses,
      },
    },
  }, async (request) => ok(await service.list(request.auth!.id, request.query)));

  app.patch('/notifications/:id', {
    schema: {
      tags: ['notifications'],
      summary: 'Mark one notification read (or unread with `read: false`)',
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
      body: Type.Object({ read: Type.Boolean({ default: true }) }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ notification: Notification, unreadCount: Type.Integer() })), ...errorResponses },
    },
  }, async (request) => ok(await service.setRead(request.auth!.id, request.params.id, request.body.read)));

  app.post('/notifications/read-all', {
    schema: {
      tags: ['notifications'],
      summary: 'Mark all unread notifications of the caller read (optionally those of one workspace)',
      body: Type.Object({ workspaceId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }, { additionalProperties: false }),
      response: { 200: Envelope(Type.Object({ updated: Type.Integer(), unreadCount: Type.Integer() })), ...errorResponses },
    },
  }, async (request) => {
    const r = await service.markAllRead(request.auth!.id, request.body.workspaceId);
    return ok(r, `${r.updated} notification${r.updated === 1 ? '' : 's'} marked as read`);
  });

  app.get('/notifications/stream', {
    schema: {
      tags: ['notifications'],
      summary: 'Push channel (server-sent events): `notification:new` and `notification:count` events, heartbeat comments',
      headers: Type.Object({ 'last-event-id': Type.Optional(Type.String({ maxLength: 100 })) }),
      response: {
        200: {
          description: 'text/event-stream; see docs/notifications.md',
          content: { 'text/event-stream': { schema: Type.String() } },
        },
        401: ErrorEnvelope,
        429: ErrorEnvelope,
      },
    },
  }, async (request, reply) => {
    const userId = request.auth!.id;
    const stream = new PassThrough();
    stream.on('error', () => {}); // a write racing a client disconnect must not crash the process
    // Events that arrive while the opening events are read are held back, then sent after them.
    let pending: StreamEvent[] | null = [];
    let done = false;
    let heartbeat: NodeJS.Timeout | undefined;
    let expiry: NodeJS.Timeout | undefined;
    let subscription: Subscription | undefined;
    const write = (chunk: string) => {
      if (!done && !stream.writableEnded) stream.write(chunk);
    };
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(heartbeat);
      clearTimeout(expiry);
      subscription?.unsubscribe();
      stream.end();
    };
    subscription = await service.subscribe(userId, {
      onEvent: (e) => (pending ? pending.push(e) : write(sseFrame(e))),
      onClose: finish,
    });
    if (done) subscription.unsubscribe();
    reply.raw.on('close', finish);
    stream.on('close', finish);

    const lastEventId = request.headers['last-event-id'];
    let opening: StreamEvent[];
    try {
      opening = await service.opening(userId, lastEventId);
    } catch (err) {
      finish();
      throw err;
    }
    const sent = new Set(opening.flatMap((e) => (e.event === 'notification:new' ? [e.id] : [])));
    write(`retry: 3000\n: connected\n\n`);
    for (const e of opening) write(sseFrame(e));
    for (const e of pending) if (e.event !== 'notification:new' || !sent.has(e.id)) write(sseFrame(e));
    pending = null;

    heartbeat = setInterval(() => write(`: heartbeat ${Date.now()}\n\n`), heartbeatMs);
    heartbeat.unref();
    // The stream ends when the access token expires; the client reconnects with a fresh one.
    if (request.tokenExpiresAt) {
      expiry = setTimeout(finish, Math.max(0, request.tokenExpiresAt - Date.now()));
      expiry.unref();
    }
    if (done) stream.end();

    return reply
      .header('Content-Type', 'text/event-stream; charset=utf-8')
      .header('Cache-Control', 'no-cache, no-transform')
      .header('Connection', 'keep-alive')
      .header('X-Accel-Buffering', 'no')
      .send(stream as unknown as string); // the typed reply knows the schema, not streams
  });
};

export default routes;
