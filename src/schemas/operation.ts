// The shape of an operation declaration (one endpoint). The tables are ./operations.ts (management API) and
// ./messaging-operations.ts (messaging API): two modules, so an app using one client bundles one table.
import type * as z from 'zod/mini';

/**
 * One endpoint: how to call it, what the service accepts and answers, and what the SDK hands back. The document's
 * own words (operationId, summary) are keyed by `id` in mock/openapi-operations.ts, out of the SDK's bundle.
 */
export interface Operation<R extends z.core.$ZodType = z.core.$ZodType, T = unknown, I extends string = string> {
  /** `<resource>.<method>` as the SDK names the call, e.g. `domains.update`; SDK errors and the mock's handlers use it. */
  id: I;
  /** HTTP method. */
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path template with `{name}` parameters (OpenAPI's form; the mock's router reads them as `:name`). */
  path: string;
  /** The group it belongs to in the document: the resource. */
  tag: string;
  /** Only admins may call it; production answers others with HTTP 403. @default false */
  admin?: boolean;
  /** The query parameters, with the rules checked before sending. */
  query?: z.core.$ZodType;
  /** The JSON body, with the rules the service applies (the SDK checks them before sending). */
  body?: z.core.$ZodType;
  /** A successful answer. */
  response: R;
  /** Picks the SDK's result out of a parsed answer. */
  select(answer: z.output<R>): T;
}

/**
 * Declares an operation: the identity, there so `select`'s argument is inferred from `response` and `id` stays
 * literal for the mock's handler tables.
 */
export const operation = <R extends z.core.$ZodType, T, const I extends string>(op: Operation<R, T, I>) => op;

/** Fills the `{name}` parameters of `template` with already checked values: `/api/qr/{id}` -> `/api/qr/3`. */
export function fillPath(template: string, values: Readonly<Record<string, number | string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
}
