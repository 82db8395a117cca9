import { AlertCircle, CheckCircle2, Clock, Loader2 } from 'lucide-react';
import type { DataSourceStatus } from '../api/types';

const INFO: Record<DataSourceStatus, { label: string; tone: string }> = {
  pending: { label: 'Queued', tone: 'muted' },
  processing: { label: 'Processing', tone: 'busy' },
  ready: { label: 'Ready', tone: 'ok' },
  failed: { label: 'Failed', tone: 'error' },
};

/** A data source's status in words with an icon (colour is never the only signal). */
export function SourceStatus({ status }: { status: DataSourceStatus }) {
  const { label, tone } = INFO[status];
  const Icon = status === 'pending' ? Clock : status === 'processing' ? Loader2 : status === 'failed' ? AlertCircle : CheckCircle2;
  return (
    <span className={`badge badge-${tone}`} data-status={status}>
      <Icon size={13} aria-hidden="true" className={status === 'processing' ? 'spin' : undefined} />
      {label}
    </span>
  );
}
