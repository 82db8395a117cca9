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
  /** The inventory's lifecycle status (docs/inventory.md): onboarding, active, exiting, exited. */
  lifecycle?: string;
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

/** The financial entity maintaining the register (its stored settings over the defaults). */
export interface RegisterEntity {
  name: string;
  lei?: string;
  country?: string;
  type?: string;
  competentAuthority?: string;
  /** The report's base currency (ISO 4217): every amount is reported in it. */
  currency: string;
  scope: 'CON' | 'IND';
  /** The reference date of the register (YYYY-MM-DD): `refPeriod`, B_01.01 c0060. */
  referenceDate: string;
  totalAssets?: number;
  /** When the entity's settings were first stored and last changed (B_01.02 c0080, c0070); absent: the date of the export. */
  integratedOn?: string;
  updatedOn?: string;
}

/** A business function of the entity (B_06.01). */
export interface RegisterFunction {
  id: string;
  /** F1, F2, … (B_06.01 c0010, B_02.02 c0050). */
  code: string;
  name: string;
  licensedActivity: string;
  criticality: 'yes' | 'no' | 'not_assessed';
  reasons: string | null;
  lastAssessmentDate: string;
  rtoHours: number;
  rpoHours: number;
  impact: 'low' | 'medium' | 'high' | 'not_assessed';
}

/** An exchange rate: 1 unit of `currency` = `rate` units of the base currency, as at `date`. */
export interface RegisterRate {
  currency: string;
  date: string;
  rate: number;
}

/** Everything a register is built from. */
export interface RegisterInput {
  entity: RegisterEntity;
  vendors: RegisterVendor[];
  functions: RegisterFunction[];
  /** Rates into the entity's base currency. */
  rates: RegisterRate[];
  /** The date of the export (YYYY-MM-DD). */
  reportDate: string;
}

/** 31 December of the year before `now` (the usual reference date of the annual submission). */
export function defaultReferenceDate(now = new Date()): string {
  return `${now.getUTCFullYear() - 1}-12-31`;
}
