import {
  isOnboarding,
  portfolioConcentration,
  vendorImpact,
  type PortfolioConcentration,
  type PortfolioFunction,
  type PortfolioVendor,
  type VendorImpact,
} from '../../compliance/concentration/portfolio.js';
import { nameKey, providerResolver, type AliasOverride, type ProviderResolver } from '../../compliance/concentration/providers.js';
import type { RegisterFunction, RegisterVendor } from '../../compliance/register/types.js';
import { badRequest, forbidden, notFound } from '../../lib/errors.js';
import type { Caller } from '../register/records.js';
import type { RegisterService } from '../register/service.js';
import type { AliasRow, ConcentrationRepository } from './repository.js';

type Deps = {
  repo: ConcentrationRepository;
  register: Pick<RegisterService, 'vendors' | 'records'>;
  now?: () => Date;
};

export interface AliasView {
  nameKey: string;
  name: string;
  action: 'merge' | 'split';
  providerKey: string;
  providerName: string;
  createdBy: string | null;
  createdAt: string;
}

export type PortfolioView = Omit<PortfolioConcentration, 'providers' | 'links' | 'vendors'> & {
  generatedAt: string;
  /** The provider asked for (`?provider=`), resolved; null when none was asked for. */
  provider: { asked: string; key: string; name: string; found: boolean } | null;
  providers: PortfolioConcentration['providers'];
  /** Providers beyond `limit` left out. */
  more: number;
  /** The links on the chains of the providers returned. */
  links: PortfolioConcentration['links'];
  vendors: (PortfolioConcentration['vendors'][number] & { slug: string; onboarding: boolean })[];
};

/** Concentration risk across the portfolio (docs/concentration.md). */
export interface ConcentrationService {
  /** The portfolio's figures over every vendor the caller can access; `provider` keeps that provider only. */
  portfolio(userId: string, q: { provider?: string; limit?: number; view?: 'full' | 'table' }): Promise<PortfolioView>;
  /** What a vendor would add to concentration (the portfolio without it against with it); 404 for a vendor the caller cannot access. */
  impact(userId: string, workspace: string): Promise<VendorImpact>;
  /** The figures of the register's vendors and functions as already read (the register workbook's sheet). */
  forRegister(userId: string, vendors: RegisterVendor[], functions: RegisterFunction[], now?: Date): Promise<PortfolioConcentration>;
  /** The organization's overrides and the maintained alias table. */
  aliases(userId: string): Promise<{ overrides: AliasView[]; table: ReturnType<ProviderResolver['table']>; canEdit: boolean }>;
  /** Merges names into one provider (org_admin, analyst). */
  merge(userId: string, body: { names: string[]; into: string }): Promise<AliasView[]>;
  /** Splits a name off the provider it resolves to (org_admin, analyst). */
  split(userId: string, body: { name: string }): Promise<AliasView[]>;
  /** Removes an override: the alias table applies again (org_admin, analyst). */
  removeAlias(userId: string, name: string): Promise<void>;
}

const WRITERS = ['org_admin', 'analyst'];
const day = (d: Date) => d.toISOString().slice(0, 10);
const aliasView = (r: AliasRow): AliasView => ({
  nameKey: r.nameKey,
  name: r.name,
  action: r.action,
  providerKey: r.providerKey,
  providerName: r.providerName,
  createdBy: r.createdByName,
  createdAt: r.createdAt.toISOString(),
});
const toOverride = (r: AliasRow): AliasOverride => ({ nameKey: r.nameKey, action: r.action, providerKey: r.providerKey, providerName: r.providerName });
const toVendor = (v: RegisterVendor): PortfolioVendor => ({
  workspaceId: v.workspaceId,
  name: v.name,
  profile: v.profile,
  lifecycle: v.lifecycle,
  sources: v.sources,
});
const toFunction = (f: Pick<RegisterFunction, 'id' | 'code' | 'name' | 'criticality'>): PortfolioFunction => ({
  id: f.id,
  code: f.code,
  name: f.name,
  criticality: f.criticality,
});

export function concentrationService(deps: Deps): ConcentrationService {
  const { repo, register } = deps;
  const now = deps.now ?? (() => new Date());

  async function resolver(orgId: string) {
    return providerResolver((await repo.overrides(orgId)).map(toOverride));
  }
  async function load(userId: string) {
    const caller = await register.records.caller(userId);
    const [vendors, functions, res] = await Promise.all([register.vendors(userId), register.records.functions(caller), resolver(caller.orgId)]);
    return { caller, vendors, functions: functions.map(toFunction), resolver: res };
  }
  function writer(caller: Caller) {
    if (!WRITERS.includes(caller.role)) throw forbidden('Insufficient permission: organization viewers read the provider aliases', 'INSUFFICIENT_PERMISSION');
  }
  const cleanName = (s: string, field: string) => {
    const name = s.trim();
    if (!nameKey(name)) throw badRequest(`${field}: a provider name needs letters or digits`);
    return name;
  };
  const listOverrides = async (orgId: string) => (await repo.overrides(orgId)).map(aliasView);

  return {
    async portfolio(userId, q) {
      const { vendors, functions, resolver: res } = await load(userId);
      const today = day(now());
      const c = portfolioConcentration({ vendors: vendors.map(toVendor), functions }, res, today);
      let providers = c.providers;
      let provider: PortfolioView['provider'] = null;
      if (q.provider !== undefined) {
        const asked = cleanName(q.provider, 'provider');
        const r = res.resolve(asked);
        providers = providers.filter((p) => p.key === r.key);
        provider = { asked, key: r.key, name: providers[0]?.name ?? r.name, found: providers.length > 0 };
      }
      const limit = q.limit ?? 100;
      const shown = providers.slice(0, limit);
      const onPaths = new Set(shown.flatMap((p) => p.vendors.flatMap((v) => v.path)));
      const slug = new Map(vendors.map((v) => [v.workspaceId, v]));
      return {
        generatedAt: now().toISOString(),
        provider,
        totals: c.totals,
        index: c.index,
        thirdCountry: c.thirdCountry,
        exits: c.exits,
        providers: q.view === 'table' ? shown.map((p) => ({ ...p, vendors: [], functions: [] })) : shown,
        more: providers.length - shown.length,
        links: q.view === 'table' ? [] : c.links.filter((l) => onPaths.has(l.id)),
        vendors: c.vendors.map((v) => ({
          ...v,
          slug: slug.get(v.workspaceId)!.workspaceSlug,
          onboarding: isOnboarding(slug.get(v.workspaceId)!.profile, today, slug.get(v.workspaceId)!.lifecycle),
        })),
      };
    },

    async impact(userId, workspace) {
      const { vendors, functions, resolver: res } = await load(userId);
      const v = vendors.find((x) => x.workspaceId === workspace || x.workspaceSlug === workspace);
      if (!v) throw notFound('Workspace not found', 'WORKSPACE_NOT_FOUND');
      return vendorImpact({ vendors: vendors.map(toVendor), functions }, v.workspaceId, res, day(now()))!;
    },

    async forRegister(userId, vendors, functions, at = now()) {
      const caller = await register.records.caller(userId);
      return portfolioConcentration({ vendors: vendors.map(toVendor), functions: functions.map(toFunction) }, await resolver(caller.orgId), day(at));
    },

    async aliases(userId) {
      const caller = await register.records.caller(userId);
      return { overrides: await listOverrides(caller.orgId), table: providerResolver().table(), canEdit: WRITERS.includes(caller.role) };
    },

    async merge(userId, body) {
      const caller = await register.records.caller(userId);
      writer(caller);
      const into = cleanName(body.into, 'into');
      const names = body.names.map((n, i) => cleanName(n, `names.${i}`));
      const res = await resolver(caller.orgId);
      const target = res.resolve(into);
      const rows = names
        .filter((n) => res.resolve(n).key !== target.key)
        .map((n) => ({ nameKey: nameKey(n), name: n, action: 'merge' as const, providerKey: target.key, providerName: target.name }));
      if (!rows.length) throw badRequest('names: every name already is the provider it is merged into');
      await repo.upsert(caller.orgId, userId, rows);
      return listOverrides(caller.orgId);
    },

    async split(userId, body) {
      const caller = await register.records.caller(userId);
      writer(caller);
      const name = cleanName(body.name, 'name');
      const key = nameKey(name);
      const r = (await resolver(caller.orgId)).resolve(name);
      if (r.key === key) throw badRequest(`name: ${name} already is its own provider`);
      await repo.upsert(caller.orgId, userId, [{ nameKey: key, name, action: 'split', providerKey: key, providerName: name }]);
      return listOverrides(caller.orgId);
    },

    async removeAlias(userId, name) {
      const caller = await register.records.caller(userId);
      writer(caller);
      const key = nameKey(name) || name;
      if (!(await repo.remove(caller.orgId, key))) throw notFound(`No override for ${name}`, 'ALIAS_NOT_FOUND');
    },
  };
}
