import { AlertCircle, AlertTriangle, CheckCircle2, CircleDashed, Loader2, ShieldAlert, ShieldCheck, XCircle } from 'lucide-react';
import type { AssessmentStatus, RiskRating } from './api';

const STATUS: Record<AssessmentStatus, { label: string; tone: string; Icon: typeof CheckCircle2 }> = {
  pending: { label: 'Queued', tone: 'badge-busy', Icon: CircleDashed },
  running: { label: 'Analysing', tone: 'badge-busy', Icon: Loader2 },
  completed: { label: 'Completed', tone: 'badge-ok', Icon: CheckCircle2 },
  failed: { label: 'Failed', tone: 'badge-error', Icon: XCircle },
};
/** Status of an assessment in words and an icon (never colour alone). */
export function StatusBadge({ status }: { status: AssessmentStatus }) {
  const s = STATUS[status];
  return (
    <span className={`badge ${s.tone}`}>
      <s.Icon size={13} aria-hidden="true" className={status === 'running' ? 'spin' : undefined} />
      {s.label}
    </span>
  );
}

const RISK: Record<RiskRating, { label: string; tone: string; Icon: typeof CheckCircle2 }> = {
  low: { label: 'Low risk', tone: 'badge-ok', Icon: ShieldCheck },
  medium: { label: 'Medium risk', tone: 'badge-warn', Icon: AlertTriangle },
  high: { label: 'High risk', tone: 'badge-error', Icon: AlertCircle },
  critical: { label: 'Critical risk', tone: 'badge-error', Icon: ShieldAlert },
};
export function RiskBadge({ rating }: { rating: RiskRating }) {
  const r = RISK[rating];
  return (
    <span className={`badge ${r.tone}`}>
      <r.Icon size={13} aria-hidden="true" />
      {r.label}
    </span>
  );
}

const GAP: Record<'covered' | 'partial' | 'missing', { label: string; tone: string; Icon: typeof CheckCircle2 }> = {
  covered: { label: 'Covered', tone: 'badge-ok', Icon: CheckCircle2 },
  partial: { label: 'Partial', tone: 'badge-warn', Icon: AlertTriangle },
  missing: { label: 'Missing', tone: 'badge-error', Icon: XCircle },
};
export function GapBadge({ status }: { status: 'covered' | 'partial' | 'missing' }) {
  const g = GAP[status];
  return (
    <span className={`badge ${g.tone}`}>
      <g.Icon size={13} aria-hidden="true" />
      {g.label}
    </span>
  );
}
