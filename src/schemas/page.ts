import * as z from 'zod/mini';
import { lazy } from './lazy.js';
import { Count } from './primitives.js';
import { integer, positive } from './rules.js';

/** Collection member names of the paged envelope (spec, Pagination envelope); `overlay` is a production variant of `cta`. */
export type CollectionKey = 'domains' | 'splash' | 'cta' | 'overlay' | 'pixels' | 'qrs';

/** The paging numbers of a paged envelope, read tolerantly (numeric strings, `nextpage` null). */
export const PageMeta = /* @__PURE__ */ lazy(() =>
  z.looseObject({
    result: Count,
    perpage: Count,
    currentpage: Count,
    nextpage: z.optional(z.nullable(Count)),
    maxpage: Count,
  }),
);

/** A page as the SDK hands it on: paging numbers plus the records, whatever the collection was called on the wire. */
export interface PageData<T> {
  /** Total number of records across all pages (`result`). */
  total: number;
  /** Records per page (`perpage`). */
  perPage: number;
  /** This page's number, 1-based (`currentpage`). */
  page: number;
  /** The next page's number, or null when this is the last (`nextpage`). */
  nextPage: number | null;
  /** The last page's number, 0 when the collection is empty (`maxpage`). */
  maxPage: number;
  /** The records on this page. */
  items: T[];
}

/**
 * The paged envelope `{ error: "0", data: { result, perpage, currentpage, nextpage, maxpage, <collection>: [...] } }`,
 * read into a {@link PageData}. `keys` lists the accepted collection names; the first present wins.
 */
export function pagedEnvelope<T extends z.core.$ZodType>(item: T, keys: readonly CollectionKey[]) {
  const shape: Record<string, z.core.$ZodType> = {};
  for (const key of keys) shape[key] = z.optional(z.array(item));
  return z.pipe(
    z.looseObject({ error: Count, data: z.looseObject({ ...PageMeta.shape, ...shape }) }),
    z.transform((envelope, ctx): PageData<z.output<T>> => {
      const data = envelope.data as z.output<typeof PageMeta> & Record<string, unknown>;
      const key = keys.find((k) => Array.isArray(data[k]));
      if (!key) {
        ctx.issues.push({
          code: 'custom',
          message: `expected a collection named ${keys.join(' or ')} in data`,
          input: data,
          path: ['data'],
        });
        return z.NEVER;
      }
      // In the order a Page shows its fields.
      return {
        items: data[key] as z.output<T>[],
        page: data.currentpage,
        perPage: data.perpage,
        total: data.result,
        maxPage: data.maxpage,
        nextPage: data.nextpage ?? null,
      };
    }),
  );
}

/** Paging query of list calls: `limit` records per page (default 15) and 1-based `page` (default 1). */
export const PageQuery = /* @__PURE__ */ lazy(() =>
  z.object({
    /** Items per page: a positive integer. */
    limit: z.optional(integer().check(positive('must be a positive integer'))),
    /** The page to read, from 1: a positive integer. */
    page: z.optional(integer().check(positive('must be a positive integer'))),
  }),
);
/** Paging query of list calls. */
export type PageQuery = z.infer<typeof PageQuery>;
