// Every operation and every body field of the management and messaging APIs, read from the OpenAPI document the
// running mock serves (built from the shared schemas), with a fast-check arbitrary of valid values for each: the
// fuzz covers whatever the API declares, and a new field is fuzzed without editing the suite.
import fc from 'fast-check';

type Schema = Record<string, unknown>;

/** A parameter of an operation, in its path or its query. */
export interface Parameter {
  name: string;
  in: 'path' | 'query';
  schema: Schema;
}

/** One body shape of an operation (an `anyOf` at the top gives several, e.g. one per QR type). */
export interface BodyVariant {
  /** `default`, or the value of the variant's `type` constant. */
  name: string;
  schema: Schema;
  /** Dotted paths of every field, nested ones included (`data.email`). */
  fields: string[];
}

/** One operation of the document. */
export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path template, e.g. `/api/qr/{id}/update`. */
  path: string;
  parameters: Parameter[];
  variants: BodyVariant[];
  /** Which key the operation takes (`none` for public paths such as media). */
  security: 'apiKey' | 'messagingKey' | 'controlToken' | 'none';
}

/** The document's operations with their body fields resolved. */
export function operationsOf(doc: {
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, Schema> };
}): Operation[] {
  const resolve = (s: Schema): Schema => {
    const ref = s.$ref as string | undefined;
    return ref ? resolve(doc.components.schemas[ref.split('/').pop()!]!) : s;
  };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      const op = raw as Schema;
      if (!['get', 'post', 'put', 'delete'].includes(method) || !op.responses) continue;
      const bodySchema = (op.requestBody as Schema | undefined)?.content as
        | Record<string, { schema: Schema }>
        | undefined;
      const body = bodySchema?.['application/json']?.schema;
      const variants: BodyVariant[] = [];
      if (body) {
        const top = resolveDeep(resolve(body), resolve);
        const alternatives = (top.anyOf as Schema[] | undefined) ?? [top];
        for (const alt of alternatives) {
          const typeConst = ((alt.properties as Record<string, Schema> | undefined)?.type as Schema | undefined)?.const;
          variants.push({
            name: typeof typeConst === 'string' ? typeConst : 'default',
            schema: alt,
            fields: fieldPaths(alt),
          });
        }
      }
      const scheme = Object.keys((op.security as Record<string, unknown>[] | undefined)?.[0] ?? {})[0];
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        parameters: ((op.parameters as Parameter[] | undefined) ?? []).map((p) => ({
          ...p,
          schema: resolveDeep(p.schema, resolve),
        })),
        variants,
        security: scheme === 'messagingKey' || scheme === 'controlToken' || scheme === 'apiKey' ? scheme : 'none',
      });
    }
  }
  return operations;
}

/** A copy of `schema` with every `$ref` replaced by what it points at. */
function resolveDeep(schema: Schema, resolve: (s: Schema) => Schema): Schema {
  const s = resolve(schema);
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties') {
      out[k] = Object.fromEntries(
        Object.entries(v as Record<string, Schema>).map(([n, p]) => [n, resolveDeep(p, resolve)]),
      );
    } else if (k === 'anyOf' || k === 'oneOf') out[k] = (v as Schema[]).map((p) => resolveDeep(p, resolve));
    else out[k] = v;
  }
  return out;
}

/** Dotted paths of the object fields a schema declares, descending into object-shaped alternatives. */
function fieldPaths(schema: Schema, prefix = ''): string[] {
  const props = schema.properties as Record<string, Schema> | undefined;
  const paths: string[] = [];
  for (const [name, prop] of Object.entries(props ?? {})) {
    const path = prefix + name;
    paths.push(path);
    for (const alt of [prop, ...((prop.anyOf as Schema[] | undefined) ?? [])]) {
      for (const nested of fieldPaths(alt, `${path}.`)) if (!paths.includes(nested)) paths.push(nested);
    }
  }
  return paths;
}

// Field names whose plain `string` type says less than the mock's rules: a valid value needs the right shape.
const FIELD_HINTS: Record<string, () => fc.Arbitrary<unknown>> = {
  domain: () => fc.domain().map((d) => `https://go.${d}`),
  redirectroot: () => fc.webUrl({ validSchemes: ['https'] }),
  redirect404: () => fc.webUrl({ validSchemes: ['https'] }),
  email: () => fc.emailAddress(),
  username: () => fc.stringMatching(/^[a-z][a-z0-9]{3,15}$/),
  password: () => fc.stringMatching(/^[A-Za-z0-9]{10,20}$/),
  device_id: () => fc.constantFrom('phone-1', 'auto'),
  name: () => fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,30}$/),
  tag: () => fc.stringMatching(/^[A-Za-z0-9-]{4,20}$/),
};

/** Valid values for `schema` (the field named `name`, for the hints). */
export function validValue(schema: Schema, name = ''): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (alternatives) return fc.oneof(...alternatives.map((a) => validValue(a, name)));
  const hint = FIELD_HINTS[name];
  if (hint && schema.type !== 'object') return hint();
  switch (schema.type) {
    case 'string':
      if (typeof schema.pattern === 'string')
        return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length < 200);
      if (schema.format === 'uri') return fc.webUrl({ validSchemes: ['https'] });
      return fc.string({ minLength: (schema.minLength as number | undefined) ?? 0, maxLength: 40 });
    case 'integer': {
      // Small values inside the field's own range (a fault's status starts at 400).
      const min = Math.max(1, (schema.minimum as number | undefined) ?? 1);
      return fc.integer({
        min,
        max: Math.max(min, Math.min((schema.maximum as number | undefined) ?? min + 2, min + 2)),
      });
    }
    case 'boolean':
      return fc.boolean();
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [n, p] of Object.entries(props)) record[n] = validValue(p, n);
      return fc.record(record, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
    }
    default:
      return fc.string({ maxLength: 20 });
  }
}
