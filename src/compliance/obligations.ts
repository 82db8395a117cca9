import { readFileSync } from 'node:fs';
import { compileObligations, type VendorObligation } from './obligationData.js';

/**
 * The DORA obligations a vendor's documents can evidence (docs/assessments.md), as data:
 * obligations.json holds their text, elements, weights and regular expressions; obligationData.ts
 * checks the file against its schema and compiles the patterns, once, when this module loads.
 *
 * DORA's Articles 28-30 bind the financial entity, not the vendor; what an analyst looks for in
 * the vendor's contract, DPA, SLA and security papers is whether the clause or control the entity
 * needs is there. Each obligation names the DORA obligation (its text is found in the compliance
 * reference data by `dora.match`), says what evidence would satisfy it (`elements`), and how to
 * find that evidence (`query`, and the patterns of each element: obligationData.ts).
 */

export type { EvidenceElement, ObligationScope, VendorObligation } from './obligationData.js';

export const VENDOR_OBLIGATIONS: VendorObligation[] = compileObligations(JSON.parse(readFileSync(new URL('./obligations.json', import.meta.url), 'utf8')));

/** The obligations that apply to a vendor: `critical` ones unless the profile says the service supports no critical or important function. */
export function applicableObligations(profile: { criticalityTier?: string; supportsCriticalFunction?: boolean } | null | undefined): VendorObligation[] {
  const knownNonCritical = profile?.supportsCriticalFunction === false && profile.criticalityTier !== 'critical';
  return VENDOR_OBLIGATIONS.filter((o) => o.scope === 'all' || !knownNonCritical);
}
