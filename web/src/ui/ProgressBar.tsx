/** A determinate progress bar with its figure in words (not colour alone). */
export function ProgressBar({ value, label, tone }: { value: number; label: string; tone?: 'error' | 'done' }) {
  const pct = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div className="progress-wrap">
      <div
        className={`progress${tone ? ` progress-${tone}` : ''}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
      >
        <div className="progress-fill" style={{ width: `${pct}%` }} />
      </div>
      <span className="progress-figure">{pct}%</span>
    </div>
  );
}
