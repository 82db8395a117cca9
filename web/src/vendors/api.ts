import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';
import type { ApiData } from '../api/types';

export const vendorsKey = ['workspaces'] as const;
export const vendorKey = (idOrSlug: string) => ['workspace', idOrSlug] as const;

export const VENDORS_PAGE = 50;

/**
 * One page of the vendor inventory: `params` are GET /workspaces's query as the page's URL
 * holds it (search, filters, sort, page; docs/inventory.md), passed through unchanged.
 */
export function useInventory(params: URLSearchParams) {
  const q = new URLSearchParams(params);
  if (!q.has('sort')) q.set('sort', 'workspaceName');
  if (!q.has('limit')) q.set('limit', String(VENDORS_PAGE));
  q.sort();
  const qs = q.toString();
  return useQuery({
    queryKey: [...vendorsKey, 'inventory', qs],
    queryFn: () => get<ApiData<'listWorkspaces'>>(`/workspaces?${qs}`),
    placeholderData: (prev) => prev,
  });
}

/** One vendor workspace by id or slug (the `workspaceId` the URLs use). */
export function useVendor(idOrSlug: string) {
  return useQuery({
    queryKey: vendorKey(idOrSlug),
    queryFn: async () => (await get<ApiData<'getWorkspace'>>(`/workspaces/${encodeURIComponent(idOrSlug)}`)).workspace,
  });
}
