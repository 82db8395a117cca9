import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';
import type { ApiData } from '../api/types';

export type Usage = ApiData<'getUsage'>;
export type SourceStat = ApiData<'listSourceUsage'>['sources'][number];
export type QueryRecord = ApiData<'listLoggedQueries'>['queries'][number];
export type Portfolio = ApiData<'getPortfolio'>;

export function usePortfolio() {
  return useQuery({ queryKey: ['analytics', 'portfolio'], queryFn: () => get<Portfolio>('/analytics/portfolio', { query: { limit: 100, sort: 'name' } }) });
}
export function useUsage(ws: string, from: string) {
  return useQuery({
    queryKey: ['analytics', ws, 'usage', from],
    enabled: !!ws,
    queryFn: () => get<Usage>('/analytics/usage', { workspace: ws, query: { from } }),
  });
}
export function useSourceStats(ws: string, from: string) {
  return useQuery({
    queryKey: ['analytics', ws, 'sources', from],
    enabled: !!ws,
    queryFn: () => get<ApiData<'listSourceUsage'>>('/analytics/sources', { workspace: ws, query: { from, limit: 10 } }),
  });
}
export function useUnanswered(ws: string, from: string) {
  return useQuery({
    queryKey: ['analytics', ws, 'unanswered', from],
    enabled: !!ws,
    queryFn: () => get<ApiData<'listLoggedQueries'>>('/analytics/queries', { workspace: ws, query: { from, unanswered: true, limit: 20 } }),
  });
}

/** GET /analytics/kpis: the portfolio KPIs, each with the inventory query of the vendors it counts (docs/inventory.md). */
export type PortfolioKpis = ApiData<'getPortfolioKpis'>;
export function usePortfolioKpis() {
  return useQuery({ queryKey: ['analytics', 'kpis'], queryFn: () => get<PortfolioKpis>('/analytics/kpis') });
}
