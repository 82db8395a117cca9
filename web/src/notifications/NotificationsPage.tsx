import { useState } from 'react';
import { useTitle } from '../lib/useTitle';
import { Button } from '../ui/Button';
import { NotificationList } from './Bell';
import { useNotifications } from './api';

const PAGE = 25;

/** Every notification of the user, newest first, with an unread filter and paging. */
export default function NotificationsPage() {
  useTitle('Notifications');
  const [unread, setUnread] = useState(false);
  const [offset, setOffset] = useState(0);
  const page = useNotifications({ limit: PAGE, offset, unread });
  const total = page.data?.pagination.total ?? 0;
  return (
    <div className="page page-narrow">
      <header className="page-header">
        <div>
          <h1>Notifications</h1>
          <p className="page-sub">About your vendors’ documents, syncs, assessments, questionnaires and invitations.</p>
        </div>
        <label className="check">
          <input
            type="checkbox"
            checked={unread}
            onChange={(e) => {
              setUnread(e.target.checked);
              setOffset(0);
            }}
          />{' '}
          Unread only
        </label>
      </header>
      <section className="card">
        <NotificationList limit={PAGE} offset={offset} unread={unread} />
      </section>
      {total > PAGE && (
        <nav className="form-actions" aria-label="Pages of notifications">
          <Button size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
            Newer
          </Button>
          <span className="small">
            {offset + 1}–{Math.min(offset + PAGE, total)} of {total}
          </span>
          <Button size="sm" disabled={!page.data?.pagination.hasMore} onClick={() => setOffset(offset + PAGE)}>
            Older
          </Button>
        </nav>
      )}
    </div>
  );
}
