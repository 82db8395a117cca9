import { nextReviewAfter } from '../../domain/inventory.js';
import type { FieldSource } from '../../domain/profileDrafts.js';
import { checkVendorProfile, today, type VendorProfile, type VendorProfilePatch } from '../../domain/vendorProfile.js';
import { AppError, badRequest, conflict } from '../../lib/errors.js';
import type { WorkspacesRepository } from './repository.js';

/** The rules a workspace's vendor profile keeps when it is stored (docs/organizations-and-workspaces.md). */

/** The value at a profile path (`contracts.0.governingLaw`). */
export function valueAt(profile: unknown, path: string): unknown {
  let cur: unknown = profile;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** Field sources whose value is still the one in the profile. */
export function keepUnchangedSources(profile: VendorProfile, sources: Record<string, FieldSource>): Record<string, FieldSource> {
  const out: Record<string, FieldSource> = {};
  for (const [path, src] of Object.entries(sources ?? {})) {
    if (JSON.stringify(valueAt(profile, path) ?? null) === JSON.stringify(src.value ?? null)) out[path] = src;
  }
  return out;
}

/** A contract reference is the key of the arrangement in the organization's register (B_02.01 c0010). */
export const contractReferenceTaken = (reference: string, vendor: string) =>
  conflict(`Contract reference ${reference} is already used by ${vendor}: every contract of the register needs its own reference`, 'CONTRACT_REFERENCE_TAKEN');

/** 400 naming every problem of the profile (code lists, LEI check digits, cross-field rules). */
export function assertProfile(p: VendorProfile) {
  const problems = checkVendorProfile(p);
  if (problems.length) throw badRequest(problems.join('; '), problems);
}

/**
 * The review cycle (docs/inventory.md): a tier set without a next review date sets it to
 * today + the tier's cycle, unless the vendor already has an earlier one.
 */
export function withReviewDate(profile: VendorProfile, patch: Pick<VendorProfilePatch, 'criticalityTier' | 'nextReviewDate'> | undefined): VendorProfile {
  if (!patch?.criticalityTier || patch.nextReviewDate !== undefined) return profile;
  const next = nextReviewAfter(today(), patch.criticalityTier);
  return profile.nextReviewDate && profile.nextReviewDate <= next ? profile : { ...profile, nextReviewDate: next };
}

/** The rules across an organization's vendors: one workspace per vendor identifier, one vendor per contract reference. */
export function organizationProfileRules(repo: Pick<WorkspacesRepository, 'withIdentifier' | 'contractsOf'>) {
  return {
    /** 409 VENDOR_ALREADY_REGISTERED when another workspace of the organization has the vendor identifier. */
    async assertNewVendor(orgId: string, p: Pick<VendorProfile, 'identifier'>, exceptId?: string) {
      if (!p.identifier) return;
      const dup = (await repo.withIdentifier(orgId, p.identifier.value)).filter((w) => w.id !== exceptId);
      if (dup.length) {
        throw new AppError(
          409,
          'VENDOR_ALREADY_REGISTERED',
          `A workspace for this vendor identifier already exists: ${dup[0].name}`,
          dup.map((w) => `${w.id}: ${w.name}`),
        );
      }
    },

    /** 409 CONTRACT_REFERENCE_TAKEN when a contract reference is already used by another vendor of the organization. */
    async assertUniqueReferences(orgId: string, p: Pick<VendorProfile, 'contracts'>, exceptId?: string) {
      if (!p.contracts?.length) return;
      const mine = new Set(p.contracts.map((c) => c.reference));
      const taken = (await repo.contractsOf(orgId)).filter((r) => r.workspaceId !== exceptId && mine.has(String(r.contract.reference)));
      if (taken.length) throw contractReferenceTaken(String(taken[0]!.contract.reference), taken[0]!.workspaceName);
    },
  };
}
