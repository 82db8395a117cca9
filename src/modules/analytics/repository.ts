import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.js';
import { queryLog } from '../../db/schema/index.js';
import type { Scope } from '../../domain/scope.js';
import { newId } from '../../lib/ids.js';

export type QueryLogRow = typeof queryLog.$inferSelect;
export type NewQueryLog = typeof queryLog.$inferInsert;

export interface Range {
  from: Date;
  /** Exclusive. */
  to: Date;
  /**
   * `to` is the time of the request, not one the client gave: rows are not bounded above.
   * A row written in the same millisecond (the database keeps microseconds), or stamped by a
   * database whose clock runs a little ahead of this process's, is still "up to now".
   */
  openEnd?: boolean;
}

/** Which of the scope's workspace queries: a time range, and one user's only when `userId` is set. */
export interface LogFilter extends Range {
  userId: string | null;
}

/** Counts and figures of the queries in a filter. */
export interface UsageTotals {
  queries: number;
  /** Status `answered`: an answer was produced (a refusal, or one citing nothing, too). */
  answered: number;
  /** Not answered from the sources (UNANSWERED): what the unanswered list counts. */
  unanswered: number;
  failed: number;
  aborted: number;
  users: number;
  conversations: number;
  avgLatencyMs: number | null;
  p50LatencyMs: number | null;
  p95LatencyMs: number | null;
  avgFirstChunkMs: number | null;
  avgConfidence: number | null;
  groundedRate: number | null;
  hallucinationRate: number | null;
  relevantRate: number | null;
  inputTokens: number;
  outputTokens: number;
}

/** The queries of one day (UTC). */
export interface DailyUsage {
  date: string;
  queries: number;
  answered: number;
  unanswered: number;
  users: number;
  avgLatencyMs: number | null;
  avgConfidence: number | null;
}

/** The queries of one value of a column (endpoint, generator, user). */
export interface GroupUsage {
  key: string | null;
  queries: number;
  avgLatencyMs: number | null;
}

/** A document behind the retrieved sources: how often retrieved and cited. */
export interface SourceUsage {
  documentId: string;
  dataSourceId: string | null;
  title: string;
  url: string;
  retrievedCount: number;
  citedCount: number;
  queryCount: number;
  avgScore: number | null;
  lastRetrievedAt: string;
}

const where = (scope: Scope, f: LogFilter): SQL =>
  and(
    eq(queryLog.workspaceId, scope.workspaceId),
    f.userId ? eq(queryLog.userId, f.userId) : undefined,
    gte(queryLog.createdAt, f.from),
    f.openEnd ? undefined : lt(queryLog.createdAt, f.to),
  )!;

/** Same filter in raw SQL (for the aggregate queries). */
const rawWhere = (scope: Scope, f: LogFilter) =>
  sql`q.workspace_id = ${scope.workspaceId}
    ${f.userId ? sql`and q.user_id = ${f.userId}` : sql``}
    and q.created_at >= ${f.from.toISOString()}::timestamptz
    ${f.openEnd ? sql`` : sql`and q.created_at < ${f.to.toISOString()}::timestamptz`}`;

/**
 * A question the service did not answer from the sources: failed or stopped, or answered without
 * citing any source or with sources judged irrelevant (a refusal). One definition for the list
 * (`unanswered=true`) and the counts of the usage, so the dashboard's figures agree.
 */
const unanswered = (table: 'q' | 'query_log') => sql.raw(`(${table}.status <> 'answered' or ${table}.cited_count = 0 or ${table}.is_relevant = false)`);
const UNANSWERED = unanswered('q');

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** All SQL of the query log. */
export function analyticsRepository(db: Db) {
  return {
    /**
     * Rows of the query log, in one statement. Each row gets its id before the first try and keeps it:
     * when the connection is lost around the commit, the writer tries the same rows again, and a
     * batch that did commit is not logged twice.
     */
    async insert(rows: NewQueryLog[]): Promise<void> {
      for (const r of rows) r.id ??= newId();
      await db.insert(queryLog).values(rows).onConflictDoNothing({ target: queryLog.id });
    },

    async list(scope: Scope, f: LogFilter, q: { limit: number; offset: number; status?: string; unanswered?: boolean }) {
      const w = and(where(scope, f), q.status ? eq(queryLog.status, q.status) : undefined, q.unanswered ? unanswered('query_log') : undefined);
      const rows = await db.select().from(queryLog).where(w).orderBy(desc(queryLog.createdAt), desc(queryLog.id)).limit(q.limit).offset(q.offset);
      const [{ n }] = await db.select({ n: count() }).from(queryLog).where(w);
      return { rows, total: Number(n) };
    },

    async totals(scope: Scope, f: LogFilter): Promise<UsageTotals> {
      const [r] = await queryRows<Record<string, unknown>>(
        db,
        sql`
        select count(*) as queries,
          count(*) filter (where q.status = 'answered') as answered,
          count(*) filter (where ${UNANSWERED}) as unanswered,
          count(*) filter (where q.status = 'failed') as failed,
          count(*) filter (where q.status = 'aborted') as aborted,
          count(distinct q.user_id) as users,
          count(distinct q.conversation_id) as conversations,
          avg(q.latency_ms) as avg_latency,
          percentile_cont(0.5) within group (order by q.latency_ms) as p50_latency,
          percentile_cont(0.95) within group (order by q.latency_ms) as p95_latency,
          avg(q.first_chunk_ms) as avg_first_chunk,
          avg(q.confidence) filter (where q.status = 'answered') as avg_confidence,
          avg(case when q.is_grounded then 1.0 else 0.0 end) filter (where q.status = 'answered') as grounded_rate,
          avg(case when q.has_hallucinations then 1.0 else 0.0 end) filter (where q.status = 'answered') as hallucination_rate,
          avg(case when q.is_relevant then 1.0 else 0.0 end) filter (where q.status = 'answered') as relevant_rate,
          coalesce(sum(q.input_tokens), 0) as input_tokens,
          coalesce(sum(q.output_tokens), 0) as output_tokens
        from query_log q where ${rawWhere(scope, f)}`,
      );
      return {
        queries: num(r.queries),
        answered: num(r.answered),
        unanswered: num(r.unanswered),
        failed: num(r.failed),
        aborted: num(r.aborted),
        users: num(r.users),
        conversations: num(r.conversations),
        avgLatencyMs: numOrNull(r.avg_latency),
        p50LatencyMs: numOrNull(r.p50_latency),
        p95LatencyMs: numOrNull(r.p95_latency),
        avgFirstChunkMs: numOrNull(r.avg_first_chunk),
        avgConfidence: numOrNull(r.avg_confidence),
        groundedRate: numOrNull(r.grounded_rate),
        hallucinationRate: numOrNull(r.hallucination_rate),
        relevantRate: numOrNull(r.relevant_rate),
        inputTokens: num(r.input_tokens),
        outputTokens: num(r.output_tokens),
      };
    },

    async byDay(scope: Scope, f: LogFilter): Promise<DailyUsage[]> {
      const rows = await queryRows<Record<string, unknown>>(
        db,
        sql`
        select to_char(date_trunc('day', q.created_at at time zone 'UTC'), 'YYYY-MM-DD') as day,
          count(*) as queries,
          count(*) filter (where q.status = 'answered') as answered,
          count(*) filter (where ${UNANSWERED}) as unanswered,
          count(distinct q.user_id) as users,
          avg(q.latency_ms) as avg_latency,
          avg(q.confidence) filter (where q.status = 'answered') as avg_confidence
        from query_log q where ${rawWhere(scope, f)}
        group by 1 order by 1`,
      );
      return rows.map((r) => ({
        date: String(r.day),
        queries: num(r.queries),
        answered: num(r.answered),
        unanswered: num(r.unanswered),
        users: num(r.users),
        avgLatencyMs: numOrNull(r.avg_latency),
        avgConfidence: numOrNull(r.avg_confidence),
      }));
    },

    async byGroup(scope: Scope, f: LogFilter, column: 'endpoint' | 'generator' | 'user_id'): Promise<GroupUsage[]> {
      const col = sql.raw(`q.${column}`);
      const rows = await queryRows<Record<string, unknown>>(
        db,
        sql`
        select ${col} as key, count(*) as queries, avg(q.latency_ms) as avg_latency
        from query_log q where ${rawWhere(scope, f)}
        group by 1 order by 2 desc, 1 limit 100`,
      );
      return rows.map((r) => ({ key: r.key === null ? null : String(r.key), queries: num(r.queries), avgLatencyMs: numOrNull(r.avg_latency) }));
    },

    /** Documents behind the retrieved sources, most cited first. */
    async sources(
      scope: Scope,
      f: LogFilter,
      q: { limit: number; offset: number },
    ): Promise<{ rows: SourceUsage[]; total: number; retrievals: number; citations: number }> {
      const base = sql`from query_log q cross join lateral jsonb_array_elements(q.sources) s where ${rawWhere(scope, f)}`;
      const rows = await queryRows<Record<string, unknown>>(
        db,
        sql`
        select s->>'documentId' as document_id,
          max(s->>'dataSourceId') as data_source_id,
          max(s->>'title') as title,
          max(s->>'url') as url,
          count(*) as retrieved,
          count(*) filter (where (s->>'cited')::boolean) as cited,
          count(distinct q.id) as queries,
          avg((s->>'score')::float8) as avg_score,
          max(q.created_at) as last_retrieved_at
        ${base}
        group by s->>'documentId'
        order by cited desc, retrieved desc, document_id
        limit ${q.limit} offset ${q.offset}`,
      );
      const [t] = await queryRows<Record<string, unknown>>(
        db,
        sql`
        select count(distinct s->>'documentId') as documents, count(*) as retrievals,
          count(*) filter (where (s->>'cited')::boolean) as citations
        ${base}`,
      );
      return {
        rows: rows.map((r) => ({
          documentId: String(r.document_id),
          dataSourceId: r.data_source_id === null ? null : String(r.data_source_id),
          title: String(r.title ?? ''),
          url: String(r.url ?? ''),
          retrievedCount: num(r.retrieved),
          citedCount: num(r.cited),
          queryCount: num(r.queries),
          avgScore: numOrNull(r.avg_score),
          lastRetrievedAt: new Date(r.last_retrieved_at as string).toISOString(),
        })),
        total: num(t.documents),
        retrievals: num(t.retrievals),
        citations: num(t.citations),
      };
    },
  };
}
export type AnalyticsRepository = ReturnType<typeof analyticsRepository>;
