import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { get } from '../api/client';
import type { ApiData } from '../api/types';
import { useStreamEvent } from './stream';

export const notificationsKey = ['notifications'] as const;

export type NotificationPage = ApiData<'listNotifications'>;

export function useNotifications(opts: { limit: number; offset?: number; unread?: boolean }) {
  return useQuery({
    queryKey: [...notificationsKey, opts],
    queryFn: () => get<NotificationPage>('/notifications', { query: { limit: opts.limit, offset: opts.offset ?? 0, unread: opts.unread || undefined } }),
  });
}

/**
 * The badge: the unread count carried by every event of the stream (`notification:count` first,
 * then `notification:new`); a new notification also refreshes the lists.
 */
export function useUnreadCount(): number | null {
  const qc = useQueryClient();
  const [count, setCount] = useState<number | null>(null);
  useStreamEvent('notification:count', (d) => setCount(Number(d.unreadCount ?? 0)));
  useStreamEvent('notification:new', (d) => {
    setCount(Number(d.unreadCount ?? 0));
    void qc.invalidateQueries({ queryKey: notificationsKey });
  });
  return count;
}
