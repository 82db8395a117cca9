import { useQuery, useQueryClient } from '@tanstack/react-query';
import { get } from '../api/client';
import type { ApiData, DataSource } from '../api/types';
import { useStreamEvent } from '../notifications/stream';
import { vendorKey, vendorsKey } from './api';

export const dataSourcesKey = (ws: string) => ['data-sources', ws] as const;
export const PAGE_SIZE = 50;

/** A vendor's data sources, newest first, one page at a time. */
export function useDataSources(ws: string, page: number) {
  return useQuery({
    queryKey: [...dataSourcesKey(ws), page],
    queryFn: () => get<ApiData<'listDataSources'>>('/data-sources', { workspace: ws, query: { page, limit: PAGE_SIZE, sort: '-createdAt' } }),
    placeholderData: (prev) => prev,
  });
}

/**
 * Live status of the vendor's data sources from the notifications stream (`data-source:status`,
 * docs/notifications.md): each event is merged into the cached list (newest `updatedAt` wins);
 * a new, finished or deleted source re-reads the list (files, documents) and the vendor counts.
 * After a reconnect the list is re-read, since events are not replayed.
 */
export function useLiveDataSources(workspaceId: string, slug: string) {
  const qc = useQueryClient();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: dataSourcesKey(slug) });
    void qc.invalidateQueries({ queryKey: vendorKey(slug) });
    void qc.invalidateQueries({ queryKey: vendorsKey });
  };
  useStreamEvent('data-source:status', (e) => {
    if (e.workspaceId !== workspaceId) return;
    let known = false;
    qc.setQueriesData<ApiData<'listDataSources'>>({ queryKey: dataSourcesKey(slug) }, (old) => {
      if (!old) return old;
      return {
        ...old,
        dataSources: old.dataSources.map((d) => {
          if (d.id !== e.id) return d;
          known = true;
          if (String(e.updatedAt ?? '') < d.updatedAt || e.status === 'deleted') return d;
          return { ...d, ...(e as Partial<DataSource>), files: d.files };
        }),
      };
    });
    if (!known || e.status === 'ready' || e.status === 'failed' || e.status === 'deleted') refresh();
  });
  useStreamEvent('stream:reconnecting', refresh);
}
