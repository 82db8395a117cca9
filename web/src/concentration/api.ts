import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';
import type { ApiData } from '../api/types';

/** Concentration risk across the portfolio, as GET /concentration returns it (docs/concentration.md). */
export type Concentration = ApiData<'getPortfolioConcentration'>['concentration'];
export type VendorImpact = ApiData<'getVendorConcentrationImpact'>['impact'];
export type ChainLink = Concentration['links'][number];
export type Evidence = ChainLink['evidence'][number];
export type ProviderFigures = Concentration['providers'][number];

export function useConcentration(provider: string | undefined, enabled = true) {
  return useQuery({
    queryKey: ['concentration', provider ?? ''],
    enabled,
    queryFn: () => get<ApiData<'getPortfolioConcentration'>>('/concentration', { query: provider ? { provider } : { limit: 100, view: 'table' } }),
    select: (d) => d.concentration,
  });
}
export function useVendorImpact(workspaceId: string) {
  return useQuery({
    queryKey: ['concentration', 'vendor', workspaceId],
    enabled: !!workspaceId,
    queryFn: () => get<ApiData<'getVendorConcentrationImpact'>>(`/concentration/vendors/${encodeURIComponent(workspaceId)}`),
    select: (d) => d.impact,
  });
}

export const pct = (x: number) => `${Math.round(x * 100)}%`;
