import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';
import type { ApiData } from '../api/types';

/** An issue of the pre-flight (docs/register-of-information.md): what to do, and the EBA rule and cell behind it. */
export type Preflight = ApiData<'checkRegisterOfInformation'>['preflight'];
export type PreflightIssue = Preflight['entity'][number];
export type EntityView = ApiData<'getRegisterEntity'>['entity'];
export type EntitySetting = EntityView['settings'][number];
export type BusinessFunction = ApiData<'listBusinessFunctions'>['functions'][number];
export type FxRate = ApiData<'listExchangeRates'>['rates'][number];
export type AuditEntry = ApiData<'listRegisterAudit'>['entries'][number];
export type CodeLists = ApiData<'getRegisterCodeLists'>;
export type Option = CodeLists['entityTypes'][number];

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
    queryFn: async () => (await get<ApiData<'checkRegisterOfInformation'>>('/workspaces/roi-preflight')).preflight,
    refetchOnMount: 'always',
  });
  return Object.assign(q, { current: q.isFetchedAfterMount || (q.isSuccess && !q.isFetching) });
}

export const useEntity = () => useQuery({ queryKey: entityKey, queryFn: async () => (await get<ApiData<'getRegisterEntity'>>('/register/entity')).entity });
export const useFunctions = () =>
  useQuery({
    queryKey: functionsKey,
    queryFn: async () => (await get<ApiData<'listBusinessFunctions'>>('/register/functions', { query: { limit: 100 } })).functions,
  });
export const useRates = () =>
  useQuery({ queryKey: ratesKey, queryFn: () => get<ApiData<'listExchangeRates'>>('/register/fx-rates', { query: { limit: 100 } }) });
export const useAudit = () =>
  useQuery({ queryKey: auditKey, queryFn: async () => (await get<ApiData<'listRegisterAudit'>>('/register/audit', { query: { limit: 20 } })).entries });
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
