import type { FieldSource } from '../../domain/profileDrafts.js';
import { and, asc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { queryRows, type Db } from '../../db/client.js';
import type { Scope } from '../../domain/scope.js';
import type { CRITICALITY_TIERS } from '../../domain/vendorProfile.js';
import { contractEndOf } from '../../domain/inventory.js';
import { organizationMembers, type OrgRole } from '../../db/schema/organizations.js';
import { workspaceMembers, workspaces, type Permissions, type SyncSchedule, type WorkspaceRole } from '../../db/schema/workspaces.js';
import { workspaceSyncCounts } from '../../db/schema/workspaceSyncCounts.js';
import { assessments, type RiskRating } from '../../db/schema/assessments.js';
import { questionnaires } from '../../db/schema/questionnaires.js';
import { users } from '../../db/schema/users.js';
import { documentMetadata, documents } from '../../db/schema/documents.js';
import { addDays, DEFAULT_REVIEW_CYCLE_MONTHS, REVIEW_CYCLE_MONTHS, type LifecycleStatus } from '../../domain/inventory.js';

const tierRank = sql`CASE ${workspaces.criticalityTier} WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 END`;
/** The latest completed assessment of the row's workspace (index assessments_latest_complete_idx). */
const latestAssessment = (col: SQL) =>
  sql`(SELECT ${col} FROM ${assessments} la WHERE la.workspace_id = ${workspaces.id} AND la.status = 'completed' ORDER BY la.completed_at DESC NULLS LAST LIMIT 1)`;
const riskRank = latestAssessment(sql`CASE la.risk_rating WHEN 'critical' THEN 4 WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 END`);
/** Questionnaires sent and not yet complete (index questionnaires_outstanding_idx). */
const OUTSTANDING = sql.raw(`oq.status IN ('sent', 'in_progress', 'submitted')`);
const outstandingCount = sql`(SELECT count(*) FROM ${questionnaires} oq WHERE oq.workspace_id = ${workspaces.id} AND ${OUTSTANDING})::int`;
const ownerName = sql`(SELECT vo.name FROM ${users} vo WHERE vo.id = ${workspaces.vendorOwnerId})`;

/**
 * Orders of `GET /workspaces` (docs/inventory.md, "Sorts"): one per inventory column. Tier and
 * risk sort by rank (low < medium < high < critical, so `-criticalityTier` puts critical first);
 * a vendor without the value comes last in both directions.
 */
export const WORKSPACE_SORT_COLUMNS = {
  workspaceName: sql`lower(${workspaces.name})`,
  createdAt: sql`${workspaces.createdAt}`,
  criticalityTier: tierRank,
  riskRating: riskRank,
  assessmentScore: latestAssessment(sql`la.score`),
  assessedAt: latestAssessment(sql`la.completed_at`),
  contractEnd: sql`${workspaces.contractEnd}`,
  nextReviewDate: sql`${workspaces.nextReviewDate}`,
  outstandingQuestionnaires: outstandingCount,
  lifecycle: sql`CASE ${workspaces.lifecycle} WHEN 'onboarding' THEN 1 WHEN 'active' THEN 2 WHEN 'exiting' THEN 3 WHEN 'exited' THEN 4 END`,
  vendorOwner: sql`lower(${ownerName})`,
} as const;
export type WorkspaceSortField = keyof typeof WORKSPACE_SORT_COLUMNS;

/** Filters of `GET /workspaces` (docs/inventory.md, "Filters"); every one optional, all of them combined with AND. */
export interface InventoryFilters {
  /** Part of the vendor's name, any case. */
  q?: string;
  tier?: (typeof CRITICALITY_TIERS)[number][];
  /** Risk rating of the latest completed assessment. */
  risk?: RiskRating[];
  lifecycle?: LifecycleStatus[];
  /** Vendor owner's user id. */
  vendorOwnerId?: string;
  /** Next review on or before today + N days (overdue ones included). */
  dueWithinDays?: number;
  /** Next review before today. */
  overdue?: boolean;
  /** A contract ending between today and today + N days. */
  contractEndWithinDays?: number;
  /** `missing`: no exit plan (exitPlan.exists is not true). */
  exitPlan?: 'missing';
  /** `missing`: no assessment signed off within the vendor's last review cycle. */
  signedOff?: 'missing';
  /** `outstanding`: a questionnaire sent and not complete; `overdue`: one past its due date. */
  questionnaires?: 'outstanding' | 'overdue';
  /** `expired`: a live document past its expiry date (document metadata). */
  documents?: 'expired';
  /** Today (YYYY-MM-DD) for the date filters. */
  today: string;
}
export const hasInventoryFilters = (f: Omit<InventoryFilters, 'today'>) =>
  Object.entries(f).some(([k, v]) => k !== 'today' && v !== undefined && !(Array.isArray(v) && v.length === 0));

/** `%` and `_` in a search term are matched literally. */
const likeTerm = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function inventoryConditions(f: InventoryFilters): SQL[] {
  const out: SQL[] = [];
  if (f.q?.trim()) out.push(ilike(workspaces.name, likeTerm(f.q.trim())));
  if (f.tier?.length) out.push(inArray(workspaces.criticalityTier, f.tier));
  if (f.lifecycle?.length) out.push(inArray(workspaces.lifecycle, f.lifecycle));
  if (f.risk?.length)
    out.push(
      sql`${latestAssessment(sql`la.risk_rating`)} IN (${sql.join(
        f.risk.map((r) => sql`${r}`),
        sql`, `,
      )})`,
    );
  if (f.vendorOwnerId) out.push(eq(workspaces.vendorOwnerId, f.vendorOwnerId));
  if (f.dueWithinDays !== undefined) out.push(sql`${workspaces.nextReviewDate} <= ${addDays(f.today, f.dueWithinDays)}`);
  if (f.overdue === true) out.push(sql`${workspaces.nextReviewDate} < ${f.today}`);
  if (f.overdue === false) out.push(sql`(${workspaces.nextReviewDate} IS NULL OR ${workspaces.nextReviewDate} >= ${f.today})`);
  if (f.contractEndWithinDays !== undefined)
    out.push(sql`${workspaces.contractEnd} >= ${f.today} AND ${workspaces.contractEnd} <= ${addDays(f.today, f.contractEndWithinDays)}`);
  if (f.exitPlan === 'missing') out.push(sql`(${workspaces.vendorProfile}->'exitPlan'->>'exists') IS DISTINCT FROM 'true'`);
  if (f.signedOff === 'missing') {
    const months = sql.raw(
      `CASE "workspaces"."criticality_tier" ${Object.entries(REVIEW_CYCLE_MONTHS)
        .map(([t, m]) => `WHEN '${t}' THEN ${m}`)
        .join(' ')} ELSE ${DEFAULT_REVIEW_CYCLE_MONTHS} END`,
    );
    out.push(
      sql`NOT EXISTS (SELECT 1 FROM ${assessments} so WHERE so.workspace_id = ${workspaces.id} AND so.signed_off_at IS NOT NULL
        AND so.signed_off_at >= ${f.today}::date - make_interval(months => ${months}))`,
    );
  }
  if (f.questionnaires === 'outstanding')
    out.push(sql`EXISTS (SELECT 1 FROM ${questionnaires} oq WHERE oq.workspace_id = ${workspaces.id} AND ${OUTSTANDING})`);
  if (f.questionnaires === 'overdue')
    out.push(sql`EXISTS (SELECT 1 FROM ${questionnaires} oq WHERE oq.workspace_id = ${workspaces.id} AND ${OUTSTANDING} AND oq.due_date < ${f.today}::date)`);
  if (f.documents === 'expired')
    out.push(
      sql`EXISTS (SELECT 1 FROM ${documentMetadata} dm JOIN ${documents} d ON d.id = dm.document_id AND d.deleted_at IS NULL
        WHERE dm.workspace_id = ${workspaces.id} AND dm.expiry_date < ${f.today})`,
    );
  return out;
}

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type WorkspaceMemberRow = typeof workspaceMembers.$inferSelect;
/** A row of the workspace list: the columns it shows, the caller's explicit membership, the member count. */
export interface AccessibleWorkspace {
  workspace: Pick<
    WorkspaceRow,
    'id' | 'slug' | 'name' | 'ownerId' | 'syncSchedule' | 'createdAt' | 'vendorOwnerId' | 'lifecycle' | 'criticalityTier' | 'nextReviewDate' | 'contractEnd'
  >;
  /** The inventory's columns derived from other tables (docs/inventory.md). */
  inventory: InventoryColumns;
  member: Pick<WorkspaceMemberRow, 'role' | 'permissions' | 'status'> | null;
  memberCount: number;
  /**
   * Sources of the workspace with a sync under way, those whose last sync failed, the live
   * indexed documents and the newest successful sync (data sources and MCP sources), as kept
   * in `workspace_sync_counts` by the source tables' triggers (migration 0013).
   */
  sync: { syncing: number; failed: number; documents: number; lastSyncedAt: Date | string | null };
}
export interface InventoryColumns {
  vendorOwnerName: string | null;
  supportsCriticalFunction: boolean | null;
  exitPlan: boolean;
  /** Latest completed assessment: score, risk rating, when it completed and when it was signed off. */
  latestAssessment: { id: string; score: number | null; riskRating: RiskRating | null; completedAt: string | null; signedOffAt: string | null } | null;
  lastSignedOffAt: string | null;
  outstandingQuestionnaires: number;
  overdueQuestionnaires: number;
}
/** The constraint a unique violation hit (postgres-js: constraint_name, PGlite: constraint), else null. */
function uniqueViolation(err: unknown): string | null {
  for (let e = err as Record<string, unknown> | undefined, i = 0; e && i < 4; e = e.cause as Record<string, unknown> | undefined, i++) {
    if (String(e.code) === '23505') return String(e.constraint_name ?? e.constraint ?? 'unknown');
  }
  return null;
}
const conflictOf = (err: unknown): 'slug_taken' | 'name_taken' | null => {
  const c = uniqueViolation(err);
  if (!c) return null;
  return c.includes('name') ? 'name_taken' : 'slug_taken';
};

/** `X-Workspace-Id` / `:id` may hold the opaque id or the slug (column `workspace_id`). */
const byKey = (key: string) => or(eq(workspaces.id, key), eq(workspaces.slug, key));

export interface AccessRow {
  workspace: WorkspaceRow;
  orgRole: OrgRole | null;
  member: { role: WorkspaceRole; permissions: Permissions; status: string } | null;
}

/**
 * All SQL of vendor workspaces and their memberships. Access resolution reads the
 * caller's organization membership in the same query (one tenancy domain).
 */
export function workspacesRepository(db: Db) {
  /** The workspace plugin resolves the caller's access on every workspace-scoped request: built once, prepared per connection. */
  const accessRowQuery = db
    .select({
      workspace: workspaces,
      orgRole: organizationMembers.role,
      memberRole: workspaceMembers.role,
      memberPermissions: workspaceMembers.permissions,
      memberStatus: workspaceMembers.status,
    })
    .from(workspaces)
    .leftJoin(organizationMembers, and(eq(organizationMembers.orgId, workspaces.orgId), eq(organizationMembers.userId, sql.placeholder('userId'))))
    .leftJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, sql.placeholder('userId'))))
    .where(or(eq(workspaces.id, sql.placeholder('key')), eq(workspaces.slug, sql.placeholder('key'))))
    .limit(1)
    .prepare('workspaces_access_row');

  /**
   * GET /workspaces (see accessiblePage): one prepared statement per order, built on first use.
   */
  const om = alias(organizationMembers, 'om');
  const pageQueries = new Map<string, ReturnType<ReturnType<typeof buildPageQuery>['prepare']>>();
  function buildPageQuery(sort: WorkspaceSortField, descending: boolean, filters?: InventoryFilters) {
    const col = WORKSPACE_SORT_COLUMNS[sort];
    const today = filters?.today ?? sql`to_char(current_date, 'YYYY-MM-DD')`;
    const c = workspaceSyncCounts;
    return db
      .select({
        orgId: om.orgId,
        orgRole: om.role,
        workspace: {
          id: workspaces.id,
          slug: workspaces.slug,
          name: workspaces.name,
          ownerId: workspaces.ownerId,
          syncSchedule: workspaces.syncSchedule,
          createdAt: workspaces.createdAt,
          vendorOwnerId: workspaces.vendorOwnerId,
          lifecycle: workspaces.lifecycle,
          criticalityTier: workspaces.criticalityTier,
          nextReviewDate: workspaces.nextReviewDate,
          contractEnd: workspaces.contractEnd,
        },
        vendorOwnerName: sql<string | null>`${ownerName}`,
        supportsCriticalFunction: sql<boolean | null>`(${workspaces.vendorProfile}->>'supportsCriticalFunction')::boolean`,
        exitPlan: sql<boolean>`coalesce((${workspaces.vendorProfile}->'exitPlan'->>'exists') = 'true', false)`,
        latestAssessment: sql<InventoryColumns['latestAssessment']>`${latestAssessment(
          sql`json_build_object('id', la.id, 'score', la.score, 'riskRating', la.risk_rating, 'completedAt', la.completed_at, 'signedOffAt', la.signed_off_at)`,
        )}`,
        lastSignedOffAt: sql<
          string | null
        >`(SELECT max(so.signed_off_at) FROM ${assessments} so WHERE so.workspace_id = ${workspaces.id} AND so.signed_off_at IS NOT NULL)`,
        outstanding: sql<number>`${outstandingCount}`,
        overdue: sql<number>`(SELECT count(*) FROM ${questionnaires} oq WHERE oq.workspace_id = ${workspaces.id} AND ${OUTSTANDING} AND oq.due_date < (${today})::date)::int`,
        memberRole: workspaceMembers.role,
        memberPermissions: workspaceMembers.permissions,
        memberStatus: workspaceMembers.status,
        total: sql<number>`count(${workspaces.id}) OVER ()`,
        orgSize: sql<number>`(SELECT count(*) FROM ${organizationMembers} WHERE ${organizationMembers.orgId} = ${om.orgId})::int`,
        syncing: sql<number>`coalesce(${c.dsSyncing} + ${c.mcpSyncing}, 0)`,
        failed: sql<number>`coalesce(${c.dsFailed} + ${c.mcpFailed}, 0)`,
        documents: sql<number>`coalesce(${c.documents}, 0)`,
        lastSyncedAt: sql<Date | string | null>`GREATEST(${c.dsLastSyncedAt}, ${c.mcpLastSyncedAt})`,
        withdrawn: sql<number>`(SELECT count(*) FROM ${workspaceMembers} gone JOIN ${organizationMembers} other ON other.org_id = ${workspaces.orgId} AND other.user_id = gone.user_id
          WHERE gone.workspace_id = ${workspaces.id} AND gone.status <> 'active' AND other.role <> 'org_admin' AND gone.user_id <> ${workspaces.ownerId})::int`,
      })
      .from(om)
      .leftJoin(workspaces, eq(workspaces.orgId, om.orgId))
      .leftJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, workspaces.id), eq(workspaceMembers.userId, om.userId)))
      .leftJoin(c, eq(c.workspaceId, workspaces.id))
      .where(
        and(
          eq(om.userId, sql.placeholder('userId')),
          or(
            isNull(workspaces.id),
            eq(om.role, 'org_admin'),
            eq(workspaces.ownerId, om.userId),
            isNull(workspaceMembers.status),
            eq(workspaceMembers.status, 'active'),
          ),
          ...(filters ? inventoryConditions(filters) : []),
        ),
      )
      .orderBy(sql`${col} ${sql.raw(descending ? 'DESC' : 'ASC')} NULLS LAST`, sql`${workspaces.createdAt} ASC`, sql`${workspaces.id} ASC`)
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'));
  }

  return {
    /**
     * Portfolio KPIs (docs/inventory.md, "KPIs"): for each named filter set, how many of the
     * workspaces the caller can access match it (the same conditions as the list's filters, so
     * a KPI's link opens exactly the vendors it counts), with the outstanding and overdue
     * questionnaires of those workspaces; one statement. null when the caller has no organization.
     */
    async inventoryCounts<K extends string>(
      userId: string,
      today: string,
      sets: Record<K, Omit<InventoryFilters, 'today'>>,
    ): Promise<{ counts: Record<K, number>; vendors: number; questionnairesOutstanding: number; questionnairesOverdue: number } | null> {
      const keys = Object.keys(sets) as K[];
      const perSet = keys.map((k, i) => {
        const cond = and(...inventoryConditions({ ...sets[k], today }));
        return sql`count(*) FILTER (WHERE ${cond ?? sql`true`})::int AS ${sql.identifier(`k${i}`)}`;
      });
      const [row = {}] = await queryRows<Record<string, unknown>>(
        db,
        sql`
        SELECT count(${workspaces.id})::int AS vendors,
          coalesce(sum(${outstandingCount}), 0)::int AS outstanding,
          coalesce(sum((SELECT count(*) FROM ${questionnaires} oq WHERE oq.workspace_id = ${workspaces.id} AND ${OUTSTANDING} AND oq.due_date < ${today}::date)), 0)::int AS overdue,
          ${sql.join(perSet, sql`, `)}
        FROM ${organizationMembers} om
        JOIN ${workspaces} ON ${workspaces.orgId} = om.org_id
        LEFT JOIN ${workspaceMembers} ON ${workspaceMembers.workspaceId} = ${workspaces.id} AND ${workspaceMembers.userId} = om.user_id
        WHERE om.user_id = ${userId}
          AND (om.role = 'org_admin' OR ${workspaces.ownerId} = om.user_id OR ${workspaceMembers.status} IS NULL OR ${workspaceMembers.status} = 'active')`,
      );
      const [org] = await db.select({ id: organizationMembers.orgId }).from(organizationMembers).where(eq(organizationMembers.userId, userId));
      if (!org) return null;
      return {
        counts: Object.fromEntries(keys.map((k, i) => [k, Number(row[`k${i}`] ?? 0)])) as Record<K, number>,
        vendors: Number(row.vendors ?? 0),
        questionnairesOutstanding: Number(row.outstanding ?? 0),
        questionnairesOverdue: Number(row.overdue ?? 0),
      };
    },
    /** Creates the workspace and the owner's membership; 'slug_taken' when `workspace_id` exists. */
    async insertWithOwner(values: {
      orgId: string;
      ownerId: string;
      name: string;
      slug: string;
      syncSchedule: SyncSchedule;
      vendorProfile: Record<string, unknown>;
      lifecycle: LifecycleStatus;
      ownerPermissions: Permissions;
    }): Promise<WorkspaceRow | 'slug_taken' | 'name_taken'> {
      try {
        return await db.transaction(async (tx) => {
          const { ownerPermissions, ...ws } = values;
          const [row] = await tx
            .insert(workspaces)
            .values({ ...ws, contractEnd: contractEndOf(ws.vendorProfile) })
            .returning();
          await tx
            .insert(workspaceMembers)
            .values({ workspaceId: row.id, userId: values.ownerId, role: 'owner', permissions: ownerPermissions, addedBy: values.ownerId });
          return row;
        });
      } catch (err) {
        const c = conflictOf(err);
        if (c) return c;
        throw err;
      }
    },
    async slugExists(slug: string): Promise<boolean> {
      const [row] = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.slug, slug));
      return !!row;
    },
    /** Workspaces whose sync schedule is enabled (read by the sync scheduler, docs/sync-schedule.md). */
    async withScheduleEnabled(): Promise<{ id: string; syncSchedule: SyncSchedule }[]> {
      return db
        .select({ id: workspaces.id, syncSchedule: workspaces.syncSchedule })
        .from(workspaces)
        .where(sql`(${workspaces.syncSchedule}->>'enabled')::boolean IS TRUE`);
    },
    /** Workspaces by opaque id, in one query (register export). */
    async findByIds(ids: string[]): Promise<WorkspaceRow[]> {
      if (!ids.length) return [];
      return db.select().from(workspaces).where(inArray(workspaces.id, ids));
    },
    async findByKey(key: string): Promise<WorkspaceRow | null> {
      const [row] = await db.select().from(workspaces).where(byKey(key)).limit(1);
      return row ?? null;
    },
    /** The workspace with the caller's organization role (in its organization) and explicit membership. */
    async accessRow(key: string, userId: string): Promise<AccessRow | null> {
      const [row] = await accessRowQuery.execute({ key, userId });
      if (!row) return null;
      return {
        workspace: row.workspace,
        orgRole: row.orgRole ?? null,
        member: row.memberRole ? { role: row.memberRole, permissions: row.memberPermissions!, status: row.memberStatus! } : null,
      };
    },
    /**
     * The workspaces of the caller's organization that the caller can access, one page in
     * one statement: the access rule of `effectiveAccess` (owner; else no withdrawn
     * membership, which an org_admin never loses) is the WHERE clause, the total is a
     * window count, and each row carries the caller's explicit membership and the member
     * count (members of the organization minus those whose access was withdrawn: status
     * removed/left, not an org_admin, not the owner). `limit` null: every workspace. null
     * when the caller belongs to no organization.
     */
    async accessiblePage(
      userId: string,
      q: { offset: number; limit: number | null; sort: WorkspaceSortField; descending: boolean; filters?: InventoryFilters },
    ): Promise<{ orgId: string; orgRole: OrgRole; rows: AccessibleWorkspace[]; total: number } | null> {
      const pageQuery = (sort: WorkspaceSortField, descending: boolean) => {
        const key = `${sort}:${descending}`;
        let built = pageQueries.get(key);
        if (!built) pageQueries.set(key, (built = buildPageQuery(sort, descending).prepare(`workspaces_page_${sort}_${descending ? 'desc' : 'asc'}`)));
        return built;
      };
      // Without filters one prepared statement per order; with filters the statement is built for the request.
      const filtered = q.filters && hasInventoryFilters(q.filters) ? q.filters : null;
      const run = (sort: WorkspaceSortField, descending: boolean, params: { limit: number | null; offset: number }) =>
        filtered ? buildPageQuery(sort, descending, filtered).execute({ userId, ...params }) : pageQuery(sort, descending).execute({ userId, ...params });
      const rows = await run(q.sort, q.descending, { limit: q.limit, offset: q.offset });
      if (!rows.length) {
        // No organization, or a page past the end (the total then comes from a count).
        const [org] = await db
          .select({ orgId: organizationMembers.orgId, orgRole: organizationMembers.role })
          .from(organizationMembers)
          .where(eq(organizationMembers.userId, userId));
        if (!org) return null;
        const [n] = await run('createdAt', false, { limit: 1, offset: 0 });
        return { ...org, rows: [], total: n?.workspace ? Number(n.total) : 0 };
      }
      return {
        orgId: rows[0].orgId,
        orgRole: rows[0].orgRole,
        total: rows[0].workspace ? Number(rows[0].total) : 0,
        rows: rows.flatMap((r) =>
          r.workspace
            ? [
                {
                  workspace: r.workspace,
                  member: r.memberRole ? { role: r.memberRole, permissions: r.memberPermissions!, status: r.memberStatus! } : null,
                  memberCount: Number(r.orgSize) - Number(r.withdrawn),
                  inventory: {
                    vendorOwnerName: r.vendorOwnerName ?? null,
                    supportsCriticalFunction: r.supportsCriticalFunction ?? null,
                    exitPlan: r.exitPlan === true,
                    latestAssessment: r.latestAssessment ?? null,
                    lastSignedOffAt: r.lastSignedOffAt ? new Date(r.lastSignedOffAt).toISOString() : null,
                    outstandingQuestionnaires: Number(r.outstanding),
                    overdueQuestionnaires: Number(r.overdue),
                  },
                  sync: { syncing: Number(r.syncing), failed: Number(r.failed), documents: Number(r.documents), lastSyncedAt: r.lastSyncedAt },
                },
              ]
            : [],
        ),
      };
    },
    /** Explicit membership rows (any status) of the given workspaces. */
    async membersOf(workspaceIds: string[]): Promise<WorkspaceMemberRow[]> {
      if (workspaceIds.length === 0) return [];
      return db
        .select()
        .from(workspaceMembers)
        .where(inArray(workspaceMembers.workspaceId, workspaceIds))
        .orderBy(asc(workspaceMembers.joinedAt), asc(workspaceMembers.userId));
    },
    async member(workspaceId: string, userId: string): Promise<WorkspaceMemberRow | null> {
      const [row] = await db
        .select()
        .from(workspaceMembers)
        .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
      return row ?? null;
    },
    /**
     * Updates a workspace in one transaction; `profile` computes the new vendor profile and
     * its field sources from the locked current ones (it may throw to abort with nothing changed).
     * 'name_taken' when another workspace of the organization has that name.
     */
    async update(
      id: string,
      values: Partial<Pick<WorkspaceRow, 'name' | 'syncSchedule' | 'vendorOwnerId' | 'lifecycle'>>,
      profile?: (
        current: Record<string, unknown>,
        sources: Record<string, FieldSource>,
      ) => { profile: Record<string, unknown>; sources: Record<string, FieldSource> },
    ): Promise<WorkspaceRow | null | 'name_taken'> {
      try {
        return await db.transaction(async (tx) => {
          const [cur] = await tx.select().from(workspaces).where(eq(workspaces.id, id)).for('update');
          if (!cur) return null;
          const next = profile ? profile(cur.vendorProfile, cur.fieldSources ?? {}) : undefined;
          const [row] = await tx
            .update(workspaces)
            .set({
              ...values,
              ...(next ? { vendorProfile: next.profile, fieldSources: next.sources, contractEnd: contractEndOf(next.profile) } : {}),
              updatedAt: new Date(),
            })
            .where(eq(workspaces.id, id))
            .returning();
          return row ?? null;
        });
      } catch (err) {
        if (conflictOf(err) === 'name_taken') return 'name_taken' as const;
        throw err;
      }
    },
    /** Workspaces of an organization whose vendor identifier has this value (duplicate vendor check). */
    async withIdentifier(orgId: string, value: string): Promise<{ id: string; name: string }[]> {
      return db
        .select({ id: workspaces.id, name: workspaces.name })
        .from(workspaces)
        .where(and(eq(workspaces.orgId, orgId), sql`${workspaces.vendorProfile}->'identifier'->>'value' = ${value}`));
    },
    /** Every contract in the organization's vendor profiles, with its workspace. */
    async contractsOf(orgId: string): Promise<{ contract: Record<string, unknown>; workspaceId: string; workspaceName: string }[]> {
      const rows = await db
        .select({
          workspaceId: workspaces.id,
          workspaceName: workspaces.name,
          contract: sql<Record<string, unknown>>`jsonb_array_elements(coalesce(${workspaces.vendorProfile}->'contracts', '[]'::jsonb))`,
        })
        .from(workspaces)
        .where(eq(workspaces.orgId, orgId));
      return rows.filter((r) => r.contract && typeof r.contract === 'object');
    },
    /** Deletes the workspace; every table referencing workspaces.id cascades. */
    async delete(id: string): Promise<boolean> {
      const rows = await db.delete(workspaces).where(eq(workspaces.id, id)).returning({ id: workspaces.id });
      return rows.length === 1;
    },
    /**
     * Creates or re-activates an explicit membership. 'exists' when an active one exists
     * (nothing changed).
     */
    async addMember(scope: Scope, member: { userId: string; role: WorkspaceRole; permissions: Permissions }): Promise<WorkspaceMemberRow | 'exists'> {
      const values = { ...member, workspaceId: scope.workspaceId, addedBy: scope.userId };
      return db.transaction(async (tx) => {
        const [cur] = await tx
          .select()
          .from(workspaceMembers)
          .where(and(eq(workspaceMembers.workspaceId, values.workspaceId), eq(workspaceMembers.userId, values.userId)))
          .for('update');
        if (cur?.status === 'active') return 'exists' as const;
        if (cur) {
          const [row] = await tx
            .update(workspaceMembers)
            .set({ role: values.role, permissions: values.permissions, status: 'active', addedBy: values.addedBy, joinedAt: new Date(), updatedAt: new Date() })
            .where(and(eq(workspaceMembers.workspaceId, values.workspaceId), eq(workspaceMembers.userId, values.userId)))
            .returning();
          return row;
        }
        const [row] = await tx
          .insert(workspaceMembers)
          .values({ ...values, status: 'active' })
          .returning();
        return row;
      });
    },
    /** Writes an explicit membership (role + flags), creating the row when the access was implicit. */
    async putMember(scope: Scope, member: { userId: string; role: WorkspaceRole; permissions: Permissions; joinedAt: Date }): Promise<WorkspaceMemberRow> {
      const values = { ...member, workspaceId: scope.workspaceId, addedBy: scope.userId };
      const [row] = await db
        .insert(workspaceMembers)
        .values({ ...values, status: 'active' })
        .onConflictDoUpdate({
          target: [workspaceMembers.workspaceId, workspaceMembers.userId],
          set: { role: values.role, permissions: values.permissions, status: 'active', updatedAt: new Date() },
        })
        .returning();
      return row;
    },
    /**
     * Ends a membership: the row stays with status `removed` or `left` so that access
     * implied by the organization role is withdrawn too.
     */
    async endMembership(
      scope: Scope,
      values: { userId: string; status: 'removed' | 'left'; role: WorkspaceRole; permissions: Permissions; joinedAt: Date },
    ): Promise<void> {
      await db
        .insert(workspaceMembers)
        .values({
          workspaceId: scope.workspaceId,
          userId: values.userId,
          role: values.role,
          permissions: values.permissions,
          status: values.status,
          addedBy: scope.userId,
          joinedAt: values.joinedAt,
        })
        .onConflictDoUpdate({ target: [workspaceMembers.workspaceId, workspaceMembers.userId], set: { status: values.status, updatedAt: new Date() } });
    },
    /**
     * Makes `toUserId` the owner and the caller (the previous owner) an admin, atomically;
     * 'not_owner' when the caller is no longer the owner (nothing changed).
     */
    async transfer(scope: Scope, toUserId: string, perms: { owner: Permissions; admin: Permissions }, toJoinedAt: Date): Promise<'ok' | 'not_owner'> {
      const { workspaceId, userId: fromUserId } = scope;
      return db.transaction(async (tx) => {
        const [ws] = await tx.select().from(workspaces).where(eq(workspaces.id, workspaceId)).for('update');
        if (!ws || ws.ownerId !== fromUserId) return 'not_owner' as const;
        await tx.update(workspaces).set({ ownerId: toUserId, updatedAt: new Date() }).where(eq(workspaces.id, workspaceId));
        await tx
          .update(workspaceMembers)
          .set({ role: 'admin', permissions: perms.admin, status: 'active', updatedAt: new Date() })
          .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, fromUserId)));
        await tx
          .insert(workspaceMembers)
          .values({ workspaceId, userId: toUserId, role: 'owner', permissions: perms.owner, status: 'active', addedBy: fromUserId, joinedAt: toJoinedAt })
          .onConflictDoUpdate({
            target: [workspaceMembers.workspaceId, workspaceMembers.userId],
            set: { role: 'owner', permissions: perms.owner, status: 'active', updatedAt: new Date() },
          });
        return 'ok' as const;
      });
    },
  };
}
export type WorkspacesRepository = ReturnType<typeof workspacesRepository>;
