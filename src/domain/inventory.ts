import type { VendorProfile } from './vendorProfile.js';

/**
 * The vendor inventory (docs/inventory.md): what a third-party risk team manages per vendor
 * beside the profile's tier: an owner, a lifecycle status and a review cycle.
 */

/** Where the relationship stands: being onboarded, in use, being exited, ended. */
export const LIFECYCLE_STATUSES = ['onboarding', 'active', 'exiting', 'exited'] as const;
export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number];

/**
 * Months between two reviews of a vendor, by criticality tier (docs/inventory.md, "Review
 * cycles"): a critical vendor twice a year, a high one every year, medium every two years,
 * low every three. A vendor without a tier is reviewed as a medium one.
 */
export const REVIEW_CYCLE_MONTHS = { critical: 6, high: 12, medium: 24, low: 36 } as const;
export type Tier = keyof typeof REVIEW_CYCLE_MONTHS;
export const DEFAULT_REVIEW_CYCLE_MONTHS = REVIEW_CYCLE_MONTHS.medium;

/** The review cycle in months of a vendor of this tier. */
export const reviewCycleMonths = (tier: string | undefined | null): number =>
  tier && tier in REVIEW_CYCLE_MONTHS ? REVIEW_CYCLE_MONTHS[tier as Tier] : DEFAULT_REVIEW_CYCLE_MONTHS;

/** `date` (YYYY-MM-DD) plus `months` calendar months, the day clamped to the month's last (31 Aug + 6 = 28/29 Feb). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

/** `date` plus `days` days (YYYY-MM-DD). */
export function addDays(date: string, days: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + days);
  return t.toISOString().slice(0, 10);
}

/** The next review date after a review on `reviewedOn` of a vendor of this tier. */
export const nextReviewAfter = (reviewedOn: string, tier: string | undefined | null): string => addMonths(reviewedOn, reviewCycleMonths(tier));

/**
 * The inventory's contract end: the latest end date of the vendor's contracts, null when none
 * states one (an open-ended contract alone is not an end).
 */
export function contractEndOf(profile: Pick<VendorProfile, 'contracts'> | Record<string, unknown>): string | null {
  const contracts = (profile as VendorProfile).contracts;
  let end: string | null = null;
  for (const c of Array.isArray(contracts) ? contracts : []) {
    if (typeof c?.endDate === 'string' && (!end || c.endDate > end)) end = c.endDate;
  }
  return end;
}
