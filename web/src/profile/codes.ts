/**
 * Code lists of the vendor profile, read from the data the API checks against
 * (src/domain/vendorProfileCodes.ts: data only, no package); country names come from the browser (Intl).
 */
import {
  CERTIFICATION_STATUS_LABELS,
  CERTIFICATION_STATUSES as CERTIFICATION_STATUS_CODES,
  COUNTRY_CODES,
  CRITICALITY_TIER_LABELS,
  CRITICALITY_TIERS as CRITICALITY_TIER_CODES,
  CURRENCY_CODES,
  ICT_SERVICE_TYPE_CODES,
  ICT_SERVICE_TYPES as ICT_SERVICE_TYPE_NAMES,
  IDENTIFIER_TYPE_LABELS,
  IDENTIFIER_TYPES as IDENTIFIER_TYPE_CODES,
  LEVEL_LABELS,
  LEVELS as LEVEL_CODES,
  leiProblem,
  REINTEGRATION_LABELS,
  REINTEGRATION as REINTEGRATION_CODES,
  SUBSTITUTABILITY_LABELS,
  SUBSTITUTABILITY as SUBSTITUTABILITY_CODES,
} from '../../../src/domain/vendorProfileCodes';

export { COUNTRY_CODES, CURRENCY_CODES, leiProblem };

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return null;
  }
})();
/** "Germany (DE)"; the code alone when the browser has no name for it. */
export function countryLabel(code: string): string {
  const name = regionNames?.of(code);
  return name && name !== code ? `${name} (${code})` : code;
}
export const COUNTRY_OPTIONS = COUNTRY_CODES.map((c) => ({ value: c, label: countryLabel(c) })).sort((a, b) => a.label.localeCompare(b.label));

/** Annex III of Implementing Regulation (EU) 2024/2956: type of ICT services. */
export const ICT_SERVICE_TYPES: Record<string, string> = ICT_SERVICE_TYPE_NAMES;
export const ICT_OPTIONS = ICT_SERVICE_TYPE_CODES.map((value) => ({ value, label: `${value} ${ICT_SERVICE_TYPE_NAMES[value]}` }));

/** A code list as options of a select, in the list's order. */
const options = <C extends string>(codes: readonly C[], labels: Record<C, string>) => codes.map((value) => ({ value, label: labels[value] }));

export const IDENTIFIER_TYPES = options(IDENTIFIER_TYPE_CODES, IDENTIFIER_TYPE_LABELS);
export const CRITICALITY_TIERS = options(CRITICALITY_TIER_CODES, CRITICALITY_TIER_LABELS);
export const SUBSTITUTABILITY = options(SUBSTITUTABILITY_CODES, SUBSTITUTABILITY_LABELS);
export const REINTEGRATION = options(REINTEGRATION_CODES, REINTEGRATION_LABELS);
export const LEVELS = options(LEVEL_CODES, LEVEL_LABELS);
export const CERTIFICATION_STATUSES = options(CERTIFICATION_STATUS_CODES, CERTIFICATION_STATUS_LABELS);
