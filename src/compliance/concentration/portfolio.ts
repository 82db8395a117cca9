import { EEA } from '../../domain/countries.js';
import type { Evidence, FieldSource } from '../../domain/profileDrafts.js';
import type { VendorProfile } from '../../domain/vendorProfile.js';
import type { ProviderResolver } from './providers.js';

/**
 * Concentration risk across the portfolio (docs/concentration.md; DORA Art. 28(4)(c), 29):
 * the supply chain of every vendor (rank 1 the vendor, rank 2 its subcontractors, deeper where
 * a subcontractor is itself a vendor of the portfolio whose documents name its own), keyed by
 * provider; per provider the vendors and functions that depend on it directly or through a
 * chain; a Herfindahl-Hirschman index across providers; third-country exposure; and what a
 * vendor would add. Pure functions: no I/O.
 */

/** EEA members (src/domain/countries.ts): any other country is a third country (Art. 29(2)). */
export { EEA };
export const isThirdCountry = (c: string | undefined | null) => !!c && !EEA.has(c);

/** Deepest rank followed through the portfolio (vendor -> subcontractor that is a vendor -> …). */
export const MAX_RANK = 6;

export interface PortfolioVendor {
  /** Opaque workspace id. */
  workspaceId: string;
  name: string;
  profile: VendorProfile;
  /** The inventory's lifecycle status (onboarding, active, exiting, exited). */
  lifecycle?: string;
  /** Where profile values came from (accepted draft values with their passages). */
  sources?: Record<string, FieldSource>;
}
export interface PortfolioFunction {
  id: string;
  code: string;
  name: string;
  /** B_06.01 c0050: `yes` is a critical or important function. */
  criticality: 'yes' | 'no' | 'not_assessed';
}

/** One link of the supply chain as a vendor's documents (or its profile) state it. */
export interface ChainLink {
  /** Stable within a portfolio: `<workspaceId>:provider` or `<workspaceId>:sub:<index>`. */
  id: string;
  /** The vendor whose profile and documents state the link. */
  workspaceId: string;
  /** `entity` (the financial entity contracts the vendor: rank 1) or the provider key of the vendor. */
  from: string;
  to: string;
  /** The provider as written in the documents. */
  writtenName: string;
  /** 1: the vendor itself; 2: its subcontractor. Deeper ranks arise in chains. */
  rank: 1 | 2;
  country: string | null;
  role: string | null;
  /** The passages the link came from; empty when the value was entered by hand. */
  evidence: Evidence[];
}

/** A vendor's dependency on a provider: the chain of link ids from the entity to the provider. */
export interface Dependency {
  workspaceId: string;
  rank: number;
  path: string[];
}

export interface ProviderFigures {
  key: string;
  name: string;
  /** Names documents use for it. */
  names: string[];
  countries: string[];
  thirdCountry: boolean;
  /** The provider is itself a vendor of the portfolio (rank 1 for somebody). */
  isVendor: boolean;
  vendors: { workspaceId: string; name: string; rank: number; critical: boolean; path: string[] }[];
  vendorCount: number;
  /** Share of the portfolio's vendors depending on it (0..1). */
  vendorShare: number;
  directVendorCount: number;
  functions: { id: string; code: string; name: string; critical: boolean; via: string[] }[];
  criticalFunctionCount: number;
  /** Share of the critical or important functions depending on it (0..1). */
  criticalFunctionShare: number;
  criticalVendorCount: number;
}

export interface ConcentrationIndex {
  /** Herfindahl-Hirschman index, 0..10000, over each provider's share of the dependencies counted. */
  hhi: number;
  level: 'low' | 'moderate' | 'high';
  /** The dependencies counted (vendor-provider or critical function-provider pairs). */
  pairs: number;
}

export interface PortfolioConcentration {
  totals: {
    vendors: number;
    criticalVendors: number;
    functions: number;
    criticalFunctions: number;
    providers: number;
    links: number;
    linksWithPassage: number;
  };
  index: {
    /** Over rank 1 only: each vendor one unit on its own provider (several vendors that are one provider concentrate). */
    direct: ConcentrationIndex;
    /** Over vendor-provider pairs at every rank. */
    vendors: ConcentrationIndex;
    /** Over critical function-provider pairs at every rank. */
    criticalFunctions: ConcentrationIndex;
    /** The provider most depended on (the single point of failure the index spreads out), or null. */
    topProvider: { key: string; name: string; vendorShare: number; criticalFunctionShare: number } | null;
  };
  thirdCountry: {
    /** Vendors with a non-EEA provider anywhere on their chain. */
    vendors: number;
    vendorShare: number;
    criticalFunctions: number;
    criticalFunctionShare: number;
    countries: { country: string; providers: number; vendors: number }[];
  };
  /** Substitutability and exit read together (Art. 28(8)). */
  exits: {
    /** Critical functions none of whose vendors names an alternative provider. */
    criticalFunctionsWithoutAlternative: { id: string; code: string; name: string }[];
    /** Critical vendors without an exit plan tested. */
    criticalVendorsWithoutTestedExit: { workspaceId: string; name: string }[];
    /** Alternatives that are (or run on) a provider the vendor itself depends on. */
    concentratedAlternatives: { workspaceId: string; vendor: string; alternative: string; provider: string }[];
  };
  /** Providers, most depended on first (critical functions, then vendors). */
  providers: ProviderFigures[];
  links: ChainLink[];
  vendors: { workspaceId: string; name: string; providerKey: string; critical: boolean; functionIds: string[]; thirdCountry: boolean }[];
}

const lower = (s: string) => s.toLowerCase();

/** The passages of the subcontractor list that name this subcontractor (all of them when none does). */
function subcontractorEvidence(src: FieldSource | undefined, name: string): Evidence[] {
  if (!src || src.evidence.length === 0) return [];
  const n = lower(name);
  const own = src.evidence.filter((e) => lower(e.quote).includes(n));
  return own.length ? own : src.evidence;
}

/** The functions a vendor supports: those its contracts (not ended) name. */
function vendorFunctionIds(p: VendorProfile, today: string): string[] {
  const ids = new Set<string>();
  for (const c of p.contracts ?? []) {
    if (c.endDate && c.endDate < today) continue;
    for (const f of c.functionIds ?? []) ids.add(f);
  }
  return [...ids];
}

/**
 * A vendor in onboarding: its lifecycle says so, or, for a vendor not being exited, no contract
 * has started yet (none whose start date is today or before): DORA asks for the concentration
 * assessment before the contractual arrangement is entered into (Article 28(4)(c), 29).
 */
export function isOnboarding(p: VendorProfile, today: string, lifecycle?: string): boolean {
  if (lifecycle === 'onboarding') return true;
  if (lifecycle === 'exiting' || lifecycle === 'exited') return false;
  return !(p.contracts ?? []).some((c) => c.startDate <= today && !(c.endDate && c.endDate < today));
}

function index(counts: number[]): ConcentrationIndex {
  const total = counts.reduce((a, b) => a + b, 0);
  const hhi = total === 0 ? 0 : Math.round(counts.reduce((a, c) => a + ((100 * c) / total) ** 2, 0));
  // Bands of the European Commission's horizontal merger guidelines (2004/C 31/03, points 19-20).
  return { hhi, level: hhi < 1000 ? 'low' : hhi <= 2000 ? 'moderate' : 'high', pairs: total };
}

/** The supply chain's links of one vendor: itself (rank 1) and its subcontractors (rank 2). */
export function vendorLinks(v: PortfolioVendor, resolver: ProviderResolver): ChainLink[] {
  const p = v.profile;
  const written = p.legalName ?? v.name;
  const own = resolver.resolve(written);
  const links: ChainLink[] = [
    {
      id: `${v.workspaceId}:provider`,
      workspaceId: v.workspaceId,
      from: 'entity',
      to: own.key,
      writtenName: written,
      rank: 1,
      country: p.country ?? null,
      role: null,
      evidence: v.sources?.legalName?.evidence ?? [],
    },
  ];
  const src = v.sources?.subcontractors;
  (p.subcontractors ?? []).forEach((s, i) => {
    const r = resolver.resolve(s.name);
    if (!r.key || r.key === own.key) return; // the vendor's own affiliates under its name
    links.push({
      id: `${v.workspaceId}:sub:${i}`,
      workspaceId: v.workspaceId,
      from: own.key,
      to: r.key,
      writtenName: s.name,
      rank: 2,
      country: s.country ?? null,
      role: s.role ?? null,
      evidence: subcontractorEvidence(src, s.name),
    });
  });
  return links;
}

/**
 * The portfolio's concentration figures. `today` (YYYY-MM-DD) decides which contracts are in
 * force for the functions a vendor supports.
 */
export function portfolioConcentration(
  input: { vendors: PortfolioVendor[]; functions: PortfolioFunction[] },
  resolver: ProviderResolver,
  today: string,
): PortfolioConcentration {
  const fnById = new Map(input.functions.map((f) => [f.id, f]));
  const criticalFns = input.functions.filter((f) => f.criticality === 'yes');
  const allLinks: ChainLink[] = [];
  const names = new Map<string, { name: string; written: Set<string>; countries: Set<string>; isVendor: boolean }>();
  const note = (key: string, name: string, written: string, country: string | null, isVendor: boolean) => {
    let n = names.get(key);
    if (!n) names.set(key, (n = { name, written: new Set(), countries: new Set(), isVendor: false }));
    n.written.add(written);
    if (country) n.countries.add(country);
    if (isVendor) n.isVendor = true;
  };

  // Each vendor's own links, and the links out of each provider key that is a vendor (for deeper ranks).
  const ownLinks = new Map<string, ChainLink[]>();
  const outOfProvider = new Map<string, ChainLink[]>();
  const vendorInfo: PortfolioConcentration['vendors'] = [];
  for (const v of input.vendors) {
    const links = vendorLinks(v, resolver);
    ownLinks.set(v.workspaceId, links);
    allLinks.push(...links);
    const own = links[0]!;
    note(own.to, resolver.resolve(own.writtenName).name, own.writtenName, own.country, true);
    for (const l of links.slice(1)) note(l.to, resolver.resolve(l.writtenName).name, l.writtenName, l.country, false);
    const out = outOfProvider.get(own.to) ?? [];
    out.push(...links.slice(1));
    outOfProvider.set(own.to, out);
    const functionIds = vendorFunctionIds(v.profile, today).filter((id) => fnById.has(id));
    const critical =
      v.profile.supportsCriticalFunction === true ||
      v.profile.criticalityTier === 'critical' ||
      functionIds.some((id) => fnById.get(id)!.criticality === 'yes');
    vendorInfo.push({ workspaceId: v.workspaceId, name: v.name, providerKey: own.to, critical, functionIds, thirdCountry: false });
  }

  // Each vendor's dependencies: breadth first from its own provider through the providers that are vendors.
  const linkById = new Map(allLinks.map((l) => [l.id, l]));
  const deps = new Map<string, Dependency[]>(); // provider key -> dependencies
  for (const v of vendorInfo) {
    const first = ownLinks.get(v.workspaceId)![0]!;
    const seen = new Map<string, Dependency>([[first.to, { workspaceId: v.workspaceId, rank: 1, path: [first.id] }]]);
    let frontier = [first.to];
    // Rank 2 from the vendor's own documents; deeper from the documents of a provider that is a vendor.
    const ownSubs = ownLinks.get(v.workspaceId)!.slice(1);
    for (let rank = 2; rank <= MAX_RANK && frontier.length; rank++) {
      const next: string[] = [];
      for (const from of frontier) {
        const outs = rank === 2 && from === first.to ? ownSubs : (outOfProvider.get(from) ?? []);
        for (const l of outs) {
          if (seen.has(l.to)) continue;
          seen.set(l.to, { workspaceId: v.workspaceId, rank, path: [...seen.get(from)!.path, l.id] });
          next.push(l.to);
        }
      }
      frontier = next;
    }
    for (const [key, d] of seen) {
      const list = deps.get(key) ?? [];
      list.push(d);
      deps.set(key, list);
    }
    v.thirdCountry = [...seen.values()].some((d) => d.path.some((id) => isThirdCountry(linkById.get(id)!.country)));
  }

  const vendorById = new Map(vendorInfo.map((v) => [v.workspaceId, v]));
  const nVendors = vendorInfo.length;
  const providers: ProviderFigures[] = [];
  for (const [key, list] of deps) {
    const meta = names.get(key)!;
    const fns = new Map<string, ProviderFigures['functions'][number]>();
    for (const d of list) {
      for (const id of vendorById.get(d.workspaceId)!.functionIds) {
        const f = fnById.get(id)!;
        const e = fns.get(id) ?? { id, code: f.code, name: f.name, critical: f.criticality === 'yes', via: [] };
        e.via.push(d.workspaceId);
        fns.set(id, e);
      }
    }
    const functions = [...fns.values()].sort((a, b) => Number(b.critical) - Number(a.critical) || a.code.localeCompare(b.code, 'en', { numeric: true }));
    const criticalFunctionCount = functions.filter((f) => f.critical).length;
    const vendors = list
      .map((d) => ({
        workspaceId: d.workspaceId,
        name: vendorById.get(d.workspaceId)!.name,
        rank: d.rank,
        critical: vendorById.get(d.workspaceId)!.critical,
        path: d.path,
      }))
      .sort((a, b) => a.rank - b.rank || a.name.localeCompare(b.name));
    const countries = [...meta.countries].sort();
    providers.push({
      key,
      name: meta.name,
      names: [...meta.written].sort(),
      countries,
      thirdCountry: countries.some(isThirdCountry),
      isVendor: meta.isVendor,
      vendors,
      vendorCount: vendors.length,
      vendorShare: nVendors ? vendors.length / nVendors : 0,
      directVendorCount: vendors.filter((v) => v.rank === 1).length,
      functions,
      criticalFunctionCount,
      criticalFunctionShare: criticalFns.length ? criticalFunctionCount / criticalFns.length : 0,
      criticalVendorCount: vendors.filter((v) => v.critical).length,
    });
  }
  providers.sort(
    (a, b) =>
      b.criticalFunctionCount - a.criticalFunctionCount ||
      b.vendorCount - a.vendorCount ||
      b.criticalVendorCount - a.criticalVendorCount ||
      a.name.localeCompare(b.name),
  );

  // Third-country exposure.
  const tcVendors = vendorInfo.filter((v) => v.thirdCountry);
  const tcFns = criticalFns.filter((f) => tcVendors.some((v) => v.functionIds.includes(f.id)));
  const byCountry = new Map<string, { providers: Set<string>; vendors: Set<string> }>();
  for (const p of providers) {
    for (const c of p.countries.filter(isThirdCountry)) {
      const e = byCountry.get(c) ?? { providers: new Set(), vendors: new Set() };
      e.providers.add(p.key);
      for (const v of p.vendors) e.vendors.add(v.workspaceId);
      byCountry.set(c, e);
    }
  }

  return {
    totals: {
      vendors: nVendors,
      criticalVendors: vendorInfo.filter((v) => v.critical).length,
      functions: input.functions.length,
      criticalFunctions: criticalFns.length,
      providers: providers.length,
      links: allLinks.length,
      linksWithPassage: allLinks.filter((l) => l.evidence.length > 0).length,
    },
    index: {
      direct: index(providers.map((p) => p.directVendorCount)),
      vendors: index(providers.map((p) => p.vendorCount)),
      criticalFunctions: index(providers.map((p) => p.criticalFunctionCount)),
      topProvider: providers[0]
        ? { key: providers[0].key, name: providers[0].name, vendorShare: providers[0].vendorShare, criticalFunctionShare: providers[0].criticalFunctionShare }
        : null,
    },
    thirdCountry: {
      vendors: tcVendors.length,
      vendorShare: nVendors ? tcVendors.length / nVendors : 0,
      criticalFunctions: tcFns.length,
      criticalFunctionShare: criticalFns.length ? tcFns.length / criticalFns.length : 0,
      countries: [...byCountry]
        .map(([country, e]) => ({ country, providers: e.providers.size, vendors: e.vendors.size }))
        .sort((a, b) => b.vendors - a.vendors || a.country.localeCompare(b.country)),
    },
    exits: exits(input, vendorInfo, providers, resolver),
    providers,
    links: allLinks,
    vendors: vendorInfo,
  };
}

function exits(
  input: { vendors: PortfolioVendor[]; functions: PortfolioFunction[] },
  vendorInfo: PortfolioConcentration['vendors'],
  providers: ProviderFigures[],
  resolver: ProviderResolver,
): PortfolioConcentration['exits'] {
  const profile = new Map(input.vendors.map((v) => [v.workspaceId, v.profile]));
  const hasAlternative = (id: string) => {
    const e = profile.get(id)?.exitPlan;
    return !!e && (e.alternativeProvidersIdentified === true || (e.alternativeProviders?.length ?? 0) > 0);
  };
  const criticalFunctionsWithoutAlternative = input.functions
    .filter((f) => f.criticality === 'yes')
    .filter((f) => {
      const vs = vendorInfo.filter((v) => v.functionIds.includes(f.id));
      return vs.length > 0 && !vs.some((v) => hasAlternative(v.workspaceId));
    })
    .map(({ id, code, name }) => ({ id, code, name }));
  const criticalVendorsWithoutTestedExit = vendorInfo
    .filter((v) => v.critical)
    .filter((v) => {
      const e = profile.get(v.workspaceId)?.exitPlan;
      return !e?.exists || !e.lastTestedDate;
    })
    .map(({ workspaceId, name }) => ({ workspaceId, name }));
  // An alternative is concentrated when it is, or depends on, a provider the vendor itself depends on.
  const dependsOn = new Map<string, Set<string>>();
  for (const p of providers)
    for (const v of p.vendors) (dependsOn.get(v.workspaceId) ?? dependsOn.set(v.workspaceId, new Set()).get(v.workspaceId)!).add(p.key);
  const providerName = new Map(providers.map((p) => [p.key, p.name]));
  // What a provider that is itself a vendor of the portfolio runs on.
  const chains = new Map<string, Set<string>>();
  for (const v of vendorInfo)
    for (const k of dependsOn.get(v.workspaceId) ?? []) (chains.get(v.providerKey) ?? chains.set(v.providerKey, new Set()).get(v.providerKey)!).add(k);
  const chainOf = (key: string) => chains.get(key) ?? new Set<string>();
  const concentratedAlternatives: PortfolioConcentration['exits']['concentratedAlternatives'] = [];
  for (const v of vendorInfo) {
    const own = dependsOn.get(v.workspaceId) ?? new Set();
    for (const alt of profile.get(v.workspaceId)?.exitPlan?.alternativeProviders ?? []) {
      const key = resolver.resolve(alt).key;
      const shared = [key, ...chainOf(key)].find((k) => own.has(k) && k !== v.providerKey) ?? (key === v.providerKey ? key : undefined);
      if (shared) concentratedAlternatives.push({ workspaceId: v.workspaceId, vendor: v.name, alternative: alt, provider: providerName.get(shared) ?? alt });
    }
  }
  return { criticalFunctionsWithoutAlternative, criticalVendorsWithoutTestedExit, concentratedAlternatives };
}

/** What adding a vendor does to one provider's figures. */
export interface ImpactProvider {
  key: string;
  name: string;
  rank: number;
  thirdCountry: boolean;
  vendorsBefore: number;
  vendorsAfter: number;
  criticalFunctionsBefore: number;
  criticalFunctionsAfter: number;
  /** The provider was already depended on by other vendors of the portfolio. */
  alreadyDependedOn: boolean;
  /** Critical functions that come to depend on this provider while it already carries others. */
  newlyConcentratedFunctions: { id: string; code: string; name: string }[];
  path: string[];
}

export interface VendorImpact {
  workspaceId: string;
  name: string;
  onboarding: boolean;
  providers: ImpactProvider[];
  /** Providers it depends on that other vendors already depend on. */
  sharedProviders: number;
  newlyConcentratedFunctions: { id: string; code: string; name: string; providers: string[] }[];
  index: {
    vendors: { before: number; after: number };
    criticalFunctions: { before: number; after: number };
  };
  newThirdCountries: string[];
  links: ChainLink[];
}

/**
 * What a vendor would add to concentration (Art. 28(4)(c), 29(1)): the portfolio without it
 * against the portfolio with it.
 */
export function vendorImpact(
  input: { vendors: PortfolioVendor[]; functions: PortfolioFunction[] },
  workspaceId: string,
  resolver: ProviderResolver,
  today: string,
): VendorImpact | null {
  const vendor = input.vendors.find((v) => v.workspaceId === workspaceId);
  if (!vendor) return null;
  const after = portfolioConcentration(input, resolver, today);
  const before = portfolioConcentration({ ...input, vendors: input.vendors.filter((v) => v.workspaceId !== workspaceId) }, resolver, today);
  const beforeBy = new Map(before.providers.map((p) => [p.key, p]));
  const providers: ImpactProvider[] = [];
  const newly = new Map<string, { id: string; code: string; name: string; providers: string[] }>();
  for (const p of after.providers) {
    const mine = p.vendors.find((v) => v.workspaceId === workspaceId);
    if (!mine) continue;
    const b = beforeBy.get(p.key);
    const beforeCritical = new Set((b?.functions ?? []).filter((f) => f.critical).map((f) => f.id));
    const newlyHere =
      beforeCritical.size > 0
        ? p.functions.filter((f) => f.critical && !beforeCritical.has(f.id) && f.via.includes(workspaceId)).map(({ id, code, name }) => ({ id, code, name }))
        : [];
    for (const f of newlyHere) {
      const e = newly.get(f.id) ?? { ...f, providers: [] };
      e.providers.push(p.name);
      newly.set(f.id, e);
    }
    providers.push({
      key: p.key,
      name: p.name,
      rank: mine.rank,
      thirdCountry: p.thirdCountry,
      vendorsBefore: b?.vendorCount ?? 0,
      vendorsAfter: p.vendorCount,
      criticalFunctionsBefore: b?.criticalFunctionCount ?? 0,
      criticalFunctionsAfter: p.criticalFunctionCount,
      alreadyDependedOn: (b?.vendorCount ?? 0) > 0,
      newlyConcentratedFunctions: newlyHere,
      path: mine.path,
    });
  }
  providers.sort(
    (a, b) => Number(b.alreadyDependedOn) - Number(a.alreadyDependedOn) || b.vendorsBefore - a.vendorsBefore || a.rank - b.rank || a.name.localeCompare(b.name),
  );
  const tcBefore = new Set(before.thirdCountry.countries.map((c) => c.country));
  const pathIds = new Set(providers.flatMap((p) => p.path));
  return {
    workspaceId,
    name: vendor.name,
    onboarding: isOnboarding(vendor.profile, today, vendor.lifecycle),
    providers,
    sharedProviders: providers.filter((p) => p.alreadyDependedOn).length,
    newlyConcentratedFunctions: [...newly.values()],
    index: {
      vendors: { before: before.index.vendors.hhi, after: after.index.vendors.hhi },
      criticalFunctions: { before: before.index.criticalFunctions.hhi, after: after.index.criticalFunctions.hhi },
    },
    newThirdCountries: after.thirdCountry.countries.map((c) => c.country).filter((c) => !tcBefore.has(c)),
    links: after.links.filter((l) => pathIds.has(l.id)),
  };
}
