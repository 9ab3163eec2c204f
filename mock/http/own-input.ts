// The input of the mock's own endpoints, declared in zod like the product's operations (src/schemas/), but here in
// mock/ so no SDK bundle carries it. Each field's error is the control API's wording: a bad field answers 400 with
// `{ field, rule }` and the message `<field> <rule>` (GatewayInputError), the same words the gateway's own checks use.
import * as z from 'zod/mini';
import { GatewayInputError } from '../shared/gateway-input-error.js';

/** A JSON object of the mock's own input: the fields it reads are checked, any others are let through. */
export type OwnInput = z.ZodMiniType<Record<string, unknown>, Record<string, unknown>>;

/** An object body: its fields checked, unknown ones let through (the control API has always ignored extras). */
export const input = <S extends Record<string, z.core.$ZodType>>(fields: S, description?: string) =>
  z.looseObject(fields).check(z.meta(description ? { description } : {}));

/** What a string field's row may add: a format and default for the document, the gateway's wording of its rule. */
interface TextOptions {
  format?: string;
  default?: string;
  /** The rule a value of another type breaks. @default 'must be a string' */
  error?: string;
}

const described = (description: string | undefined, { format, default: fallback }: TextOptions) =>
  z.meta({ ...(description && { description }), ...(format && { format }), ...(fallback && { default: fallback }) });

/** An optional string. */
export const text = (description?: string, options: TextOptions = {}) =>
  z.optional(z.string({ error: options.error ?? 'must be a string' }).check(described(description, options)));

/** A required string (missing: `is required and must be a string`, as the gateway's own checks word it). */
export const requiredText = (description?: string, options: TextOptions = {}) =>
  z
    .string({
      error: (issue) =>
        options.error ?? (issue.input === undefined ? 'is required and must be a string' : 'must be a string'),
    })
    .check(described(description, options));

/**
 * A body whose rows another module checks with rules of its own (the fixture's and the snapshot's, by the store's
 * rules): any JSON object passes here; `documented` is what the document shows.
 */
export const checkedElsewhere = (documented: z.core.$ZodType) => {
  const schema = z.looseObject({}).check(z.meta(inputJsonSchema(documented)));
  passedAsSent.add(schema);
  return schema;
};

/** Bodies the handler gets as sent: zod's copy would drop an own `__proto__` key the handler's own rules refuse. */
const passedAsSent = new WeakSet<z.core.$ZodType>();

/** An optional boolean. */
export const flag = (description?: string) =>
  z.optional(z.boolean({ error: 'must be a boolean' }).check(z.meta(description ? { description } : {})));

/** A whole number from `min` to `max`; `required` words the rule for a missing one. */
export function whole(min: number, max: number, description?: string, required?: string) {
  const rule = `must be an integer from ${min} to ${max}`;
  const schema = z
    .int({ error: (issue) => (issue.input === undefined && required ? required : rule) })
    .check(z.gte(min, { error: rule }), z.lte(max, { error: rule }), z.meta(description ? { description } : {}));
  return schema;
}

/** A value out of `values`: optional (with the document's `fallback`), or required with `missing` as the rule. */
export function oneOf<const T extends readonly [string, ...string[]]>(
  values: T,
  description?: string,
  { fallback, missing }: { fallback?: T[number]; missing?: string } = {},
) {
  const rule = `must be one of ${values.join(', ')}`;
  const schema = z
    .enum(values, { error: (issue) => (issue.input === undefined && missing ? missing : rule) })
    .check(z.meta({ ...(description && { description }), ...(fallback && { default: fallback }) }));
  return missing ? schema : z.optional(schema);
}

/** `users[1].email` from a zod path. */
function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (name, key) => (typeof key === 'number' ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)),
    '',
  );
}

/**
 * Checks `body` against an endpoint's declared input: the parsed value, or a GatewayInputError naming the first bad
 * field and its rule. A `null` field reads as not sent, as in the product's APIs.
 */
export function parseOwnInput(schema: z.core.$ZodType, body: Record<string, unknown>): Record<string, unknown> {
  const sent = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null));
  const result = z.safeParse(schema, sent);
  if (result.success) return passedAsSent.has(schema) ? sent : (result.data as Record<string, unknown>);
  const issue = result.error.issues[0]!;
  // Unions report their own issue; its message is the rule the row gave the union.
  throw new GatewayInputError(fieldName(issue.path) || 'body', issue.message);
}

/**
 * The JSON Schema of a declared input (or, with `io: 'output'`, an answer) for the OpenAPI document. A whole number
 * is written without the safe-integer bounds zod adds: they say nothing a reader needs.
 */
export function inputJsonSchema(schema: z.core.$ZodType, io: 'input' | 'output' = 'input'): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    override: ({ jsonSchema }) => {
      if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    },
  }) as Record<string, unknown>;
  return rest;
}
