import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../mock/openapi/openapi-document.js';

// Issue 16: `null` for an optional field means "not sent". The mock's answers are compared over HTTP in
// test/e2e/real-clients-null-fields.test.ts; here, the document other languages generate their clients from.
type JsonSchema = {
  $ref?: string;
  anyOf?: JsonSchema[];
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

const REQUEST_BODIES = [
  'AccountUpdate',
  'DomainCreate',
  'DomainUpdate',
  'PixelCreate',
  'PixelUpdate',
  'QrCreate',
  'QrUpdate',
  'PlanSubscription',
  'UserCreate',
];

describe('the OpenAPI document', () => {
  const { components } = buildOpenApiDocument();
  const schemas = components.schemas as Record<string, JsonSchema>;
  const resolve = (s: JsonSchema): JsonSchema =>
    s.$ref ? resolve(schemas[s.$ref.split('/').at(-1) as string] ?? {}) : s;
  const objectsIn = (s: JsonSchema): JsonSchema[] =>
    resolve(s).anyOf ? (resolve(s).anyOf ?? []).flatMap(objectsIn) : resolve(s).type === 'object' ? [resolve(s)] : [];
  const acceptsNull = (s: JsonSchema): boolean =>
    s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null')) || (s.anyOf ?? []).some(acceptsNull);

  it.each(REQUEST_BODIES)('lets every optional field of %s (nested ones too) be null', (name) => {
    const optional: string[] = [];
    const visit = (schema: JsonSchema, path: string) => {
      for (const object of objectsIn(schema)) {
        for (const [field, value] of Object.entries(object.properties ?? {})) {
          const at = path ? `${path}.${field}` : field;
          if (!object.required?.includes(field)) {
            optional.push(at);
            expect(acceptsNull(value), `${name}: ${at} accepts null`).toBe(true);
          }
          visit(value, at);
        }
      }
    };
    visit(schemas[name] as JsonSchema, '');
    if (name !== 'PixelCreate') expect(optional.length).toBeGreaterThan(0);
  });

  it('keeps required fields non-null: a null there is a missing field', () => {
    const domain = schemas.DomainCreate as JsonSchema;
    expect(domain.required).toContain('domain');
    expect(acceptsNull(domain.properties?.domain ?? {})).toBe(false);
  });
});
