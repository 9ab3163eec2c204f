// How the mock declares its own endpoints (the `/__mock/` control API, stored media, QR images, the document): one row
// each, read by the routes (method, path, status, and the body they parse) and by the OpenAPI builder (the rest), so
// the two cannot drift.
import type * as z from 'zod/mini';
import { routerPath } from './operation-route.js';
import { inputJsonSchema } from './own-input.js';

/** A JSON value of the OpenAPI document. */
export type Json = { [key: string]: unknown };

/** One of the mock's own endpoints, declared once. */
export interface OwnOperation<I extends string = string> {
  /** The document's operationId, e.g. `setWebhook`; the control routes' handlers are keyed by it. */
  id: I;
  /** HTTP method. */
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path template with `{name}` parameters (OpenAPI's form; the router reads them as `:name`). */
  path: string;
  /** The document's one-line summary. */
  summary: string;
  /** The group it belongs to in the document. */
  tag: string;
  /** Needs the control token (`Authorization: Bearer <control token>`). */
  token: boolean;
  /** The status of a successful answer. */
  status: 200 | 201;
  /** Its path parameters, in zod (each a string): the route parses them, the document lists them. */
  params?: z.core.$ZodType;
  /** Its query parameters, in zod (each a string): the route parses them, the document lists them. */
  query?: z.core.$ZodType;
  /**
   * The JSON body it reads, in zod (mock/http/own-input.ts): the route parses every request with it, the document
   * shows its JSON Schema. Optional in every control request.
   */
  body?: z.core.$ZodType;
  /** The document's answers by status. */
  responses: Record<string, unknown>;
  /** What the control API's index (`GET /__mock/`) adds after method and path: a query or the body's fields. */
  hint?: string;
}

/** `{ 'application/json': { schema } }`. */
export const json = (schema: unknown) => ({ 'application/json': { schema } });

/** An object schema that allows more properties. */
export const object = (properties: Record<string, unknown>, required: string[] = [], description?: string): Json => ({
  type: 'object',
  ...(description && { description }),
  properties,
  ...(required.length > 0 && { required }),
  additionalProperties: {},
});

/** A string schema. */
export const str = (description?: string, extra: Json = {}): Json => ({
  type: 'string',
  ...(description && { description }),
  ...extra,
});

/** An integer schema. */
export const int = (description?: string, extra: Json = {}): Json => ({
  type: 'integer',
  ...(description && { description }),
  ...extra,
});

/** A boolean schema. */
export const bool = (description?: string): Json => ({ type: 'boolean', ...(description && { description }) });

/** An array schema. */
export const list = (items: unknown, description?: string): Json => ({
  type: 'array',
  items,
  ...(description && { description }),
});

/** Any object, described. */
export const anyObject = (description: string): Json => ({ type: 'object', description, additionalProperties: {} });

/** The router path of an own operation: `/__mock/keys/{id}` -> `/__mock/keys/:id`. */
export const ownRoutePath = (op: Pick<OwnOperation, 'path'>): string => routerPath(op.path);

/** The operation object of the OpenAPI document for `op`. */
export function openApiOperation(op: OwnOperation): Json {
  return {
    operationId: op.id,
    summary: op.summary,
    tags: [op.tag],
    // A public endpoint says so (an empty list): one with no `security` at all reads to linters as forgotten.
    security: op.token ? [{ controlToken: [] }] : [],
    ...((op.params || op.query) && {
      parameters: [...parametersOf(op.params, 'path'), ...parametersOf(op.query, 'query')],
    }),
    ...(op.body && { requestBody: { required: false, content: json(inputJsonSchema(op.body)) } }),
    responses: op.responses,
  };
}

/** The document's parameters of a declared path or query: one per field, its description lifted beside its schema. */
function parametersOf(schema: z.core.$ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  const properties = (inputJsonSchema(schema).properties ?? {}) as Record<string, Json>;
  return Object.entries(properties).map(([name, { description, ...rest }]) => ({
    name,
    in: where,
    ...(where === 'path' && { required: true }),
    ...(description !== undefined && { description }),
    schema: rest,
  }));
}
