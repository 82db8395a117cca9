import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Bell as BellIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { messageOf, patch, post } from '../api/client';
import type { Notification } from '../api/types';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { timeAgo } from '../ui/format';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import { notificationsKey, useNotifications, useUnreadCount } from './api';
import { useStreamEvent } from './stream';
import styles from './Bell.module.css';

/** Where a notification leads in the dashboard (its vendor's page; the API takes the id where a slug goes), if anywhere. */
export function notificationTarget(n: Notification): string | null {
  if (!n.workspaceId) return null;
  const base = `/vendors/${encodeURIComponent(n.workspaceId)}`;
  return typeof n.data.dataSourceId === 'string' ? `${base}/documents` : base;
}

/** The notifications bell: the live unread count, the latest notifications, mark read. */
export function Bell() {
  const count = useUnreadCount();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const wrap = useRef<HTMLDivElement>(null);
  const toast = useToast();
  useStreamEvent('notification:new', (d) => toast.show(String(d.title ?? 'New notification')));
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!wrap.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        wrap.current?.querySelector<HTMLButtonElement>('button')?.focus();
      }
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const label = count === null ? 'Notifications' : `Notifications, ${count} unread`;
  return (
    <div className={styles.wrap} ref={wrap}>
      <button type="button" className="icon-btn" aria-label={label} aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)}>
        <BellIcon size={20} aria-hidden="true" />
        {!!count && (
          <span className={styles.badge} aria-hidden="true">
            {count > 99 ? '99+' : count}
          </span>
        )}
      </button>
      {open && (
        <div id={panelId} className={styles.panel} role="region" aria-label="Latest notifications">
          <NotificationList limit={8} compact onNavigate={() => setOpen(false)} />
          <div className={styles.panelFoot}>
            <Link to="/notifications" onClick={() => setOpen(false)}>
              See all notifications
            </Link>
          </div>
        </div>
      )}
    </div>
  );
}

/** A list of notifications with mark-read actions (the bell's panel and the notifications page). */
export function NotificationList({
  limit,
  compact,
  unread,
  offset,
  onNavigate,
}: {
  limit: number;
  compact?: boolean;
  unread?: boolean;
  offset?: number;
  onNavigate?: () => void;
}) {
  const list = useNotifications({ limit, unread, offset });
  const qc = useQueryClient();
  const toast = useToast();
  const navigate = useNavigate();
  const refresh = () => qc.invalidateQueries({ queryKey: notificationsKey });
  const readAll = useMutation({ mutationFn: () => post('/notifications/read-all', {}), onSuccess: refresh, onError: (e) => toast.show(messageOf(e), 'error') });
  const setRead = useMutation({
    mutationFn: (v: { id: string; read: boolean }) => patch(`/notifications/${v.id}`, { read: v.read }),
    onSuccess: refresh,
    onError: (e) => toast.show(messageOf(e), 'error'),
  });
  if (list.isPending) return <Loading inline label="Loading notifications…" />;
  if (list.isError) return <ErrorMessage error={list.error} onRetry={() => list.refetch()} />;
  const items = list.data.notifications;
  return (
    <div className={styles.list}>
      <div className={styles.listHead}>
        <span className="small muted">{list.data.unreadCount ? `${list.data.unreadCount} unread` : 'All read'}</span>
        {list.data.unreadCount > 0 && (
          <Button size="sm" variant="ghost" busy={readAll.isPending} onClick={() => readAll.mutate()}>
            Mark all read
          </Button>
        )}
      </div>
      {items.length === 0 ? (
        <p className={`muted small ${styles.empty}`}>
          {unread ? 'No unread notifications.' : 'No notifications yet. Finished uploads, failed syncs, invitations and answered questionnaires appear here.'}
        </p>
      ) : (
        <ul className={styles.items}>
          {items.map((n) => {
            const to = notificationTarget(n);
            return (
              <li key={n.id} className={`${styles.item}${n.read ? '' : ` ${styles.unread}`}`}>
                <span className={styles.dot} aria-hidden="true" />
                <div className={styles.itemBody}>
                  <button
                    type="button"
                    className={styles.itemTitle}
                    onClick={() => {
                      if (!n.read) setRead.mutate({ id: n.id, read: true });
                      if (to) {
                        onNavigate?.();
                        navigate(to);
                      }
                    }}
                  >
                    {!n.read && <span className="visually-hidden">Unread: </span>}
                    {n.title}
                  </button>
                  {n.body && <p className={compact ? styles.bodyCompact : styles.body}>{n.body}</p>}
                  <span className="small muted">
                    <time dateTime={n.createdAt}>{timeAgo(n.createdAt)}</time>
                  </span>
                </div>
                {!compact && (
                  <Button size="sm" variant="ghost" onClick={() => setRead.mutate({ id: n.id, read: !n.read })}>
                    {n.read ? 'Mark unread' : 'Mark read'}
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
