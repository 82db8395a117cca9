import { outsideIdempotency } from '../lib/idempotencyContext.js';
import { sql, type SQL } from 'drizzle-orm';
import { EXACT_KNN_MAX_DEFAULT } from '../config.js';
import { PREPARE_MARK, queryRows, type Db } from '../db/client.js';
import type { Source } from '../domain/sources.js';
import { badRequest } from '../lib/errors.js';
import { analyseQuestion, conceptQueries, embeddingQuery, type QuestionAnalysis } from './concepts.js';
import type { Embedder } from './embedders/index.js';
import { rerank, select, type Candidate, type ConceptWeights, type Named, type Scope } from './rerank.js';

/**
 * Hybrid retrieval (docs/retrieval.md). One SQL statement runs, for each scope (the
 * caller's workspace, and the shared DORA corpus), an HNSW cosine kNN over
 * `chunks.embedding` and a full-text search over `chunks.tsv`, both restricted to the
 * request filters, and fuses the two rankings of each scope by reciprocal rank fusion.
 * The best candidates of each scope are then reranked on the question's concepts
 * (src/rag/rerank.ts) and chosen with per-document diversity.
 */

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
/** Candidates taken from the kNN ranking of each scope before fusion (at least). */
export const CANDIDATES = 30;
/** Candidates taken from the full-text ranking of each scope (at least). */
export const TEXT_CANDIDATES = 30;
/** Fused candidates of each scope that are reranked (at least). */
export const POOL = 15;
/** The best of each ranking are reranked too, even when the other ranking missed them. */
export const ARM_TOP = 5;
export const DEFAULT_LIMIT = 5;
export const MAX_LIMIT = 50;
/**
 * HNSW search breadth; iterative scans keep going until enough rows pass the filters. 200
 * rather than pgvector's 40 or 100: only a workspace past EXACT_KNN_MAX walks a graph (its own,
 * src/rag/graphs.ts), where 200 gives recall@10 0.988 against 0.962 at 100 for 10,000 chunks,
 * for 1.2 ms more (docs/performance.md).
 */
export const EF_SEARCH = 200;
/**
 * A workspace with at most this many live chunks is searched by exact kNN (cost
 * proportional to the workspace, recall 1); a larger one walks an HNSW graph: its own
 * (src/rag/graphs.ts) once built, its partition's with the workspace as an iterative-scan
 * filter until then (docs/retrieval.md, "Large workspaces"). The shared corpus is always
 * searched exactly. The service takes it from `RAG_EXACT_KNN_MAX`, whose default this is.
 */
export const EXACT_KNN_MAX = EXACT_KNN_MAX_DEFAULT;

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
 * A query already written in websearch syntax (quotes, `OR` in capitals, `-word`) is
 * searched as written; a lower-case "or" is part of a question ("critical or important").
 */
export const isWebsearchSyntax = (query: string) => /["]|\bOR\b|(^|\s)-\p{L}/u.test(query);

export interface SearchSqlParams {
  vector: number[];
  embeddingModel: string;
  /**
   * Full-text queries (websearch syntax), one per concept of the question; a passage's
   * text score sums the rarity of the concepts it holds.
   */
  textQueries: string[];
  workspaceId: string;
  filters?: RetrievalFilters;
  /** Candidates taken from the kNN ranking of each scope. */
  candidates: number;
  /** Candidates taken from the full-text ranking of each scope. */
  textCandidates: number;
  /** Fused candidates returned per scope. */
  pool: number;
  /** Largest workspace (live chunks) searched by exact kNN; default EXACT_KNN_MAX. */
  exactKnnMax?: number;
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
  if (start && end && start > end)
    throw badRequest('filters.dateRange.start must not be after filters.dateRange.end', ['filters.dateRange: start is after end']);
  if (start) parts.push(sql`c.doc_date >= ${start}::date`);
  if (end) parts.push(sql`c.doc_date < (${end}::date + 1)`);
  return parts.length ? sql`AND ${sql.join(parts, sql` AND `)}` : sql``;
}

/**
 * Ties in a ranking are broken by the passage's document title and position, then its id:
 * ids are random, so the same documents would otherwise rank (and answer) differently on
 * each installation and after every re-index. "C" collation: the same order everywhere.
 */
const TIE = sql.raw(`title COLLATE "C", ci, id`);

/**
 * The retrieval statement. For each scope (the workspace's chunks, the corpus's) a kNN
 * ranking (its best `candidates`) and a full-text ranking by the rarity-weighted concepts
 * a passage holds (its best `textCandidates`), both over live chunks passing the
 * filters; within each scope the two rankings are fused (sum of 1 / (k + rank)), and the
 * best `pool` of each scope, plus the best ARM_TOP of each ranking, are returned with
 * their text.
 */
export function searchSql(p: SearchSqlParams): SQL {
  const vec = `[${p.vector.join(',')}]`;
  const exactMax = p.exactKnnMax ?? EXACT_KNN_MAX;
  const filters = filterSql(p.filters);
  const live = sql`c.deleted_at IS NULL`;
  const workspace = sql`c.workspace_id = ${p.workspaceId}`;
  const corpus = sql`c.workspace_id IS NULL`;
  const queries = p.textQueries.length
    ? sql`ARRAY[${sql.join(
        p.textQueries.map((t) => sql`${t}`),
        sql`, `,
      )}]::text[]`
    : sql`ARRAY[]::text[]`;
  const q = sql`(SELECT v FROM q)`;
  const columns = sql`c.id, c.title, c.content, c.url, c.section, c.page, c.document_id, c.data_source_id, c.workspace_id,
    p.scope, p.rrf::float8 AS rrf, p.vr, p.tr, p.dist, p.pr`;
  const where = (scope: SQL) => sql`${live} AND ${scope} AND c.embedding_model = ${p.embeddingModel} ${filters}`;
  // Exact kNN: every row of the scope (found through chunks_workspace_idx), distances
  // sorted; OFFSET 0 keeps the planner from reading the HNSW index instead. Cost grows
  // with the scope, never with the rest of the table; recall 1.
  const exact = (scope: SQL) => sql`
  SELECT id, dist, title, ci FROM (SELECT c.id, c.embedding <=> ${q} AS dist, c.title, c.chunk_index AS ci FROM chunks c WHERE ${where(scope)} OFFSET 0) e
  ORDER BY dist, ${TIE}
  LIMIT ${p.candidates}`;
  // HNSW kNN over the whole table's graph, the scope as a filter (iterative scan).
  const hnsw = (scope: SQL) => sql`
  SELECT c.id, c.embedding <=> ${q} AS dist, c.title, c.chunk_index AS ci
  FROM chunks c
  WHERE ${where(scope)}
  ORDER BY c.embedding <=> ${q}
  LIMIT ${p.candidates}`;
  // Every (passage, concept) match of the scope; a passage's text score is the sum, over the
  // concepts it holds, of ln(1 + N / (df + 0.5)): df = passages holding the concept, N =
  // all matches. A rare concept counts more than a frequent one (the vendor's name).
  const hits = (scope: SQL) => sql`
  SELECT c.id, t.n, c.title, c.chunk_index AS ci
  FROM terms t JOIN chunks c ON c.tsv @@ t.tq
  WHERE ${live} AND ${scope} ${filters}`;
  const fulltext = (hitsTable: string) => sql`
  SELECT * FROM (
    SELECT id, min(title) AS title, min(ci) AS ci, sum(ln(1 + total::float8 / (df + 0.5))) AS weight
    FROM (SELECT id, title, ci, count(*) OVER (PARTITION BY n) AS df, count(*) OVER () AS total FROM ${sql.raw(hitsTable)}) h
    GROUP BY id
  ) g
  ORDER BY weight DESC, ${TIE}
  LIMIT ${p.textCandidates}`;
  return sql`
WITH q AS MATERIALIZED (
  SELECT ${vec}::vector AS v
),
terms AS MATERIALIZED (
  SELECT k.n, websearch_to_tsquery('english', k.query) AS tq
  FROM unnest(${queries}) WITH ORDINALITY AS k(query, n)
  WHERE numnode(websearch_to_tsquery('english', k.query)) > 0
),
ws_size AS MATERIALIZED (
  SELECT count(*) AS n FROM (SELECT 1 FROM chunks c WHERE ${live} AND ${workspace} LIMIT ${exactMax + 1}) s
),
ws_vec AS MATERIALIZED (
  SELECT * FROM (${exact(workspace)}) e WHERE (SELECT n FROM ws_size) <= ${exactMax}
  UNION ALL
  SELECT * FROM (${hnsw(workspace)}) h WHERE (SELECT n FROM ws_size) > ${exactMax}
),
ws_hits AS MATERIALIZED (${hits(workspace)}
),
ws_txt AS MATERIALIZED (${fulltext('ws_hits')}
),
corpus_vec AS MATERIALIZED (${exact(corpus)}
),
corpus_hits AS MATERIALIZED (${hits(corpus)}
),
corpus_txt AS MATERIALIZED (${fulltext('corpus_hits')}
),
ranks AS (
  SELECT id, title, ci, 'workspace' AS scope, row_number() OVER (ORDER BY dist, ${TIE}) AS vr, NULL::bigint AS tr, dist FROM ws_vec
  UNION ALL SELECT id, title, ci, 'workspace', NULL, row_number() OVER (ORDER BY weight DESC, ${TIE}), NULL FROM ws_txt
  UNION ALL SELECT id, title, ci, 'corpus', row_number() OVER (ORDER BY dist, ${TIE}), NULL, dist FROM corpus_vec
  UNION ALL SELECT id, title, ci, 'corpus', NULL, row_number() OVER (ORDER BY weight DESC, ${TIE}), NULL FROM corpus_txt
),
fused AS (
  SELECT id, scope, min(title) AS title, min(ci) AS ci, min(vr) AS vr, min(tr) AS tr, min(dist) AS dist,
         coalesce(1.0 / (${RRF_K} + min(vr)), 0) + coalesce(1.0 / (${RRF_K} + min(tr)), 0) AS rrf
  FROM ranks GROUP BY id, scope
),
pool AS (
  SELECT *, row_number() OVER (PARTITION BY scope ORDER BY rrf DESC, dist ASC NULLS LAST, ${TIE}) AS pr FROM fused
),
picked AS (
  SELECT * FROM pool p WHERE p.pr <= ${p.pool} OR p.vr <= ${ARM_TOP} OR p.tr <= ${ARM_TOP}
)
-- The text of the picked rows, read with each scope's predicate so that the partition holding
-- that scope is the only one read (chunks is hash-partitioned by workspace).
SELECT r.id, r.title, r.content, r.url, r.section, r.page, r.document_id, r.data_source_id, r.workspace_id, r.scope, r.rrf, r.vr, r.tr, r.dist
FROM (
  SELECT ${columns} FROM picked p JOIN chunks c ON c.id = p.id AND ${workspace} WHERE p.scope = 'workspace'
  UNION ALL
  SELECT ${columns} FROM picked p JOIN chunks c ON c.id = p.id AND ${corpus} WHERE p.scope = 'corpus'
) r
ORDER BY r.scope, r.pr`;
}

/**
 * The settings of a retrieval statement, local to its transaction: HNSW iterative scans on
 * (filters never starve the kNN arm of a large workspace), the search breadth, and a plan made
 * for the statement's own values each time (it is prepared, and a prepared statement could
 * otherwise switch to one generic plan, blind to the workspace's size and the question's terms).
 * One statement (a `SET LOCAL` each would be a round trip each), without parameters.
 */
export const RETRIEVAL_SETTINGS = `SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('hnsw.ef_search', '${EF_SEARCH}', true), set_config('plan_cache_mode', 'force_custom_plan', true)`;

/**
 * Runs a query under the retrieval settings, in a transaction of its own so that they stay
 * local, as a prepared statement on PostgreSQL (PREPARE_MARK: no parse and no round trip for
 * the parameter types once a connection has run it). The settings and the query go out
 * together, in this order (one flight instead of a round trip each): drizzle sends a query
 * when it is awaited, so the settings are started first.
 */
export async function withRetrievalSettings<T>(db: Db, query: SQL): Promise<T[]> {
  // A read: not the effect of a request with an Idempotency-Key (src/db/client.ts).
  return outsideIdempotency(() =>
    db.transaction(async (tx) => {
      const settings = tx.execute(sql.raw(RETRIEVAL_SETTINGS)).then(() => undefined);
      const rows = queryRows<T>(tx as unknown as Db, sql`${sql.raw(PREPARE_MARK)}${query}`);
      return (await Promise.all([settings, rows]))[1];
    }),
  );
}

/** Runs the retrieval statement (under its HNSW settings, withRetrievalSettings). */
export async function searchRows(db: Db, params: SearchSqlParams): Promise<SearchRow[]> {
  return withRetrievalSettings<SearchRow>(db, searchSql(params));
}

/** One candidate row of the retrieval statement. */
export interface SearchRow {
  id: string;
  title: string;
  content: string;
  url: string;
  section: string;
  page: number | null;
  document_id: string;
  data_source_id: string | null;
  workspace_id: string | null;
  scope: Scope;
  rrf: number | string;
  /** Rank in the kNN and full-text rankings of its scope (null: not among that ranking's candidates), cosine distance. */
  vr: number | string | null;
  tr: number | string | null;
  dist: number | null;
}

/** What retrieval found out about a question, for the answer (answerability) and for diagnosis. */
export interface RetrievalResult {
  sources: Source[];
  analysis: QuestionAnalysis;
  /** Concept weights over the reranked candidates. */
  weights: ConceptWeights;
  /** Scopes the question names. */
  named: Named;
  /** Weighted concept coverage of each returned source, by chunk id. */
  coverage: Map<string, number>;
}

/** Hybrid retrieval over a workspace's passages and the shared DORA corpus. */
export interface RetrievalService {
  /** The embedder the passages and queries are embedded with. */
  readonly embedder: Embedder;
  /** Hybrid search for `query` in the workspace plus the DORA corpus, with what it found out. */
  retrieve(input: SearchInput): Promise<RetrievalResult>;
  /** Hybrid search for `query` in the workspace plus the DORA corpus. */
  search(input: SearchInput): Promise<Source[]>;
}

export function retrievalService(deps: { db: Db; embedder: Embedder; exactKnnMax?: number }): RetrievalService {
  const { db, embedder } = deps;

  async function retrieve(input: SearchInput): Promise<RetrievalResult> {
    const limit = Math.min(Math.max(1, Math.floor(input.limit ?? DEFAULT_LIMIT)), MAX_LIMIT);
    const query = input.query.trim();
    const analysis = analyseQuestion(query);
    const empty = {
      sources: [],
      analysis,
      weights: { weights: new Map(), missing: new Set<string>(), poolSize: 0 },
      named: { dora: false, vendor: false },
      coverage: new Map(),
    };
    if (!query) return empty;
    const [vector] = await embedder.embed([embeddingQuery(analysis)], { kind: 'query' });
    const rows = await searchRows(db, {
      vector: vector!,
      embeddingModel: embedder.id,
      textQueries: isWebsearchSyntax(query) ? [query] : conceptQueries(analysis),
      workspaceId: input.workspaceId,
      filters: input.filters,
      candidates: Math.max(limit * 4, CANDIDATES),
      textCandidates: Math.max(limit * 4, TEXT_CANDIDATES),
      pool: Math.max(limit * 3, POOL),
      exactKnnMax: deps.exactKnnMax,
    });
    const candidates: (Candidate & { row: SearchRow })[] = rows.map((r) => ({
      id: r.id,
      documentId: r.document_id,
      scope: r.scope,
      title: r.title,
      section: r.section,
      content: r.content,
      rrf: Number(r.rrf),
      row: r,
    }));
    const { scored, weights, named } = rerank(analysis, candidates);
    const chosen = select(scored, named, limit);
    const sources = chosen.map(({ candidate: { row: r }, score }, i) => ({
      id: r.id,
      sourceNumber: i + 1,
      title: r.title,
      content: r.content,
      url: r.url,
      section: r.section,
      score: Math.round(Math.min(1, Math.max(0, score)) * 10_000) / 10_000,
      documentId: r.document_id,
      dataSourceId: r.data_source_id,
      page: r.page === null || r.page === undefined ? null : String(r.page),
      workspaceId: r.workspace_id,
    }));
    return { sources, analysis, weights, named, coverage: new Map(chosen.map((c) => [c.candidate.id, c.coverage])) };
  }

  return {
    embedder,
    retrieve,
    async search(input) {
      return (await retrieve(input)).sources;
    },
  };
}
