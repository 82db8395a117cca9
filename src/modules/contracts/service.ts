import { randomUUID } from 'node:crypto';
import type { FieldSource } from '../../domain/profileDrafts.js';
import type { Scope } from '../../domain/scope.js';
import type { Contract, VendorProfile } from '../../domain/vendorProfile.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { WorkspacesService } from '../workspaces/service.js';
import { contractReferenceTaken } from '../workspaces/vendorProfile.js';

/**
 * A vendor's contractual arrangements as records of their own (docs/register-of-information.md,
 * "Contracts"): created, changed, ended and deleted one at a time, each with a stable id. They
 * live in the vendor profile (`contracts`), which the register, the workbook and register
 * drafting read; a reference is unique across the organization (it is the arrangement's key
 * in B_02.01).
 */

export type ContractInput = Omit<Contract, 'id'>;
/** Fields to set; null clears an optional one. */
export type ContractPatch = { [K in keyof ContractInput]?: ContractInput[K] | null };

type Deps = {
  workspaces: Pick<WorkspacesService, 'get' | 'applyProfileValues' | 'orgContracts'>;
  /** Ids of the organization's business functions (register records). */
  functionIds(orgId: string): Promise<Set<string>>;
};

export interface ContractResult {
  contract: Contract;
  vendorProfile: VendorProfile;
  vendorProfileSources: Record<string, FieldSource>;
}

export interface ContractsService {
  /** The vendor's contracts. */
  list(scope: Scope): Promise<Contract[]>;
  /** Adds a contract (409 CONTRACT_REFERENCE_TAKEN when its reference is used in the organization). */
  create(scope: Scope, input: ContractInput): Promise<ContractResult>;
  /** Changes a contract's fields; null clears an optional field. */
  update(scope: Scope, id: string, patch: ContractPatch): Promise<ContractResult>;
  /** Ends a contract: its end date and the reason of the termination (B_02.02 c0080, c0090). */
  end(scope: Scope, id: string, input: { endDate: string; terminationReason: string }): Promise<ContractResult>;
  /** Deletes a contract recorded by mistake (an ended contract stays in the register: end it instead). */
  remove(scope: Scope, id: string): Promise<void>;
  /** A reference not used in the organization, from a wished one (`GitHub Terms`, `GitHub Terms (2)`, …). */
  freeReference(orgId: string, wished: string): Promise<string>;
  /** Checks a contract against the organization's register (reference unique, functions exist, overarching arrangement exists). */
  assertFits(orgId: string, contract: Contract): Promise<void>;
}

const contractNotFound = () => notFound('Contract not found', 'CONTRACT_NOT_FOUND');

export function contractsService(deps: Deps): ContractsService {
  const { workspaces } = deps;

  async function assertFits(orgId: string, c: Contract) {
    const others = (await workspaces.orgContracts(orgId)).filter((o) => o.contract.id !== c.id);
    const taken = others.find((o) => o.contract.reference === c.reference);
    if (taken) throw contractReferenceTaken(c.reference, taken.workspaceName);
    const problems: string[] = [];
    if (c.functionIds?.length) {
      const known = await deps.functionIds(orgId);
      const unknown = c.functionIds.filter((id) => !known.has(id));
      if (unknown.length) problems.push(`functionIds: ${unknown.join(', ')} is not a business function of the register`);
    }
    if (c.overarchingReference && !others.some((o) => o.contract.reference === c.overarchingReference))
      problems.push(`overarchingReference: no contract of the register has the reference ${c.overarchingReference}`);
    if (problems.length) throw badRequest(problems.join('; '), problems);
  }

  /** Applies `change` to the contract with this id in the locked profile; returns it. */
  async function change(scope: Scope, id: string, f: (c: Contract) => Contract): Promise<ContractResult> {
    const ws = await workspaces.get(scope.workspaceId);
    const current = (ws?.vendorProfile.contracts ?? []).find((c) => c.id === id);
    if (!current) throw contractNotFound();
    const next = f(structuredClone(current));
    await assertFits(scope.orgId, next);
    let found = false;
    const saved = await workspaces.applyProfileValues(scope.workspaceId, (profile, sources) => {
      profile.contracts = (profile.contracts ?? []).map((c) => {
        if (c.id !== id) return c;
        found = true;
        return f(c);
      });
      return { profile, sources };
    });
    if (!found) throw contractNotFound();
    return result(saved, id);
  }

  const result = (ws: { vendorProfile: VendorProfile; vendorProfileSources: Record<string, FieldSource> }, id: string): ContractResult => ({
    contract: ws.vendorProfile.contracts!.find((c) => c.id === id)!,
    vendorProfile: ws.vendorProfile,
    vendorProfileSources: ws.vendorProfileSources,
  });

  return {
    async list(scope) {
      const ws = await workspaces.get(scope.workspaceId);
      return ws?.vendorProfile.contracts ?? [];
    },

    async create(scope, input) {
      const contract: Contract = { id: randomUUID(), ...input };
      await assertFits(scope.orgId, contract);
      const saved = await workspaces.applyProfileValues(scope.workspaceId, (profile, sources) => {
        profile.contracts = [...(profile.contracts ?? []), contract];
        return { profile, sources };
      });
      return result(saved, contract.id!);
    },

    update(scope, id, patch) {
      return change(scope, id, (c) => {
        const out: Record<string, unknown> = { ...c };
        for (const [k, v] of Object.entries(patch)) {
          if (v === null) delete out[k];
          else if (v !== undefined) out[k] = v;
        }
        // A contract that is no longer subsequent has no overarching arrangement.
        if (patch.arrangementType && patch.arrangementType !== 'subsequent' && patch.overarchingReference === undefined) delete out.overarchingReference;
        return out as Contract;
      });
    },

    end(scope, id, input) {
      return change(scope, id, (c) => ({ ...c, endDate: input.endDate, terminationReason: input.terminationReason }));
    },

    async remove(scope, id) {
      let found = false;
      await workspaces.applyProfileValues(scope.workspaceId, (profile, sources) => {
        const list = profile.contracts ?? [];
        const index = list.findIndex((c) => c.id === id);
        if (index < 0) return { profile, sources };
        found = true;
        profile.contracts = list.filter((c) => c.id !== id);
        // Sources are kept by profile path (contracts.<n>.<field>): those of later contracts move up by one.
        const moved: Record<string, FieldSource> = {};
        for (const [path, src] of Object.entries(sources)) {
          const m = /^contracts\.(\d+)\.(.+)$/.exec(path);
          if (!m) moved[path] = src;
          else if (Number(m[1]) > index) moved[`contracts.${Number(m[1]) - 1}.${m[2]}`] = src;
          else if (Number(m[1]) < index) moved[path] = src;
        }
        return { profile, sources: moved };
      });
      if (!found) throw contractNotFound();
    },

    async freeReference(orgId, wished) {
      const used = new Set((await workspaces.orgContracts(orgId)).map((o) => o.contract.reference));
      const base = wished.trim().slice(0, 92) || 'Contract';
      if (!used.has(base)) return base;
      for (let n = 2; ; n++) if (!used.has(`${base} (${n})`)) return `${base} (${n})`;
    },

    assertFits,
  };
}
