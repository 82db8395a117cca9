import { useQuery } from '@tanstack/react-query';
import { get } from '../api/client';
import type { PageInfo, Workspace, WorkspaceListItem } from '../api/types';

export const vendorsKey = ['workspaces'] as const;
export const vendorKey = (idOrSlug: string) => ['workspace', idOrSlug] as const;

export const VENDORS_PAGE = 50;

/** One page of the vendor workspaces the caller can access, by name. */
export function useVendors(page = 1) {
  return useQuery({
    queryKey: [...vendorsKey, page],
    queryFn: () =>
      get<{ workspaces: WorkspaceListItem[]; pagination: PageInfo }>('/workspaces', { query: { page, limit: VENDORS_PAGE, sort: 'workspaceName' } }),
    placeholderData: (prev) => prev,
  });
}

/** One vendor workspace by id or slug (the `workspaceId` the URLs use). */
export function useVendor(idOrSlug: string) {
  return useQuery({
    queryKey: vendorKey(idOrSlug),
    queryFn: async () => (await get<{ workspace: Workspace }>(`/workspaces/${encodeURIComponent(idOrSlug)}`)).workspace,
  });
}
