import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.js';
import { badRequest } from '../lib/errors.js';
import type { Embedder } from './embedders/index.js';

/**
 * Hybrid retrieval (docs/retrieval.md): one SQL statement that runs an HNSW cosine kNN
 * over `chunks.embedding` and a full-text search over `chunks.tsv`, both scoped to the
 * caller's workspace plus the shared DORA corpus and to the request filters, and fuses
 * the two rankings by reciprocal rank fusion.
 */

/** One retrieved passage (shape shared with src/rag/types.ts `Source`). */
export interface Source {
  /** Chunk id. */
  id: string;
  sourceNumber: number;
  title: string;
  content: string;
  url: string;
  section: string;
  /** Relevance 0..1: RRF score divided by its maximum (first in both rankings = 1). */
  score: number;
  documentId: string;
  dataSourceId: string | null;
  /** First page of the passage (PDF page, XLSX worksheet), as a string; null for flowing formats. */
  page: string | null;
  /** NULL for the shared DORA corpus. */
  workspaceId: string | null;
}

export interface RetrievalFilters {
  /** A page number (`"3"`: passages covering page 3) or a document id. */
  page?: string;
  /** A heading, matched case-insensitively as whole words anywhere in the section path. */
  section?: string;
  /** Document date range, `YYYY-MM-DD`, both ends inclusive. */
  dateRange?: { start?: string; end?: string };
}

export interface SearchInput {
  workspaceId: string;
  query: string;
  filters?: RetrievalFilters;
  /** Passages to return (default 5, at most 50). */
  limit?: number;
}

/** RRF constant k (Cormack et al. 2009). */
export const RRF_K = 60;
export const DEFAULT_LIMIT = 5;
export const MAX_LIMIT = 50;
/** HNSW search breadth; iterative scans keep going until enough rows pass the filters. */
export const EF_SEARCH = 100;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
function checkDate(v: string | undefined, field: string): string | undefined {
  if (v === undefined || v === '') return undefined;
  const d = new Date(`${v}T00:00:00Z`);
  if (!DATE.test(v) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) {
    throw badRequest(`filters.dateRange.${field} must be a date (YYYY-MM-DD)`, [`filters.dateRange.${field}: must be a date (YYYY-MM-DD)`]);
  }
  return v;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The text of `websearch_to_tsquery`: a plain question becomes its words joined by
 * `or` (a passage needs only some of them; ts_rank_cd ranks those with more first);
 * a query already using websearch syntax (quotes, `or`, `-word`) is kept as written.
 */
export function toWebsearch(query: string): string {
  if (/["]|\bor\b|(^|\s)-\p{L}/iu.test(query)) return query;
  const words = query.match(/[\p{L}\p{N}]+(?:['’.][\p{L}\p{N}]+)*/gu) ?? [];
  return words.slice(0, 64).join(' or ');
}

export interface SearchSqlParams {
  vector: number[];
  embeddingModel: string;
  tsQuery: string;
  workspaceId: string;
  filters?: RetrievalFilters;
  limit: number;
  /** Candidates taken from each ranking before fusion. */
  candidates: number;
}

/** Filter predicates on `c` (chunks), validated. */
function filterSql(filters: RetrievalFilters | undefined): SQL {
  const parts: SQL[] = [];
  const f = filters ?? {};
  if (f.page !== undefined && f.page !== '') {
    const page = f.page.trim();
    if (/^\d{1,6}$/.test(page)) {
      const n = Number(page);
      parts.push(sql`c.page IS NOT NULL AND c.page <= ${n} AND coalesce(c.page_end, c.page) >= ${n}`);
    } else {
      parts.push(sql`c.document_id = ${page}`);
    }
  }
  if (f.section !== undefined && f.section.trim() !== '') {
    const s = f.section.trim().replace(/\s+/g, ' ');
    const pattern = `${/^\w/.test(s) ? '\\m' : ''}${escapeRegex(s).replace(/ /g, '\\s+')}${/\w$/.test(s) ? '\\M' : ''}`;
    parts.push(sql`c.section ~* ${pattern}`);
  }
  const start = checkDate(f.dateRange?.start, 'start');
  const end = checkDate(f.dateRange?.end, 'end');
  if (start && end && start > end) throw badRequest('filters.dateRange.start must not be after filters.dateRange.end', ['filters.dateRange: start is after end']);
  if (start) parts.push(sql`c.doc_date >= ${start}::date`);
  if (end) parts.push(sql`c.doc_date < (${end}::date + 1)`);
  return parts.length ? sql`AND ${sql.join(parts, sql` AND `)}` : sql``;
}

/**
 * The retrieval statement. Both arms read the same rows (live chunks of the workspace
 * or of the corpus, passing the filters); each keeps its best `candidates`; the fused
 * score is sum over arms of 1 / (k + rank), normalised by its maximum 2 / (k + 1).
 */
export function searchSql(p: SearchSqlParams): SQL {
  const vec = `[${p.vector.join(',')}]`;
  const filters = filterSql(p.filters);
  const hasText = p.tsQuery.trim() !== '';
  const scope = sql`c.deleted_at IS NULL AND (c.workspace_id = ${p.workspaceId} OR c.workspace_id IS NULL)`;
  return sql`
WITH q AS MATERIALIZED (
  SELECT ${vec}::vector AS v, websearch_to_tsquery('english', ${p.tsQuery}) AS tq
),
vec AS MATERIALIZED (
  SELECT c.id, c.embedding <=> (SELECT v FROM q) AS dist
  FROM chunks c
  WHERE ${scope} AND c.embedding_model = ${p.embeddingModel} ${filters}
  ORDER BY c.embedding <=> (SELECT v FROM q)
  LIMIT ${p.candidates}
),
txt AS MATERIALIZED (
  SELECT c.id, ts_rank_cd(c.tsv, (SELECT tq FROM q), 32) AS rank
  FROM chunks c
  WHERE ${hasText ? sql`TRUE` : sql`FALSE`} AND ${scope} AND c.tsv @@ (SELECT tq FROM q) ${filters}
  ORDER BY rank DESC, c.id
  LIMIT ${p.candidates}
),
fused AS (
  SELECT coalesce(v.id, t.id) AS id, v.dist, v.r AS vr, t.r AS tr,
         coalesce(1.0 / (${RRF_K} + v.r), 0) + coalesce(1.0 / (${RRF_K} + t.r), 0) AS rrf
  FROM (SELECT id, dist, row_number() OVER (ORDER BY dist, id) AS r FROM vec) v
  FULL OUTER JOIN (SELECT id, row_number() OVER (ORDER BY rank DESC, id) AS r FROM txt) t ON t.id = v.id
)
SELECT c.id, c.title, c.content, c.url, c.section, c.page, c.document_id, c.data_source_id, c.workspace_id,
       round((f.rrf * ${(RRF_K + 1) / 2})::numeric, 4)::float8 AS score, f.vr, f.tr, f.dist
FROM fused f JOIN chunks c ON c.id = f.id
ORDER BY f.rrf DESC, f.dist ASC NULLS LAST, c.id
LIMIT ${p.limit}`;
}

interface Row {
  id: string;
  title: string;
  content: string;
  url: string;
  section: string;
  page: number | null;
  document_id: string;
  data_source_id: string | null;
  workspace_id: string | null;
  score: number | string;
}

export function retrievalService(deps: { db: Db; embedder: Embedder }) {
  const { db, embedder } = deps;

  /** Runs the statement with HNSW iterative scans on (filters never starve the kNN arm). */
  async function run(query: SQL): Promise<Row[]> {
    return db.transaction(async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL hnsw.iterative_scan = relaxed_order`));
      await tx.execute(sql.raw(`SET LOCAL hnsw.ef_search = ${EF_SEARCH}`));
      return queryRows<Row>(tx as unknown as Db, query);
    });
  }

  return {
    embedder,
    /** Hybrid search for `query` in the workspace plus the DORA corpus. */
    async search(input: SearchInput): Promise<Source[]> {
      const limit = Math.min(Math.max(1, Math.floor(input.limit ?? DEFAULT_LIMIT)), MAX_LIMIT);
      const query = input.query.trim();
      if (!query) return [];
      const [vector] = await embedder.embed([query], { kind: 'query' });
      const statement = searchSql({
        vector: vector!,
        embeddingModel: embedder.id,
        tsQuery: toWebsearch(query),
        workspaceId: input.workspaceId,
        filters: input.filters,
        limit,
        candidates: Math.max(limit * 4, 40),
      });
      const rows = await run(statement);
      return rows.map((r, i) => ({
        id: r.id,
        sourceNumber: i + 1,
        title: r.title,
        content: r.content,
        url: r.url,
        section: r.section,
        score: Math.min(1, Math.max(0, Number(r.score))),
        documentId: r.document_id,
        dataSourceId: r.data_source_id,
        page: r.page === null || r.page === undefined ? null : String(r.page),
        workspaceId: r.workspace_id,
      }));
    },
  };
}
export type RetrievalService = ReturnType<typeof retrievalService>;
