import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';
import type { PageInfo } from '../api/types';

export interface Usage {
  range: { from: string; to: string };
  scope: 'workspace' | 'user';
  totals: {
    queries: number;
    answered: number;
    unanswered: number;
    failed: number;
    aborted: number;
    users: number;
    avgLatencyMs: number | null;
    p50LatencyMs: number | null;
    p95LatencyMs: number | null;
    avgConfidence: number | null;
    groundedRate: number | null;
  };
  daily: { date: string; queries: number; answered: number; unanswered: number; users: number; avgLatencyMs: number | null; avgConfidence: number | null }[];
}
export interface SourceStat {
  documentId: string;
  title: string;
  url: string;
  retrievedCount: number;
  citedCount: number;
  queryCount: number;
  avgScore: number | null;
}
export interface QueryRecord {
  id: string;
  question: string;
  status: string;
  errorCode: string | null;
  citedCount: number;
  isRelevant: boolean | null;
  user: { name: string } | null;
  createdAt: string;
}
export interface Portfolio {
  vendors: {
    workspaceId: string;
    workspaceSlug: string;
    name: string;
    criticalityTier: string | null;
    supportsCriticalFunction: boolean | null;
    nextReviewDate: string | null;
    assessment: { id: string; score: number | null; riskRating: 'low' | 'medium' | 'high' | 'critical' | null; completedAt: string } | null;
    questionnaire: { id: string; score: number | null } | null;
  }[];
  byRisk: Record<'critical' | 'high' | 'medium' | 'low' | 'notAssessed', number>;
}

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
    queryFn: () => get<{ sources: SourceStat[]; pagination: PageInfo }>('/analytics/sources', { workspace: ws, query: { from, limit: 10 } }),
  });
}
export function useUnanswered(ws: string, from: string) {
  return useQuery({
    queryKey: ['analytics', ws, 'unanswered', from],
    enabled: !!ws,
    queryFn: () => get<{ queries: QueryRecord[]; pagination: PageInfo }>('/analytics/queries', { workspace: ws, query: { from, unanswered: true, limit: 20 } }),
  });
}

/** GET /analytics/kpis: the portfolio KPIs, each with the inventory query of the vendors it counts (docs/inventory.md). */
export interface PortfolioKpis {
  asOf: string;
  vendors: number;
  questionnairesOutstanding: number;
  questionnairesOverdue: number;
  kpis: { key: string; label: string; value: number; query: string }[];
  /** Substitutability and exit (Art. 28(8)), as the concentration page lists them. */
  exits: { criticalFunctionsWithoutAlternative: number; criticalVendorsWithoutTestedExit: number; concentratedAlternatives: number } | null;
}
export function usePortfolioKpis() {
  return useQuery({ queryKey: ['analytics', 'kpis'], queryFn: () => get<PortfolioKpis>('/analytics/kpis') });
}
