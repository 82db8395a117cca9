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

/** The filters of the inventory a KPI counts (GET /workspaces's query parameters). */
export interface KpiFilters {
  tier?: ('critical' | 'high' | 'medium' | 'low')[];
  dueWithinDays?: number;
  overdue?: boolean;
  contractEndWithinDays?: number;
  exitPlan?: 'missing';
  signedOff?: 'missing';
  questionnaires?: 'outstanding' | 'overdue';
  documents?: 'expired';
}

/**
 * The portfolio KPIs (docs/inventory.md, "KPIs"): each counts the vendors of one inventory
 * filter, so its link opens exactly the vendors it counts.
 */
export const PORTFOLIO_KPIS = [
  { key: 'contractsExpiring30', label: 'Contracts expiring within 30 days', filters: { contractEndWithinDays: 30 } },
  { key: 'contractsExpiring90', label: 'Contracts expiring within 90 days', filters: { contractEndWithinDays: 90 } },
  { key: 'reviewsOverdue', label: 'Reviews overdue', filters: { overdue: true } },
  { key: 'reviewsDue30', label: 'Reviews due within 30 days', filters: { dueWithinDays: 30, overdue: false } },
  { key: 'criticalWithoutExitPlan', label: 'Critical vendors without an exit strategy', filters: { tier: ['critical'], exitPlan: 'missing' } },
  {
    key: 'criticalWithoutSignOff',
    label: 'Critical vendors without a signed-off assessment in the last review cycle',
    filters: { tier: ['critical'], signedOff: 'missing' },
  },
  { key: 'questionnairesOutstanding', label: 'Vendors with questionnaires outstanding', filters: { questionnaires: 'outstanding' } },
  { key: 'questionnairesOverdue', label: 'Vendors with questionnaires overdue', filters: { questionnaires: 'overdue' } },
  { key: 'documentsExpired', label: 'Vendors with expired documents', filters: { documents: 'expired' } },
] as const satisfies readonly { key: string; label: string; filters: KpiFilters }[];
export type KpiKey = (typeof PORTFOLIO_KPIS)[number]['key'];

/** A filter set as a query string (`tier=critical&exitPlan=missing`), list filters repeated. */
export function kpiQuery(filters: KpiFilters): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) {
    for (const one of Array.isArray(v) ? v : [v]) q.append(k, String(one));
  }
  return q.toString();
}
