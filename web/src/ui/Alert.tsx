import { AlertTriangle, CheckCircle2, Info } from 'lucide-react';
import type { ReactNode } from 'react';
import { ApiError, messageOf } from '../api/client';

export function Alert({
  tone = 'error',
  title,
  children,
  action,
}: {
  tone?: 'error' | 'success' | 'info' | 'warning';
  title?: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  const Icon = tone === 'success' ? CheckCircle2 : tone === 'info' ? Info : AlertTriangle;
  return (
    <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <Icon size={18} aria-hidden="true" className="alert-icon" />
      <div className="alert-body">
        {title && <strong className="alert-title">{title}</strong>}
        {children}
      </div>
      {action}
    </div>
  );
}

/** An API error as the service worded it (message, then the failing fields). */
export function ErrorMessage({ error, title, onRetry }: { error: unknown; title?: string; onRetry?: () => void }) {
  const details = error instanceof ApiError ? error.details.filter((d) => !error.message.includes(d)) : [];
  return (
    <Alert
      tone="error"
      title={title}
      action={
        onRetry ? (
          <button type="button" className="btn btn-secondary btn-sm" onClick={onRetry}>
            Try again
          </button>
        ) : undefined
      }
    >
      <p className="alert-text">{messageOf(error)}</p>
      {details.length > 0 && (
        <ul className="alert-details">
          {details.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}
