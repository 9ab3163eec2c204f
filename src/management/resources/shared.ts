import type * as z from 'zod/mini';
import type { APIClient, RequestOptions, RequestSpec } from '../../core/api-client.js';
import { APIPromise } from '../../core/api-promise.js';
import { LinkgateError } from '../../core/errors.js';
import { Page, type PageFetcher, PagePromise } from '../../core/pagination.js';
import { validate, validateId } from '../../core/validation.js';
import type { Operation } from '../../schemas/operation.js';
import type { PageData, PageQuery } from '../../schemas/page.js';

/** The answer of update and delete calls: the service's confirmation message. */
export interface ActionResult {
  /** e.g. `Domain has been updated successfully.` */
  message: string;
}

/** The answer of create calls that return only the new id. */
export interface Created {
  /** The new record's id. */
  id: number;
}

/** What one call of an operation carries besides the operation itself. */
export interface CallParts {
  /** Path parameters by their name in the template (`{ id }`), checked to be positive integers. */
  path?: Readonly<Record<string, unknown>>;
  /** Query parameters, checked against the operation's query rules. */
  query?: unknown;
  /** The body, checked against the operation's body rules. */
  body?: unknown;
  /** Per-call options. */
  options?: RequestOptions | undefined;
}

/**
 * Describes one call of `op` for the client: the path filled in, the query and body checked against the
 * operation's rules (throwing a ValidationError before anything is sent), the answer read with its response schema.
 */
export function callOf<R extends z.core.$ZodType, T>(op: Operation<R, T>, parts: CallParts): RequestSpec<R, T> {
  return {
    operation: op.id,
    method: op.method,
    route: op.path,
    // Each path parameter is checked, in the template's order, before the query and the body.
    path: op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      // The SDK's argument name: the template's with a trailing `id` capitalised (`planid` is `planId`; `id` stays).
      String(validateId(parts.path?.[name], name.replace(/\Bid$/, 'Id'), op.id)),
    ),
    // Undefined when the operation takes none: the client then sends no query string and no body.
    query: op.query && (validate(op.query, parts.query ?? {}, op.id, 'query') as Record<string, string | number>),
    body: op.body && validate(op.bodyRules ?? op.body, parts.body, op.id, 'body'),
    schema: op.response,
    select: op.select,
    options: parts.options,
  };
}

/**
 * Sends a paged list call of `op`: per page, the query with the page asked for, checked once per page. Errors of a
 * page carry `page`, so the caller can resume with `list({ page })`. A function of the resources rather than a client
 * method, so a client without paged lists (MessagingClient) bundles none of the paging code.
 */
export function listOf<R extends z.core.$ZodType, T>(
  client: APIClient,
  op: Operation<R, PageData<T>>,
  query: PageQuery | undefined,
  options: RequestOptions | undefined,
): PagePromise<T> {
  const fetchPage: PageFetcher<T> = (page) =>
    new APIPromise(
      client
        .request(() => {
          const spec = callOf(op, { query: { ...query, ...(page === undefined ? {} : { page }) }, options });
          return { ...spec, select: (answer: z.output<R>) => new Page(spec.select(answer), fetchPage) };
        })
        .withResponse()
        .catch((error: unknown) => {
          // Only a real page number is a place to resume from; a bad `page` argument is reported, not echoed.
          if (error instanceof LinkgateError && (page === undefined || Number.isInteger(page))) error.page = page ?? 1;
          throw error;
        }),
    );
  return new PagePromise<T>(fetchPage(query?.page).withResponse());
}
