// scripts/dts-field-docs.ts finds the documented fields of every request schema, however the schema is built.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fieldDocsOf } from '../../scripts/dts-field-docs.js';
import { root } from './support/newcomer-project.js';

const schemas = join(root, 'src', 'schemas');
const docs = fieldDocsOf(
  readdirSync(schemas)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: f, text: readFileSync(join(schemas, f), 'utf8') })),
);

describe('the field docs put back on the shipped declarations', () => {
  it('reads a schema built on first use, its own fields and those of a schema it spreads (...QrAppearance.shape)', () => {
    const fields = docs.get('QrUpdate');
    expect([...(fields?.keys() ?? [])].sort()).toEqual(['background', 'data', 'foreground', 'logo', 'type']);
    expect(fields?.get('type')).toContain('QR_TYPES');
  });

  it('reads the fields of a body schema (DomainCreate)', () => {
    expect(docs.get('DomainCreate')?.get('domain')).toMatch(/^\/\*\*/);
  });
});
