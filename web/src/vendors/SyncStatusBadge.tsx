import { AlertCircle, CheckCircle2, RefreshCw } from 'lucide-react';
import type { SyncStatus } from '../api/types';

const LABEL: Record<SyncStatus, string> = { active: 'Up to date', syncing: 'Syncing', error: 'Sync failed' };

/** A workspace's sync status: icon and words, never colour alone. */
export function SyncStatusBadge({ status }: { status: SyncStatus }) {
  const Icon = status === 'syncing' ? RefreshCw : status === 'error' ? AlertCircle : CheckCircle2;
  const tone = status === 'syncing' ? 'busy' : status === 'error' ? 'error' : 'ok';
  return (
    <span className={`badge badge-${tone}`}>
      <Icon size={13} aria-hidden="true" />
      {LABEL[status]}
    </span>
  );
}
