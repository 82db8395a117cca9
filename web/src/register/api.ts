import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';

export interface PreflightIssue {
  severity: 'error' | 'warning';
  template: string | null;
  column: string | null;
  /** What to fix: an ROI_* setting, a vendorProfile path, `assessments`, `key`, `reference`. */
  field: string;
  message: string;
}
export interface Preflight {
  ready: boolean;
  errors: number;
  warnings: number;
  entity: PreflightIssue[];
  vendors: { workspaceId: string; workspaceSlug: string; name: string; included: boolean; issues: PreflightIssue[] }[];
  settings: { variable: string; label: string; value: string | null; isDefault: boolean }[];
}

export const preflightKey = ['roi-preflight'] as const;

/**
 * GET /workspaces/roi-preflight (docs/register-of-information.md), checked again each time the page opens:
 * a profile saved elsewhere changes the to-do list, and a list that reorders under the pointer sends a
 * click to the wrong item. `current` is false until this visit's check has answered.
 */
export function usePreflight() {
  const q = useQuery({
    queryKey: preflightKey,
    queryFn: async () => (await get<{ preflight: Preflight }>('/workspaces/roi-preflight')).preflight,
    refetchOnMount: 'always',
  });
  return Object.assign(q, { current: q.isFetchedAfterMount || (q.isSuccess && !q.isFetching) });
}
