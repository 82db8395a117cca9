import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';

/** An issue of the pre-flight (docs/register-of-information.md): what to do, and the EBA rule and cell behind it. */
export interface PreflightIssue {
  severity: 'error' | 'warning';
  check: 'rule' | 'key' | 'unique' | 'reference' | 'register';
  /** Active EBA rule ids behind the issue (`v8881_m`). */
  rules: string[];
  template: string | null;
  column: string | null;
  /** Where to fix it: `entity.<key>`, `function:<id>.<field>`, `fxRate:<CUR>`, `vendorProfile.<path>`, `contracts`. */
  field: string;
  message: string;
}
export interface EntitySetting {
  key: string;
  label: string;
  value: string | number | null;
  source: 'stored' | 'organization' | 'environment' | 'default' | 'unset';
  variable: string;
}
export interface Preflight {
  ready: boolean;
  errors: number;
  warnings: number;
  entity: PreflightIssue[];
  functions: { id: string; code: string; name: string; issues: PreflightIssue[] }[];
  vendors: { workspaceId: string; workspaceSlug: string; name: string; included: boolean; issues: PreflightIssue[] }[];
  package: { vendors: number; contracts: number; functions: number; subcontractors: number; rows: Record<string, number> };
  rules: { title: string; ebaVersion: string; repository: string; commit: string; url: string; total: number; active: number };
  settings: EntitySetting[];
}
export interface EntityView {
  settings: EntitySetting[];
  canEdit: boolean;
  updatedAt: string | null;
}
export interface BusinessFunction {
  id: string;
  code: string;
  name: string;
  licensedActivity: string;
  criticality: 'yes' | 'no' | 'not_assessed';
  reasons: string | null;
  lastAssessmentDate: string;
  rtoHours: number;
  rpoHours: number;
  impact: 'low' | 'medium' | 'high' | 'not_assessed';
  contracts: { workspaceId: string; vendor: string; contractId: string | null; reference: string }[];
}
export interface FxRate {
  baseCurrency: string;
  currency: string;
  date: string;
  rate: number;
  updatedAt: string;
}
export interface AuditEntry {
  id: string;
  kind: 'entity' | 'function' | 'fx_rate';
  subject: string;
  field: string;
  oldValue: string | null;
  newValue: string | null;
  changedBy: { id: string; name: string } | null;
  changedAt: string;
}
export type Option = { value: string; label: string };
export interface CodeLists {
  entityTypes: Option[];
  licensedActivities: Option[];
  terminationReasons: Option[];
  /** Proposed for a new function (the service's ROI_LICENSED_ACTIVITY). */
  defaultLicensedActivity: string | null;
}

export const preflightKey = ['roi-preflight'] as const;
export const entityKey = ['register', 'entity'] as const;
export const functionsKey = ['register', 'functions'] as const;
export const ratesKey = ['register', 'fx-rates'] as const;
export const auditKey = ['register', 'audit'] as const;

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

export const useEntity = () => useQuery({ queryKey: entityKey, queryFn: async () => (await get<{ entity: EntityView }>('/register/entity')).entity });
export const useFunctions = () =>
  useQuery({
    queryKey: functionsKey,
    queryFn: async () => (await get<{ functions: BusinessFunction[] }>('/register/functions', { query: { limit: 100 } })).functions,
  });
export const useRates = () =>
  useQuery({ queryKey: ratesKey, queryFn: () => get<{ baseCurrency: string; rates: FxRate[] }>('/register/fx-rates', { query: { limit: 100 } }) });
export const useAudit = () =>
  useQuery({ queryKey: auditKey, queryFn: async () => (await get<{ entries: AuditEntry[] }>('/register/audit', { query: { limit: 20 } })).entries });
/** The EBA closed lists, from the service (they never change while the page is open). */
export const useCodeLists = () =>
  useQuery({ queryKey: ['register', 'code-lists'], queryFn: () => get<CodeLists>('/register/code-lists'), staleTime: Infinity });

export const CRITICALITY: Option[] = [
  { value: 'yes', label: 'Critical or important' },
  { value: 'no', label: 'Not critical or important' },
  { value: 'not_assessed', label: 'Assessment not performed' },
];
export const IMPACT: Option[] = [
  { value: 'low', label: 'Low' },
  { value: 'medium', label: 'Medium' },
  { value: 'high', label: 'High' },
  { value: 'not_assessed', label: 'Assessment not performed' },
];
