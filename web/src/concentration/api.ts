import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';

/** Concentration risk across the portfolio, as GET /concentration returns it (docs/concentration.md). */
export interface Evidence {
  documentId: string;
  chunkId: string;
  title: string;
  section: string;
  page: string | null;
  quote: string;
  link: string;
}
export interface ChainLink {
  id: string;
  workspaceId: string;
  from: string;
  to: string;
  writtenName: string;
  rank: number;
  country: string | null;
  role: string | null;
  evidence: Evidence[];
}
export interface ProviderFigures {
  key: string;
  name: string;
  names: string[];
  countries: string[];
  thirdCountry: boolean;
  isVendor: boolean;
  vendors: { workspaceId: string; name: string; rank: number; critical: boolean; path: string[] }[];
  vendorCount: number;
  vendorShare: number;
  directVendorCount: number;
  functions: { id: string; code: string; name: string; critical: boolean; via: string[] }[];
  criticalFunctionCount: number;
  criticalFunctionShare: number;
  criticalVendorCount: number;
}
interface Index {
  hhi: number;
  level: 'low' | 'moderate' | 'high';
  pairs: number;
}
export interface Concentration {
  provider: { asked: string; key: string; name: string; found: boolean } | null;
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
    direct: Index;
    vendors: Index;
    criticalFunctions: Index;
    topProvider: { key: string; name: string; vendorShare: number; criticalFunctionShare: number } | null;
  };
  thirdCountry: {
    vendors: number;
    vendorShare: number;
    criticalFunctions: number;
    criticalFunctionShare: number;
    countries: { country: string; providers: number; vendors: number }[];
  };
  exits: {
    criticalFunctionsWithoutAlternative: { id: string; code: string; name: string }[];
    criticalVendorsWithoutTestedExit: { workspaceId: string; name: string }[];
    concentratedAlternatives: { workspaceId: string; vendor: string; alternative: string; provider: string }[];
  };
  providers: ProviderFigures[];
  more: number;
  links: ChainLink[];
  vendors: {
    workspaceId: string;
    slug: string;
    name: string;
    providerKey: string;
    critical: boolean;
    onboarding: boolean;
    functionIds: string[];
    thirdCountry: boolean;
  }[];
}
export interface VendorImpact {
  workspaceId: string;
  name: string;
  onboarding: boolean;
  providers: {
    key: string;
    name: string;
    rank: number;
    thirdCountry: boolean;
    vendorsBefore: number;
    vendorsAfter: number;
    criticalFunctionsBefore: number;
    criticalFunctionsAfter: number;
    alreadyDependedOn: boolean;
    newlyConcentratedFunctions: { id: string; code: string; name: string }[];
    path: string[];
  }[];
  sharedProviders: number;
  newlyConcentratedFunctions: { id: string; code: string; name: string; providers: string[] }[];
  index: { vendors: { before: number; after: number }; criticalFunctions: { before: number; after: number } };
  newThirdCountries: string[];
  links: ChainLink[];
}

/** The portfolio (`provider` absent: the figures and the table's counts) or one provider with its vendors, functions and links. */
export function useConcentration(provider: string | undefined, enabled = true) {
  return useQuery({
    queryKey: ['concentration', provider ?? ''],
    enabled,
    queryFn: () => get<{ concentration: Concentration }>('/concentration', { query: provider ? { provider } : { limit: 100, view: 'table' } }),
    select: (d) => d.concentration,
  });
}
export function useVendorImpact(workspaceId: string) {
  return useQuery({
    queryKey: ['concentration', 'vendor', workspaceId],
    enabled: !!workspaceId,
    queryFn: () => get<{ impact: VendorImpact }>(`/concentration/vendors/${encodeURIComponent(workspaceId)}`),
    select: (d) => d.impact,
  });
}

export const pct = (x: number) => `${Math.round(x * 100)}%`;
