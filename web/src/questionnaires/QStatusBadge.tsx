import { CheckCircle2, Clock, FilePen, Inbox, Send } from 'lucide-react';
import { STATUS_LABEL, type QStatus } from './api';

const ICON = { draft: FilePen, sent: Send, in_progress: Clock, submitted: Inbox, complete: CheckCircle2 } as const;
const TONE = { draft: 'badge-muted', sent: 'badge-busy', in_progress: 'badge-busy', submitted: 'badge-warn', complete: 'badge-ok' } as const;

/** A questionnaire's status in words and an icon. */
export function QStatusBadge({ status }: { status: QStatus }) {
  const Icon = ICON[status];
  return (
    <span className={`badge ${TONE[status]}`}>
      <Icon size={13} aria-hidden="true" />
      {STATUS_LABEL[status]}
    </span>
  );
}
