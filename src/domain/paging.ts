import { Type, type Static } from 'typebox';

/**
 * Paging of every list endpoint (docs/api-conventions.md, "Lists"): query `page` (from 1)
 * and `limit`, bounded integers (anything beyond is a 400 naming the parameter, never a
 * database error), and a `pagination` object in the response.
 */

/** Highest `page` accepted: with `limit` at most 100, an offset stays far below 2^31. */
export const MAX_PAGE = 1_000_000;
/** Highest `offset` accepted where a list also takes one. */
export const MAX_OFFSET = 100_000_000;

export interface PageQueryOptions {
  /** Default `limit` (the contract's rule: 20). */
  defaultLimit?: number;
  /** Largest `limit` (default 100). */
  maxLimit?: number;
}

/** The `page` and `limit` query properties; spread them into a route's querystring schema. */
export function pageQuery(opts: PageQueryOptions = {}) {
  const maxLimit = opts.maxLimit ?? 100;
  return {
    page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Page number, from 1' }),
    limit: Type.Integer({ minimum: 1, maximum: maxLimit, default: opts.defaultLimit ?? 20, description: `Items per page (1-${maxLimit})` }),
  };
}

/**
 * The `sort` query property: a field name, `-` in front for descending (rule 6).
 * `fields` are the orders the list supports.
 */
export function sortQuery<const F extends string>(fields: readonly F[], defaultSort: F | `-${F}`) {
  const values = fields.flatMap((f) => [f, `-${f}`]) as (F | `-${F}`)[];
  return Type.Enum(values, { default: defaultSort, description: `One of ${fields.join(', ')}; a leading \`-\` sorts descending` });
}

/** A parsed `sort` value. */
export function parseSort<F extends string>(sort: F | `-${F}`): { sort: F; descending: boolean } {
  return sort.startsWith('-') ? { sort: sort.slice(1) as F, descending: true } : { sort: sort as F, descending: false };
}

/** The `pagination` object of every list response. */
export const PaginationSchema = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer({ description: 'Items matching the query, over all pages' }),
  pages: Type.Integer({ description: 'Number of pages at this limit' }),
  hasMore: Type.Boolean({ description: 'Whether a later page holds more items' }),
});
export type Pagination = Static<typeof PaginationSchema>;

export interface PageRequest {
  page: number;
  limit: number;
}

/** Rows to skip for a page. */
export const offsetOf = (q: PageRequest): number => (q.page - 1) * q.limit;

/** The `pagination` object of a page, given the total number of items. */
export function pagination(q: PageRequest, total: number): Pagination {
  return { page: q.page, limit: q.limit, total, pages: Math.ceil(total / q.limit), hasMore: q.page * q.limit < total };
}

/** One page of an array held in memory (short, bounded lists only: reference data). */
export function pageOf<T>(items: readonly T[], q: PageRequest): { items: T[]; pagination: Pagination } {
  const start = offsetOf(q);
  return { items: items.slice(start, start + q.limit), pagination: pagination(q, items.length) };
}
