import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ok } from '../../lib/envelope.js';
import { ListNotifications, MarkAllNotificationsRead, NotificationCount, NotificationStream, SetNotificationRead } from './schemas.js';
import type { NotificationsService } from './service.js';
import { openStream } from './stream.js';

export { sseFrame } from './stream.js';

export interface NotificationRoutesOptions {
  service: NotificationsService;
  /** Interval of the heartbeat comments on open streams. */
  heartbeatMs: number;
}

/**
 * Notifications of the caller (docs/notifications.md). Not workspace-scoped: a user's
 * notifications of every workspace, counted together for the badge.
 */
const routes: FastifyPluginAsyncTypebox<NotificationRoutesOptions> = async (app, { service, heartbeatMs }) => {
  app.get('/notifications/count', { config: { rateLimitScope: 'notificationsCount' }, schema: NotificationCount }, async (request) => {
    const n = await service.unreadCount(request.auth!.id);
    return ok({ count: n, unreadCount: n });
  });

  app.get('/notifications', { schema: ListNotifications }, async (request) => ok(await service.list(request.auth!.id, request.query)));

  app.patch('/notifications/:id', { schema: SetNotificationRead }, async (request) =>
    ok(await service.setRead(request.auth!.id, request.params.id, request.body.read)),
  );

  app.post('/notifications/read-all', { schema: MarkAllNotificationsRead }, async (request) => {
    const r = await service.markAllRead(request.auth!.id, request.body.workspaceId);
    return ok(r, `${r.updated} notification${r.updated === 1 ? '' : 's'} marked as read`);
  });

  app.get('/notifications/stream', { schema: NotificationStream }, async (request, reply) => {
    const stream = await openStream(service, {
      userId: request.auth!.id,
      lastEventId: request.headers['last-event-id'],
      tokenExpiresAt: request.tokenExpiresAt,
      heartbeatMs,
      onClose: (finish) => reply.raw.on('close', finish),
    });
    return reply
      .header('Content-Type', 'text/event-stream; charset=utf-8')
      .header('Cache-Control', 'no-cache, no-transform')
      .header('Connection', 'keep-alive')
      .header('X-Accel-Buffering', 'no')
      .send(stream as unknown as string); // the typed reply knows the schema, not streams
  });
};

export default routes;
