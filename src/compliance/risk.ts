import type { GapResult } from '../domain/gap.js';

export type Rating = 'low' | 'medium' | 'high' | 'critical';
const ORDER: Rating[] = ['low', 'medium', 'high', 'critical'];
const atLeast = (a: Rating, b: Rating): Rating => (ORDER.indexOf(a) >= ORDER.indexOf(b) ? a : b);
const raise = (a: Rating): Rating => ORDER[Math.min(ORDER.length - 1, ORDER.indexOf(a) + 1)]!;

/** Score 0-100: weighted share of the evidence elements found (covered 1, partial = its coverage, missing 0). */
export function scoreOf(results: GapResult[]): number {
  const total = results.reduce((n, r) => n + r.weight, 0);
  if (!total) return 0;
  return Math.round((100 * results.reduce((n, r) => n + r.weight * r.coverage, 0)) / total);
}

/**
 * The risk rating of a vendor (docs/assessments.md):
 * 1. from the score: >= 80 low, >= 60 medium, >= 40 high, below 40 critical;
 * 2. any key obligation with no evidence at all raises it to at least medium; three or
 *    more to at least high;
 * 3. when the service supports a critical or important function (vendor profile:
 *    tier `critical`, or `supportsCriticalFunction`), a missing key obligation raises
 *    the rating one more level.
 */
export function riskRating(results: GapResult[], vendor: { critical: boolean }): { score: number; rating: Rating; reasons: string[] } {
  const score = scoreOf(results);
  const reasons: string[] = [];
  let rating: Rating = score >= 80 ? 'low' : score >= 60 ? 'medium' : score >= 40 ? 'high' : 'critical';
  reasons.push(`A score of ${score}/100 gives a ${rating} risk rating.`);
  const missingKey = results.filter((r) => r.key && r.status === 'missing');
  if (missingKey.length >= 3) {
    const next = atLeast(rating, 'high');
    if (next !== rating) reasons.push(`${missingKey.length} key obligations without evidence raise it to ${next}.`);
    rating = next;
  } else if (missingKey.length >= 1) {
    const next = atLeast(rating, 'medium');
    if (next !== rating) reasons.push(`A key obligation without evidence raises it to ${next}.`);
    rating = next;
  }
  if (vendor.critical && missingKey.length >= 1 && rating !== 'critical') {
    rating = raise(rating);
    reasons.push(
      `The service supports a critical or important function and ${missingKey.map((r) => r.ref).join(', ')} ${missingKey.length === 1 ? 'has' : 'have'} no evidence: raised to ${rating}.`,
    );
  }
  return { score, rating, reasons };
}
