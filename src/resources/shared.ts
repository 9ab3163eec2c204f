import type * as z from 'zod/mini';
import type { RequestOptions, RequestSpec } from '../core/api-client.js';
import { validate } from '../core/validation.js';
import { CreatedEnvelope, MessageEnvelope } from '../schemas/envelope.js';
import { type CollectionKey, PageQuery, pagedEnvelope } from '../schemas/page.js';

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

/** Describes an update or delete call answered with `{ error: 0, message }`. */
export function messageCall(
  operation: string,
  method: 'PUT' | 'DELETE',
  path: string,
  body: unknown,
  options: RequestOptions | undefined,
): RequestSpec<typeof MessageEnvelope, ActionResult> {
  return {
    operation,
    method,
    path,
    body,
    schema: MessageEnvelope,
    select: (answer) => ({ message: answer.message ?? '' }),
    options,
  };
}

/** Describes a create call answered with `{ error: 0, id }`. */
export function createCall(
  operation: string,
  path: string,
  body: unknown,
  options: RequestOptions | undefined,
): RequestSpec<typeof CreatedEnvelope, Created> {
  return { operation, method: 'POST', path, body, schema: CreatedEnvelope, select: (a) => ({ id: a.id }), options };
}

/** Builds the per-page call of a paged list, validating the query once per page. */
export function pagedCall<T extends z.core.$ZodType>(
  operation: string,
  path: string,
  item: T,
  keys: readonly CollectionKey[],
  query: PageQuery | undefined,
  options: RequestOptions | undefined,
) {
  const schema = pagedEnvelope(item, keys);
  return (page: number | undefined) => {
    const checked = validate(PageQuery, { ...query, ...(page === undefined ? {} : { page }) }, operation, 'query');
    return {
      operation,
      method: 'GET' as const,
      path,
      query: { limit: checked.limit, page: checked.page },
      schema,
      select: (data: z.output<typeof schema>) => data,
      options,
    };
  };
}
