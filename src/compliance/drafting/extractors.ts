import type { DraftField } from '../../domain/profileDrafts.js';
import { sentences } from './text.js';
import type { ExtractContext, Found, Rule } from './extractors/common.js';
import { address, description, ictServiceType, legalName } from './extractors/identity.js';
import { storage, processing, service, withHosting } from './extractors/locations.js';
import { auditRights, exitProvisions, personalData } from './extractors/provisions.js';
import { subcontractors } from './extractors/subprocessors.js';
import { endDate, governingLaw, noticeRule, renewal, startDate } from './extractors/terms.js';

export type { ExtractContext, Found } from './extractors/common.js';
export { brandCompanies, companyNames, providerAliases } from './extractors/identity.js';

/**
 * Offline extraction rules, one per field form (docs/register-drafting.md, "Extraction
 * rules"). Each rule reads one passage sentence by sentence and returns the values it
 * finds with the offsets of the sentence that states them; a rule that is not sure
 * returns nothing (a field is "not found" rather than guessed).
 *
 * The rules are in extractors/, by field family:
 * - common.ts: what the rules share (`Found`, `ExtractContext`, the company-name pattern,
 *   sentence and table helpers, the "contracting entity" table);
 * - identity.ts: legal name, address, description, ICT service type, and the vendor's
 *   company names and aliases in a text (`brandCompanies`, `companyNames`, `providerAliases`);
 * - terms.ts: start date, end date, renewal, notice periods, governing law;
 * - locations.ts: where the service is provided and data is stored and processed;
 * - subprocessors.ts: subprocessor tables and lists, the subcontractors rule;
 * - provisions.ts: personal data, audit rights, exit provisions.
 * This file puts them together (`RULES`, `extract`) and is what the rest of the code imports.
 */

export const RULES: Record<DraftField, Rule> = {
  legalName,
  address,
  description,
  ictServiceType,
  startDate,
  endDate,
  renewal,
  noticePeriodDaysEntity: noticeRule('entity'),
  noticePeriodDaysProvider: noticeRule('provider'),
  governingLaw,
  serviceLocations: withHosting('serviceLocations', service),
  dataStorageLocations: withHosting('dataStorageLocations', storage),
  dataProcessingLocations: withHosting('dataProcessingLocations', processing),
  subcontractors,
  personalData,
  auditRights,
  exitProvisions,
};

/** Runs a field's rule over one passage. */
export function extract(field: DraftField, content: string, ctx: ExtractContext, section = ''): Found[] {
  return RULES[field](content, sentences(content), ctx, section);
}
