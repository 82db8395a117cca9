import { randomUUID } from 'node:crypto';
import { Type, type Static } from 'typebox';
import { ARRANGEMENT_TYPES, TERMINATION_REASONS } from './registerCodes.js';
import {
  CERTIFICATION_STATUSES,
  COUNTRY_CODES,
  CRITICALITY_TIERS,
  CURRENCY_CODES,
  ICT_SERVICE_TYPE_CODES,
  IDENTIFIER_TYPES,
  isValidLei,
  LEI_PATTERN,
  LEVELS,
  REINTEGRATION,
  SUBSTITUTABILITY,
} from './vendorProfileCodes.js';

/** The code lists live in vendorProfileCodes.ts (data the dashboard reads too). */
export {
  CERTIFICATION_STATUSES,
  COUNTRY_CODES,
  CRITICALITY_TIERS,
  CURRENCY_CODES,
  ICT_SERVICE_TYPE_CODES,
  ICT_SERVICE_TYPES,
  IDENTIFIER_TYPES,
  type IctServiceType,
  isValidLei,
  LEVELS,
  REINTEGRATION,
  SUBSTITUTABILITY,
} from './vendorProfileCodes.js';

/**
 * The vendor profile of a workspace: what the DORA Register of Information
 * (Commission Implementing Regulation (EU) 2024/2956) needs about an ICT third-party
 * service provider. Field by field in docs/organizations-and-workspaces.md.
 * Shape is checked by TypeBox; code lists, the LEI check digits and cross-field rules
 * by `checkVendorProfile`.
 */

const COUNTRY_SET = new Set(COUNTRY_CODES);
const CURRENCY_SET = new Set(CURRENCY_CODES);

const COUNTRY_PATTERN = '^[A-Z]{2}$';

export const LeiSchema = Type.String({ pattern: LEI_PATTERN, description: 'ISO 17442 Legal Entity Identifier (20 characters, MOD 97-10 check digits)' });
export const CountrySchema = Type.String({ pattern: COUNTRY_PATTERN, description: 'ISO 3166-1 alpha-2 country code' });
const DateSchema = Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const Text = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '\\S' });
const Days = Type.Integer({ minimum: 0, maximum: 3650 });
const Countries = Type.Array(CountrySchema, { maxItems: 50, uniqueItems: true });

export const ContractSchema = Type.Object(
  {
    /** Stable id of the contract (assigned by the service when the contract is first stored). */
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' })),
    /** Contractual arrangement reference number (unique across the organization's register). */
    reference: Text(100),
    /** Type of contractual arrangement (B_02.01 c0020); absent: standalone. */
    arrangementType: Type.Optional(Type.Enum([...ARRANGEMENT_TYPES])),
    /** Reference of the overarching arrangement (B_02.01 c0030), for a subsequent or associated arrangement. */
    overarchingReference: Type.Optional(Text(100)),
    /** The entity's business functions the contract supports (ids of /register/functions; B_02.02 c0050). */
    functionIds: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 50, uniqueItems: true })),
    ictServiceType: Type.Optional(Type.Enum(ICT_SERVICE_TYPE_CODES)),
    startDate: DateSchema,
    endDate: Type.Optional(Type.Union([DateSchema, Type.Null()])),
    /** Reason of the termination or ending (B_02.02 c0090), for a contract that was ended. */
    terminationReason: Type.Optional(Type.Enum(Object.keys(TERMINATION_REASONS))),
    noticePeriodDaysEntity: Type.Optional(Days),
    noticePeriodDaysProvider: Type.Optional(Days),
    /** Country whose law governs the contract. */
    governingLaw: Type.Optional(CountrySchema),
    annualCost: Type.Optional(
      Type.Object(
        {
          amount: Type.Number({ minimum: 0, maximum: 1e12 }),
          currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217' }),
        },
        { additionalProperties: false },
      ),
    ),
    /** Whether the service stores data of the entity. */
    storesData: Type.Optional(Type.Boolean()),
    dataStorageLocations: Type.Optional(Countries),
    dataProcessingLocations: Type.Optional(Countries),
    /** Whether the service processes data of the entity (false: B_02.02 c0160 is "not applicable"). */
    processesData: Type.Optional(Type.Boolean()),
    dataSensitivity: Type.Optional(Type.Enum([...LEVELS])),
    /** Renewal terms as the contract states them (docs/register-drafting.md). */
    renewal: Type.Optional(Type.String({ maxLength: 2000 })),
    /** Countries where the service is provided. */
    serviceLocations: Type.Optional(Countries),
    /** Whether the service processes personal data of the entity. */
    personalData: Type.Optional(Type.Boolean()),
    /** Audit and access rights of the entity, as the contract states them. */
    auditRights: Type.Optional(Type.String({ maxLength: 2000 })),
    /** Exit and transition provisions (return, export, deletion of data; transition assistance). */
    exitProvisions: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

/** A contractual arrangement with the provider (one element of `contracts`). */
export type Contract = Static<typeof ContractSchema>;

/** A subcontractor (subprocessor) of the provider named in its documents. */
export const SubcontractorSchema = Type.Object(
  {
    name: Text(300),
    role: Type.Optional(Type.String({ maxLength: 500 })),
    country: Type.Optional(CountrySchema),
    /** Identification code of the subcontractor (B_05.01 c0010, B_05.02 c0030 at rank 2); an LEI where there is one. */
    identifier: Type.Optional(Type.Object({ type: Type.Enum([...IDENTIFIER_TYPES]), value: Text(100) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const CertificationSchema = Type.Object(
  {
    /** E.g. `ISO/IEC 27001`, `SOC 2 Type II`, `ISO 22301`, `C5`. */
    type: Text(100),
    issuer: Type.Optional(Text(200)),
    validUntil: Type.Optional(DateSchema),
    status: Type.Enum([...CERTIFICATION_STATUSES]),
  },
  { additionalProperties: false },
);

export const ExitPlanSchema = Type.Object(
  {
    exists: Type.Boolean(),
    lastTestedDate: Type.Optional(DateSchema),
    reintegrationPossibility: Type.Optional(Type.Enum([...REINTEGRATION])),
    alternativeProvidersIdentified: Type.Optional(Type.Boolean()),
    alternativeProviders: Type.Optional(Type.Array(Text(300), { maxItems: 20 })),
    notes: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);

const profileProperties = {
  legalName: Text(300),
  /** Registered or postal address of the provider. */
  address: Text(500),
  identifier: Type.Object({ type: Type.Enum([...IDENTIFIER_TYPES]), value: Text(100) }, { additionalProperties: false }),
  /** Country of the provider's headquarters. */
  country: CountrySchema,
  ictServiceType: Type.Enum(ICT_SERVICE_TYPE_CODES),
  criticalityTier: Type.Enum([...CRITICALITY_TIERS]),
  supportsCriticalFunction: Type.Boolean(),
  description: Type.String({ maxLength: 2000 }),
  website: Type.String({ format: 'uri', maxLength: 500, pattern: '^https?://' }),
  contracts: Type.Array(ContractSchema, { maxItems: 100 }),
  certifications: Type.Array(CertificationSchema, { maxItems: 100 }),
  substitutability: Type.Enum([...SUBSTITUTABILITY]),
  discontinuationImpact: Type.Enum([...LEVELS]),
  exitPlan: ExitPlanSchema,
  nextReviewDate: DateSchema,
  /** Date of the last audit on the provider (B_07.01 c0070). */
  lastAuditDate: DateSchema,
  subcontractors: Type.Array(SubcontractorSchema, { maxItems: 500 }),
};
/** The schema of each top-level field (for checking one drafted value). */
export const PROFILE_FIELD_SCHEMAS = profileProperties;
type Props = typeof profileProperties;

/** A stored profile: every field optional (a profile is filled in over time). */
export const VendorProfileSchema = Type.Object(
  Object.fromEntries(Object.entries(profileProperties).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof Props]: ReturnType<typeof Type.Optional<Props[K]>>;
  },
  { additionalProperties: false },
);
export type VendorProfile = Static<typeof VendorProfileSchema>;

/** PATCH body: top-level fields replace the stored ones; `null` clears a field. */
export const VendorProfilePatchSchema = Type.Object(
  Object.fromEntries(Object.entries(profileProperties).map(([k, v]) => [k, Type.Optional(Type.Union([v, Type.Null()]))])) as {
    [K in keyof Props]: ReturnType<typeof Type.Optional<ReturnType<typeof Type.Union<[Props[K], ReturnType<typeof Type.Null>]>>>>;
  },
  { additionalProperties: false },
);
export type VendorProfilePatch = Static<typeof VendorProfilePatchSchema>;

export const isCountryCode = (c: string) => COUNTRY_SET.has(c);
export const isCurrencyCode = (c: string) => CURRENCY_SET.has(c);

/** Today as YYYY-MM-DD (UTC). */
export const today = () => new Date().toISOString().slice(0, 10);

/**
 * Checks what a schema cannot: code lists, LEI check digits, date order, unique
 * contract references. Returns `field: problem` strings (empty when valid).
 */
export function checkVendorProfile(p: VendorProfile, at = 'vendorProfile'): string[] {
  const problems: string[] = [];
  const country = (field: string, c: string | undefined) => {
    if (c !== undefined && !isCountryCode(c)) problems.push(`${at}.${field}: ${c} is not an ISO 3166-1 alpha-2 country code`);
  };
  country('country', p.country);
  if (p.identifier?.type === 'LEI' && !isValidLei(p.identifier.value)) {
    problems.push(`${at}.identifier.value: not a valid LEI (20 characters, ISO 17442 check digits)`);
  }
  const refs = new Set<string>();
  (p.contracts ?? []).forEach((c, i) => {
    const f = `contracts.${i}`;
    if (refs.has(c.reference)) problems.push(`${at}.${f}.reference: duplicate contract reference ${c.reference}`);
    refs.add(c.reference);
    if (c.endDate && c.endDate < c.startDate) problems.push(`${at}.${f}.endDate: must not be before startDate`);
    country(`${f}.governingLaw`, c.governingLaw);
    c.dataStorageLocations?.forEach((x, j) => country(`${f}.dataStorageLocations.${j}`, x));
    c.dataProcessingLocations?.forEach((x, j) => country(`${f}.dataProcessingLocations.${j}`, x));
    c.serviceLocations?.forEach((x, j) => country(`${f}.serviceLocations.${j}`, x));
    if (c.annualCost && !isCurrencyCode(c.annualCost.currency))
      problems.push(`${at}.${f}.annualCost.currency: ${c.annualCost.currency} is not an ISO 4217 currency code`);
    if (c.storesData === false && c.dataStorageLocations?.length) problems.push(`${at}.${f}.dataStorageLocations: must be empty when storesData is false`);
    if (c.processesData === false && c.dataProcessingLocations?.length)
      problems.push(`${at}.${f}.dataProcessingLocations: must be empty when processesData is false`);
    if (c.terminationReason && !c.endDate) problems.push(`${at}.${f}.terminationReason: a contract with a termination reason needs its end date`);
    if (c.arrangementType === 'subsequent' && !c.overarchingReference)
      problems.push(`${at}.${f}.overarchingReference: a subsequent or associated arrangement names its overarching arrangement`);
    if (c.overarchingReference && c.arrangementType !== 'subsequent')
      problems.push(`${at}.${f}.overarchingReference: only a subsequent or associated arrangement has an overarching arrangement`);
    if (c.overarchingReference && c.overarchingReference === c.reference)
      problems.push(`${at}.${f}.overarchingReference: a contract cannot be its own overarching arrangement`);
  });
  const ids = new Set<string>();
  (p.contracts ?? []).forEach((c, i) => {
    if (c.id && ids.has(c.id)) problems.push(`${at}.contracts.${i}.id: duplicate contract id ${c.id}`);
    if (c.id) ids.add(c.id);
  });
  (p.subcontractors ?? []).forEach((s, i) => {
    country(`subcontractors.${i}.country`, s.country);
    if (s.identifier?.type === 'LEI' && !isValidLei(s.identifier.value))
      problems.push(`${at}.subcontractors.${i}.identifier.value: not a valid LEI (20 characters, ISO 17442 check digits)`);
  });
  (p.certifications ?? []).forEach((c, i) => {
    if (c.status === 'valid' && c.validUntil && c.validUntil < today()) {
      problems.push(`${at}.certifications.${i}.status: cannot be valid after validUntil (${c.validUntil})`);
    }
  });
  if (p.exitPlan && !p.exitPlan.exists && p.exitPlan.lastTestedDate) problems.push(`${at}.exitPlan.lastTestedDate: requires exists to be true`);
  if (p.exitPlan?.lastTestedDate && p.exitPlan.lastTestedDate > today()) problems.push(`${at}.exitPlan.lastTestedDate: must not be in the future`);
  if (p.criticalityTier === 'critical' && p.supportsCriticalFunction === false) {
    problems.push(`${at}.supportsCriticalFunction: must be true when criticalityTier is critical`);
  }
  return problems;
}

/** The profile with an id on every contract (a contract stored without one gets a new one; ids are kept). */
export function withContractIds(p: VendorProfile): VendorProfile {
  if (!p.contracts?.some((c) => !c.id)) return p;
  return { ...p, contracts: p.contracts.map((c) => (c.id ? c : { ...c, id: randomUUID() })) };
}

/** Applies a PATCH to a stored profile (top-level replace, null clears). */
export function mergeVendorProfile(current: VendorProfile, patch: VendorProfilePatch): VendorProfile {
  const out: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (v !== undefined) out[k] = v;
  }
  return out as VendorProfile;
}

/** The profile as read: a certification past its validUntil reads as `expired`. */
export function readVendorProfile(stored: unknown): VendorProfile {
  const p = (stored && typeof stored === 'object' ? stored : {}) as VendorProfile;
  if (!p.certifications?.length) return p;
  const now = today();
  return {
    ...p,
    certifications: p.certifications.map((c) => (c.status === 'valid' && c.validUntil && c.validUntil < now ? { ...c, status: 'expired' as const } : c)),
  };
}
