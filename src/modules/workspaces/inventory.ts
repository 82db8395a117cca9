import { kpiQuery, PORTFOLIO_KPIS, type KpiFilters, type KpiKey } from '../../domain/inventory.js';
import { offsetOf, pagination, type PageRequest } from '../../domain/paging.js';
import { today } from '../../domain/vendorProfile.js';
import { onboardingRequired } from '../organizations/service.js';
import { effectiveAccess } from './access.js';
import type { InventoryFilters, WorkspaceSortField, WorkspacesRepository } from './repository.js';
import { listItemView, type WorkspaceListItem } from './views.js';

/** The vendor inventory (docs/inventory.md): the workspaces a caller can access, paged, filtered and sorted in SQL, and the portfolio KPIs. */

export interface InventoryKpis {
  asOf: string;
  vendors: number;
  questionnairesOutstanding: number;
  questionnairesOverdue: number;
  kpis: { key: KpiKey; label: string; value: number; query: string }[];
}

export type InventoryPageRequest = PageRequest & { sort: WorkspaceSortField; descending: boolean; filters?: Omit<InventoryFilters, 'today'> };

export function workspaceInventory(repo: Pick<WorkspacesRepository, 'accessiblePage' | 'inventoryCounts'>) {
  /**
   * List items (role, permissions, member count, sync status) of the workspaces the caller
   * can access: one statement for the organization, the page, the caller's memberships,
   * the member counts, the sync counts kept per workspace (`workspace_sync_counts`) and the total.
   */
  async function accessible(
    userId: string,
    q: { offset: number; limit: number | null; sort: WorkspaceSortField; descending: boolean; filters?: InventoryFilters },
  ): Promise<{ workspaces: WorkspaceListItem[]; total: number }> {
    const found = await repo.accessiblePage(userId, q);
    if (!found) throw onboardingRequired();
    const workspaces = found.rows.flatMap((row) => {
      const eff = effectiveAccess(row.workspace, userId, found.orgRole, row.member);
      return eff ? [listItemView(row, eff)] : [];
    });
    return { workspaces, total: found.total };
  }

  return {
    async list(userId: string): Promise<WorkspaceListItem[]> {
      return (await accessible(userId, { offset: 0, limit: null, sort: 'createdAt', descending: false })).workspaces;
    },

    async page(userId: string, q: InventoryPageRequest) {
      const filters = q.filters ? { ...q.filters, today: today() } : undefined;
      const { workspaces, total } = await accessible(userId, { offset: offsetOf(q), limit: q.limit, sort: q.sort, descending: q.descending, filters });
      return { workspaces, pagination: pagination(q, total) };
    },

    async inventoryKpis(userId: string): Promise<InventoryKpis> {
      const asOf = today();
      const sets = Object.fromEntries(PORTFOLIO_KPIS.map((k) => [k.key, k.filters])) as Record<KpiKey, KpiFilters>;
      const found = await repo.inventoryCounts(userId, asOf, sets);
      if (!found) throw onboardingRequired();
      return {
        asOf,
        vendors: found.vendors,
        questionnairesOutstanding: found.questionnairesOutstanding,
        questionnairesOverdue: found.questionnairesOverdue,
        kpis: PORTFOLIO_KPIS.map((k) => ({ key: k.key, label: k.label, value: found.counts[k.key], query: kpiQuery(k.filters) })),
      };
    },
  };
}
