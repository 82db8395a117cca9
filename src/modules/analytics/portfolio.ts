import { RISK_RATINGS, type RiskRating } from '../../db/schema/assessments.js';
import type { AssessmentsService, LatestAssessment } from '../assessments/service.js';
import type { CompletedQuestionnaire, QuestionnairesService } from '../questionnaires/service.js';
import type { VendorProfile } from '../../domain/vendorProfile.js';
import type { InventoryKpis } from '../workspaces/inventory.js';
import type { WorkspacesService } from '../workspaces/service.js';
import type { WorkspaceListItem } from '../workspaces/views.js';
import { pageOf, type PageRequest, type Pagination } from '../../domain/paging.js';

type Deps = {
  workspaces: Pick<WorkspacesService, 'list' | 'getMany' | 'inventoryKpis'>;
  /** Substitutability and exit across the portfolio (docs/concentration.md), counted beside the inventory's KPIs. */
  exits?: (userId: string) => Promise<PortfolioExits>;
  assessments: Pick<AssessmentsService, 'latestCompleteMany'>;
  questionnaires: Pick<QuestionnairesService, 'latestCompleteMany'>;
};

/**
 * The vendor portfolio of the caller (docs/analytics.md, "GET /analytics/portfolio"): every
 * workspace they can access with its tier, the latest completed assessment (score, risk
 * rating) and the latest complete questionnaire score, and counts by risk rating.
 * Four queries whatever the number of vendors.
 */
/** Orders of the portfolio: as GET /workspaces (oldest first), by name, by risk (critical first, not assessed last), by next review date. */
export const PORTFOLIO_SORTS = ['createdAt', 'name', 'riskRating', 'nextReviewDate'] as const;
export type PortfolioSort = (typeof PORTFOLIO_SORTS)[number];

/** A vendor of the portfolio: its tier, latest completed assessment and latest complete questionnaire. */
function vendorView(w: WorkspaceListItem, p: VendorProfile, a: LatestAssessment | undefined, q: CompletedQuestionnaire | undefined) {
  return {
    workspaceId: w.id,
    workspaceSlug: w.workspaceId,
    name: w.workspaceName,
    criticalityTier: p.criticalityTier ?? null,
    supportsCriticalFunction: p.supportsCriticalFunction ?? null,
    nextReviewDate: p.nextReviewDate ?? null,
    assessment:
      a && a.completedAt
        ? {
            id: a.id,
            name: a.name,
            score: a.score,
            riskRating: a.riskRating,
            completedAt: a.completedAt.toISOString(),
            covered: a.summary?.covered ?? null,
            partial: a.summary?.partial ?? null,
            missing: a.summary?.missing ?? null,
          }
        : null,
    questionnaire: q ? { id: q.id, title: q.title, score: q.score, completedAt: q.completedAt.toISOString() } : null,
  };
}
export type PortfolioVendor = ReturnType<typeof vendorView>;

/** The exit figures of the concentration page (Article 28(8)), counted for the KPIs. */
export interface PortfolioExits {
  criticalFunctionsWithoutAlternative: number;
  criticalVendorsWithoutTestedExit: number;
  concentratedAlternatives: number;
}

/** The caller's vendor portfolio. */
export interface PortfolioService {
  /**
   * The portfolio KPIs (docs/inventory.md, "KPIs"), each with the inventory query that lists the
   * vendors it counts, and the exit figures of the concentration page (docs/concentration.md).
   */
  kpis(userId: string): Promise<InventoryKpis & { exits: PortfolioExits | null }>;
  /** One page of the portfolio; `byRisk` counts every vendor, not only the page. */
  portfolio(
    userId: string,
    q?: PageRequest & { sort: PortfolioSort; descending: boolean },
  ): Promise<{ vendors: PortfolioVendor[]; byRisk: Record<RiskRating | 'notAssessed', number>; pagination: Pagination }>;
}

export function portfolioService(deps: Deps): PortfolioService {
  return {
    async kpis(userId) {
      const [kpis, exits] = await Promise.all([deps.workspaces.inventoryKpis(userId), deps.exits ? deps.exits(userId) : null]);
      return { ...kpis, exits };
    },

    async portfolio(userId, q = { page: 1, limit: 100, sort: 'createdAt', descending: false }) {
      const list = await deps.workspaces.list(userId);
      const ids = list.map((w) => w.id);
      const [profiles, assessments, questionnaires] = await Promise.all([
        deps.workspaces.getMany(ids).then((ws) => new Map(ws.map((w) => [w.id, w.vendorProfile as VendorProfile]))),
        deps.assessments.latestCompleteMany(ids),
        deps.questionnaires.latestCompleteMany(ids),
      ]);
      const vendors = list.map((w) => vendorView(w, profiles.get(w.id) ?? {}, assessments.get(w.id), questionnaires.get(w.id)));
      const byRisk = Object.fromEntries([...RISK_RATINGS, 'notAssessed'].map((r) => [r, 0])) as Record<RiskRating | 'notAssessed', number>;
      for (const v of vendors) byRisk[v.assessment?.riskRating ?? 'notAssessed'] += 1;
      const riskRank = (v: PortfolioVendor) =>
        v.assessment ? RISK_RATINGS.length - RISK_RATINGS.indexOf(v.assessment.riskRating as RiskRating) : RISK_RATINGS.length + 1;
      const cmp: Record<PortfolioSort, (a: PortfolioVendor, b: PortfolioVendor) => number> = {
        createdAt: () => 0,
        name: (a, b) => a.name.localeCompare(b.name),
        riskRating: (a, b) => riskRank(a) - riskRank(b),
        nextReviewDate: (a, b) => (a.nextReviewDate ?? '9999').localeCompare(b.nextReviewDate ?? '9999'),
      };
      const sorted = vendors
        .map((v, i) => ({ v, i }))
        .sort((a, b) => (q.descending ? -1 : 1) * (cmp[q.sort](a.v, b.v) || a.i - b.i))
        .map((x) => x.v);
      const { items, pagination } = pageOf(sorted, q);
      return { vendors: items, byRisk, pagination };
    },
  };
}
