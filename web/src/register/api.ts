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

/** GET /workspaces/roi-preflight (docs/register-of-information.md). */
export function usePreflight() {
  return useQuery({ queryKey: preflightKey, queryFn: async () => (await get<{ preflight: Preflight }>('/workspaces/roi-preflight')).preflight });
}
