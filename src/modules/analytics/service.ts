import { badRequest, forbidden } from '../../lib/errors.js';
import type { WorkspaceRole } from '../../db/schema/workspaces.js';
import { round2 } from '../../rag/text.js';
import type { Scope } from '../../domain/scope.js';
import type { AnalyticsRepository, DailyUsage, LogFilter, NewQueryLog, QueryLogRow, Range, SourceUsage, UsageTotals } from './repository.js';
import { pagination, type Pagination } from '../../domain/paging.js';
import { type BatchStats, batchedAfterResponse } from '../../lib/afterResponse.js';
import { isDatabaseUnavailable } from '../../db/errors.js';

export type QueryLogEntry = Omit<NewQueryLog, 'id' | 'createdAt'>;

/**
 * Query log rows are written together: the rows of up to 200 ms, at most 100 to a statement
 * (docs/analytics.md, "When a question is logged").
 */
export const QUERY_LOG_BATCH = { maxRows: 100, delayMs: 200 } as const;
/** Query-log rows a process holds at most while the database is away (about 2 KB each: 20 MB). */
export const QUERY_LOG_MAX_HELD = 10_000;

export interface RangeQuery {
  from?: string;
  to?: string;
}

export const DEFAULT_RANGE_DAYS = 30;
const DAY = 24 * 3600 * 1000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The shortest date the range takes (`YYYY-MM-DD`). */
const MIN_DATE_LENGTH = 10;

/**
 * `from`/`to` (YYYY-MM-DD or ISO 8601) -> [from, to); a date-only `to` includes that whole
 * day. The one check of the range's dates (the query schema bounds only their length).
 */
export function parseRange(q: RangeQuery, now = new Date()): Range {
  const parse = (field: 'from' | 'to', v: string) => {
    const d = new Date(DATE_ONLY.test(v) ? `${v}T00:00:00.000Z` : v);
    if (v.length < MIN_DATE_LENGTH || Number.isNaN(d.getTime()) || (DATE_ONLY.test(v) && d.toISOString().slice(0, 10) !== v)) {
      throw badRequest(`${field}: must be a date (YYYY-MM-DD) or an ISO 8601 date-time`, [`${field}: must be a date (YYYY-MM-DD) or an ISO 8601 date-time`]);
    }
    return field === 'to' && DATE_ONLY.test(v) ? new Date(d.getTime() + DAY) : d;
  };
  const to = q.to !== undefined ? parse('to', q.to) : now;
  const from = q.from !== undefined ? parse('from', q.from) : new Date(to.getTime() - DEFAULT_RANGE_DAYS * DAY);
  if (from.getTime() >= to.getTime()) throw badRequest('from: must be before to', ['from: must be before to']);
  return { from, to, openEnd: q.to === undefined };
}

const SEES_ALL: readonly WorkspaceRole[] = ['owner', 'admin'];

/**
 * The queries the caller may see, in the range the query asks for: roles `owner` and
 * `admin` see the whole workspace (or one member's, with `userId`), others their own;
 * asking for another member's queries needs owner or admin.
 */
export function filterOf(scope: Scope, role: WorkspaceRole, q: RangeQuery & { userId?: string }): LogFilter {
  const range = parseRange(q);
  if (SEES_ALL.includes(role)) return { ...range, userId: q.userId ?? null };
  if (q.userId && q.userId !== scope.userId) {
    throw forbidden("Insufficient permission: only workspace owners and admins see other members' queries", 'INSUFFICIENT_PERMISSION');
  }
  return { ...range, userId: scope.userId };
}

type UserRef = { id: string; name: string; email: string };
type UserLookup = (ids: string[]) => Promise<Map<string, UserRef>>;

/** A range as the API returns it (`to` exclusive). */
export interface RangeView {
  from: string;
  to: string;
}
/** Whose queries a report covers: one member's or the whole workspace's. */
export type AnalyticsScope = 'user' | 'workspace';

const rangeView = (r: Range): RangeView => ({ from: r.from.toISOString(), to: r.to.toISOString() });
const scopeOf = (f: LogFilter): AnalyticsScope => (f.userId ? 'user' : 'workspace');
const r2 = (v: number | null) => (v === null ? null : round2(v));

/** A logged query as the API lists it, with its user (null when gone). */
function queryView(r: QueryLogRow, users: Map<string, UserRef>) {
  const u = r.userId ? users.get(r.userId) : undefined;
  return {
    id: r.id,
    user: u ? { id: u.id, name: u.name, email: u.email } : null,
    apiKeyId: r.apiKeyId,
    conversationId: r.conversationId,
    endpoint: r.endpoint,
    question: r.question,
    status: r.status,
    errorCode: r.errorCode,
    generator: r.generator,
    model: r.model,
    latencyMs: r.latencyMs,
    firstChunkMs: r.firstChunkMs,
    confidence: r.confidence === null ? null : round2(r.confidence),
    isGrounded: r.isGrounded,
    hasHallucinations: r.hasHallucinations,
    isRelevant: r.isRelevant,
    sourceCount: r.sourceCount,
    citedCount: r.citedCount,
    sources: r.sources.map((s) => ({ sourceNumber: s.sourceNumber, documentId: s.documentId, title: s.title, url: s.url, score: s.score, cited: s.cited })),
    inputTokens: r.inputTokens,
    outputTokens: r.outputTokens,
    createdAt: r.createdAt.toISOString(),
  };
}
export type QueryView = ReturnType<typeof queryView>;

/** Usage of a workspace (or one member) over a range: totals, per day, per endpoint, generator and user. */
export interface UsageReport {
  range: RangeView;
  scope: AnalyticsScope;
  totals: UsageTotals;
  daily: DailyUsage[];
  byEndpoint: { endpoint: string; queries: number; avgLatencyMs: number | null }[];
  byGenerator: { generator: string; queries: number; avgLatencyMs: number | null }[];
  byUser: { user: UserRef | null; queries: number; avgLatencyMs: number | null }[];
}

/** The query log of a workspace and the reports made from it (docs/analytics.md). */
export interface AnalyticsService {
  /**
   * Logs one question (answered, failed or aborted). The row is written after the response,
   * with the others of the moment (QUERY_LOG_BATCH): an answer never waits for analytics, nor
   * fails with it (a failed write is logged). The reads below first write and wait for the
   * rows this process holds; another instance sees them within a moment.
   */
  logQuery(entry: QueryLogEntry): void;
  /** Resolves when every query-log row logged so far is written (closing the app, tests). */
  settled(): Promise<void>;
  /** Rows of this process waiting, written and dropped (GET /health, docs/analytics.md). */
  queryLogStats(): BatchStats;
  /** One page of the logged queries the caller may see, newest first. */
  queries(
    scope: Scope,
    role: WorkspaceRole,
    q: RangeQuery & { page: number; limit: number; userId?: string; status?: string; unanswered?: boolean },
  ): Promise<{ range: RangeView; scope: AnalyticsScope; queries: QueryView[]; pagination: Pagination }>;
  /** Usage over the range: totals, per day, per endpoint, generator and user. */
  usage(scope: Scope, role: WorkspaceRole, q: RangeQuery & { userId?: string }): Promise<UsageReport>;
  /** One page of the documents behind the retrieved sources, most cited first. */
  sources(
    scope: Scope,
    role: WorkspaceRole,
    q: RangeQuery & { page: number; limit: number; userId?: string },
  ): Promise<{
    range: RangeView;
    scope: AnalyticsScope;
    totals: { documents: number; retrievals: number; citations: number };
    sources: SourceUsage[];
    pagination: Pagination;
  }>;
}

export function analyticsService(
  repo: AnalyticsRepository,
  deps: {
    usersByIds: UserLookup;
    log?: { error(obj: unknown, msg?: string): void; warn?(obj: unknown, msg?: string): void };
    /** How query log rows are batched (QUERY_LOG_BATCH unless given). */
    batch?: { maxRows: number; delayMs: number };
    /** Rows held at most while the database cannot be reached (QUERY_LOG_MAX_HELD unless given). */
    maxHeld?: number;
  },
): AnalyticsService {
  const writes = batchedAfterResponse<NewQueryLog>({
    what: 'query log write',
    write: (rows) => repo.insert(rows),
    ...(deps.batch ?? QUERY_LOG_BATCH),
    log: deps.log,
    // A connection cut loses no row: the batch is held and written after the reconnection.
    isTransient: isDatabaseUnavailable,
    maxHeld: deps.maxHeld ?? QUERY_LOG_MAX_HELD,
  });
  return {
    logQuery(entry) {
      // Stamped now, not when its batch is written (a batch's rows would share one time).
      writes.add({ ...entry, createdAt: new Date() });
    },

    settled: () => writes.settled(),

    queryLogStats: () => writes.stats(),

    async queries(scope, role, q) {
      await writes.flush();
      const f = filterOf(scope, role, q);
      const { rows, total } = await repo.list(scope, f, { limit: q.limit, offset: (q.page - 1) * q.limit, status: q.status, unanswered: q.unanswered });
      const users = await deps.usersByIds([...new Set(rows.flatMap((r) => (r.userId ? [r.userId] : [])))]);
      return {
        range: rangeView(f),
        scope: scopeOf(f),
        queries: rows.map((r) => queryView(r, users)),
        pagination: pagination(q, total),
      };
    },

    async usage(scope, role, q) {
      await writes.flush();
      const f = filterOf(scope, role, q);
      const [t, days, endpoints, generators, byUser] = await Promise.all([
        repo.totals(scope, f),
        repo.byDay(scope, f),
        repo.byGroup(scope, f, 'endpoint'),
        repo.byGroup(scope, f, 'generator'),
        repo.byGroup(scope, f, 'user_id'),
      ]);
      const users = await deps.usersByIds(byUser.flatMap((u) => (u.key ? [u.key] : [])));
      return {
        range: rangeView(f),
        scope: scopeOf(f),
        totals: {
          ...t,
          avgLatencyMs: r2(t.avgLatencyMs),
          p50LatencyMs: r2(t.p50LatencyMs),
          p95LatencyMs: r2(t.p95LatencyMs),
          avgFirstChunkMs: r2(t.avgFirstChunkMs),
          avgConfidence: r2(t.avgConfidence),
          groundedRate: r2(t.groundedRate),
          hallucinationRate: r2(t.hallucinationRate),
          relevantRate: r2(t.relevantRate),
        },
        daily: days.map((d) => ({ ...d, avgLatencyMs: r2(d.avgLatencyMs), avgConfidence: r2(d.avgConfidence) })),
        byEndpoint: endpoints.map((e) => ({ endpoint: e.key ?? '', queries: e.queries, avgLatencyMs: r2(e.avgLatencyMs) })),
        byGenerator: generators.map((e) => ({ generator: e.key ?? '', queries: e.queries, avgLatencyMs: r2(e.avgLatencyMs) })),
        byUser: byUser.map((e) => {
          const u = e.key ? users.get(e.key) : undefined;
          return { user: u ? { id: u.id, name: u.name, email: u.email } : null, queries: e.queries, avgLatencyMs: r2(e.avgLatencyMs) };
        }),
      };
    },

    async sources(scope, role, q) {
      await writes.flush();
      const f = filterOf(scope, role, q);
      const out = await repo.sources(scope, f, { limit: q.limit, offset: (q.page - 1) * q.limit });
      return {
        range: rangeView(f),
        scope: scopeOf(f),
        totals: { documents: out.total, retrievals: out.retrievals, citations: out.citations },
        sources: out.rows.map((r) => ({ ...r, avgScore: r2(r.avgScore) })),
        pagination: pagination(q, out.total),
      };
    },
  };
}
