// The shape of an operation declaration (one endpoint). The tables are ./operations.ts (management API) and
// ./messaging-operations.ts (messaging API): two modules, so an app using one client bundles one table.
import type * as z from 'zod/mini';

/**
 * One endpoint: how to call it, what the service accepts and answers, and what the SDK hands back. The document's
 * own words (operationId, summary) are keyed by `id` in mock/openapi/operation-words.ts, out of the SDK's bundle.
 */
export interface Operation<R extends z.core.$ZodType = z.core.$ZodType, T = unknown, I extends string = string> {
  /** `<resource>.<method>` as the SDK names the call, e.g. `domains.update`; SDK errors and the mock's handlers use it. */
  id: I;
  /** HTTP method. */
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path template with `{name}` parameters (OpenAPI's form; the mock's router reads them as `:name`). */
  path: string;
  /** The group it belongs to in the document. @default the resource: `id` up to its dot (`domains`) */
  tag?: string;
  /** Only admins may call it; production answers others with HTTP 403. @default false */
  admin?: boolean;
  /** The query parameters, with the rules checked before sending. */
  query?: z.core.$ZodType;
  /** The JSON body the service reads (`null` fields read as not sent): what the document describes. */
  body?: z.core.$ZodType;
  /**
   * The service's further rules on the body (formats, lengths) that it answers with its own messages, when `body`
   * alone does not state them: the SDK checks these before sending. @default body
   */
  bodyRules?: z.core.$ZodType;
  /** A successful answer. */
  response: R;
  /** Picks the SDK's result out of a parsed answer. */
  select(answer: z.output<R>): T;
}

/**
 * Declares an operation: the identity, there so `select`'s argument is inferred from `response`, and `id`, `body`
 * and `query` keep their own types (the mock's handlers parse with the operation's own schemas).
 */
export const operation = <
  R extends z.core.$ZodType,
  T,
  const I extends string,
  B extends z.core.$ZodType | undefined = undefined,
  Q extends z.core.$ZodType | undefined = undefined,
>(
  op: Operation<R, T, I> & { body?: B; query?: Q },
) => op as Operation<R, T, I> & { body: B; query: Q };

/** The group an operation belongs to in the document: its `tag`, or its resource (`id` up to the dot). */
export function tagOf(op: Pick<Operation, 'id' | 'tag'>): string {
  return op.tag ?? op.id.slice(0, op.id.indexOf('.'));
}
