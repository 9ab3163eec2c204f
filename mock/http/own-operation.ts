// How the mock declares its own endpoints (the `/__mock/` control API, stored media, QR images, the document): one row
// each, read by the routes (method, path, status, and the body they parse) and by the OpenAPI builder (the rest), so
// the two cannot drift.
import * as z from 'zod/mini';
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

/** `{ 'application/json': { schema } }`; a zod schema is rendered when the document is built. */
export const json = (schema: unknown) => ({ 'application/json': { schema } });

/** Words for the document, as zod metadata (`description`, `default`, `contentSchema`...). */
const words = (description?: string, extra: Json = {}) => z.meta({ ...(description && { description }), ...extra });

/** An object of an answer: fields not in `required` optional, more fields allowed (tolerant readers). */
export const object = (
  properties: Record<string, z.core.$ZodType>,
  required: string[] = [],
  description?: string,
): z.core.$ZodType =>
  z
    .looseObject(
      Object.fromEntries(
        Object.entries(properties).map(([name, schema]) => [
          name,
          required.includes(name) ? schema : z.optional(schema),
        ]),
      ),
    )
    .check(words(description));

/** A string. */
export const str = (description?: string, extra: Json = {}) => z.string().check(words(description, extra));

/** A whole number. */
export const int = (description?: string) => z.int().check(words(description));

/** A boolean. */
export const bool = (description?: string) => z.boolean().check(words(description));

/** A list of `items`. */
export const list = (items: z.core.$ZodType, description?: string) => z.array(items).check(words(description));

/** Any object, described. */
export const anyObject = (description: string) => z.looseObject({}).check(words(description));

/** A component of the document by name, e.g. `ControlError`. */
export const component = (name: string) => z.unknown().check(z.meta({ $ref: `#/components/schemas/${name}` }));

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
    responses: rendered(op.responses),
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

/**
 * Whether a value is a zod schema. Told by zod's own marker, not `instanceof z.core.$ZodType`: reading `z.core` at run
 * time keeps zod's whole core namespace, every locale included (~350 KB), in the self-contained CLI.
 */
const isZodSchema = (value: unknown): value is z.core.$ZodType =>
  typeof value === 'object' && value !== null && '_zod' in value;

/** The answers with each zod schema of their content rendered as JSON Schema. */
function rendered(responses: Record<string, unknown>): Json {
  return Object.fromEntries(
    Object.entries(responses).map(([status, answer]) => {
      const { content, ...rest } = answer as { content?: Record<string, { schema: unknown }> };
      if (!content) return [status, answer];
      const media = Object.entries(content).map(([type, { schema }]) => [
        type,
        { schema: isZodSchema(schema) ? inputJsonSchema(schema, 'output') : schema },
      ]);
      return [status, { ...rest, content: Object.fromEntries(media) }];
    }),
  );
}
