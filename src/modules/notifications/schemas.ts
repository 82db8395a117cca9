import { Type } from 'typebox';
import { NOTIFICATION_TYPES } from '../../db/schema/notifications.js';
import { Envelope, ErrorEnvelope, errorResponses } from '../../lib/envelope.js';
import { MAX_OFFSET, pageQuery, PaginationSchema } from '../../domain/paging.js';

/** Request and response schemas of the /notifications routes (docs/notifications.md), one per route. */

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

const tags = ['notifications'];

export const NotificationCount = {
  operationId: 'countUnreadNotifications',
  tags,
  summary: 'Badge count: unread notifications of the caller, across workspaces',
  response: { 200: Envelope(Type.Object({ count: Type.Integer(), unreadCount: Type.Integer() })), ...errorResponses },
};

export const ListNotifications = {
  operationId: 'listNotifications',
  tags,
  summary: 'Notifications of the caller, newest first',
  description: 'Paged with `page` and `limit`; `offset` (items to skip) may be given instead of `page` and then wins.',
  querystring: Type.Object(
    {
      ...pageQuery(),
      offset: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_OFFSET, description: 'items to skip; replaces `page` when given' })),
      unread: Type.Optional(Type.Boolean({ description: 'true: only unread notifications' })),
      type: Type.Optional(Type.Enum([...NOTIFICATION_TYPES])),
      workspaceId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'only notifications about this workspace (opaque id)' })),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Envelope(
      Type.Object({
        notifications: Type.Array(Notification),
        unreadCount: Type.Integer(),
        pagination: Type.Object({ ...PaginationSchema.properties, offset: Type.Integer({ description: 'items skipped' }) }),
      }),
    ),
    ...errorResponses,
  },
};

export const SetNotificationRead = {
  operationId: 'markNotification',
  tags,
  summary: 'Mark one notification read (or unread with `read: false`)',
  params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }),
  body: Type.Object({ read: Type.Boolean({ default: true }) }, { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ notification: Notification, unreadCount: Type.Integer() })), ...errorResponses },
};

export const MarkAllNotificationsRead = {
  operationId: 'markAllNotificationsRead',
  tags,
  summary: 'Mark all unread notifications of the caller read (optionally those of one workspace)',
  body: Type.Object({ workspaceId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }, { additionalProperties: false }),
  response: { 200: Envelope(Type.Object({ updated: Type.Integer(), unreadCount: Type.Integer() })), ...errorResponses },
};

export const NotificationStream = {
  operationId: 'streamNotifications',
  tags,
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
};
