import type { GapResult } from '../../domain/gap.js';
import type { FieldSource } from '../../domain/profileDrafts.js';
import type { VendorProfile } from '../../domain/vendorProfile.js';

/** One vendor (workspace) as the Register of Information reads it. */
export interface RegisterVendor {
  /** Opaque workspace id. */
  workspaceId: string;
  /** The human-readable second identifier. */
  workspaceSlug: string;
  name: string;
  profile: VendorProfile;
  /** Where profile values came from (accepted draft values; docs/register-drafting.md): profile path -> source. */
  sources?: Record<string, FieldSource>;
  /** Latest completed assessment, or null. */
  assessment: {
    id: string;
    name: string;
    score: number | null;
    riskRating: string | null;
    completedAt: Date;
    results: Pick<GapResult, 'ref' | 'title' | 'status' | 'key' | 'elements'>[];
  } | null;
  /** Latest completed questionnaire, or null. */
  questionnaire: { id: string; title: string; score: number | null; completedAt: Date } | null;
}

/** The financial entity maintaining the register (configuration). */
export interface RegisterEntity {
  name: string;
  lei?: string;
  country?: string;
  type?: string;
  competentAuthority?: string;
  currency: string;
  scope: 'CON' | 'IND';
  referenceDate: string;
  totalAssets?: number;
  licensedActivity?: string;
}

/** 31 December of the year before `now` (the usual reference date of the annual submission). */
export function defaultReferenceDate(now = new Date()): string {
  return `${now.getUTCFullYear() - 1}-12-31`;
}
