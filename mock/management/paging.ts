import { json } from '../http/responses.js';
import type { MockResponse } from '../http/types.js';

/** Records per page when `limit` is absent, zero or not a number (observed). */
export const DEFAULT_PAGE_LIMIT = 15;

/** The page a list request asks for. */
export interface PageRequest {
  /** Records per page. */
  limit: number;
  /** 1-based page number. */
  page: number;
}

/**
 * Reads `limit` and `page` as production does: `limit` defaults to 15 with no maximum, and `0` or anything
 * not a whole number falls back to 15; `page` defaults to 1 the same way.
 */
export function readPageRequest(query: URLSearchParams): PageRequest {
  return { limit: positive(query.get('limit')) ?? DEFAULT_PAGE_LIMIT, page: positive(query.get('page')) ?? 1 };
}

function positive(text: string | null): number | undefined {
  if (text === null || !/^\d+$/.test(text.trim())) return undefined;
  const n = Number(text.trim());
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The paging numbers of the envelope. */
export interface PageNumbers {
  /** Total records. */
  result: number;
  /** Records per page. */
  perpage: number;
  /** This page. */
  currentpage: number;
  /** `page + 1`, or null on the last page and when the collection is empty; past the end it is still `page + 1`. */
  nextpage: number | null;
  /** `ceil(total / limit)`, 0 when empty. */
  maxpage: number;
}

/** Cuts one page out of `items` and computes its numbers. */
export function paginate<T>(items: readonly T[], request: PageRequest): PageNumbers & { items: T[] } {
  const maxpage = Math.ceil(items.length / request.limit);
  const start = (request.page - 1) * request.limit;
  return {
    result: items.length,
    perpage: request.limit,
    currentpage: request.page,
    nextpage: maxpage === 0 || request.page === maxpage ? null : request.page + 1,
    maxpage,
    items: start < items.length ? items.slice(start, start + request.limit) : [],
  };
}

/** The paged answer `{ error: "0", data: { result, perpage, currentpage, nextpage, maxpage, <key>: [...] } }`. */
export function pagedResponse<T>(key: string, items: readonly T[], request: PageRequest): MockResponse {
  const { items: page, ...numbers } = paginate(items, request);
  return json(200, { error: '0', data: { ...numbers, [key]: page } });
}
