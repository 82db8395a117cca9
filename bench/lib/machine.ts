/**
 * What every benchmark prints with its figures: the machine's load average (a figure
 * taken on a busy machine says little) and the median / percentiles it quotes.
 */
import { cpus, loadavg } from 'node:os';

/** `load average 0.42 0.61 0.70 (2 cores)`: the 1, 5 and 15 minute averages. */
export function loadAverage(): string {
  return `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} (${cpus().length} cores)`;
}

/** Prints the load average now, labelled (call it before and after the measured part). */
export function printLoad(label = 'machine'): void {
  console.log(`${label}: ${loadAverage()}`);
}

export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export const median = (xs: number[]) => percentile(xs, 50);
