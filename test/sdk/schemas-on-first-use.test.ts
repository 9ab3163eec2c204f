import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Domain, DomainCreate, QrCreate, User } from 'linkgate/schemas';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { lazy } from '../../src/schemas/lazy.js';

const schemaFolder = fileURLToPath(new URL('../../src/schemas/', import.meta.url));
// The webhook payloads are the receiver's (linkgate/webhooks), which parses one of them per delivery from the first on.
const RECEIVER_MODULES = new Set(['events.ts']);

describe('schemas are built on first use, not when linkgate is imported', () => {
  it('builds a stand-in on the first read of any of its properties, once', () => {
    let builds = 0;
    const schema = lazy(() => {
      builds++;
      return z.object({ id: z.number() });
    });
    expect(builds).toBe(0);
    expect(schema.parse({ id: 1 })).toEqual({ id: 1 });
    expect(schema.safeParse({ id: 'x' }).success).toBe(false);
    expect(builds).toBe(1);
  });

  it('a build that throws throws at the read, and is tried again at the next', () => {
    let attempts = 0;
    const schema = lazy<z.ZodMiniString>(() => {
      attempts++;
      if (attempts === 1) throw new Error('not yet');
      return z.string();
    });
    expect(() => schema.parse('a')).toThrow('not yet');
    expect(schema.parse('a')).toBe('a');
  });

  it('no schema module constructs anything at import: each top-level value that calls a function is a lazy(...)', () => {
    const eager: string[] = [];
    for (const file of readdirSync(schemaFolder).filter((f) => f.endsWith('.ts') && !RECEIVER_MODULES.has(f))) {
      const source = ts.createSourceFile(file, readFileSync(schemaFolder + file, 'utf8'), ts.ScriptTarget.Latest, true);
      for (const statement of source.statements) {
        if (!ts.isVariableStatement(statement)) continue;
        for (const declaration of statement.declarationList.declarations) {
          const value = declaration.initializer;
          if (!value || ts.isArrowFunction(value) || ts.isFunctionExpression(value)) continue;
          const isLazy = ts.isCallExpression(value) && value.expression.getText(source) === 'lazy';
          if (!isLazy && containsCall(value)) eager.push(`${file}: ${declaration.name.getText(source)}`);
        }
      }
    }
    expect(eager).toEqual([]);
  });
});

describe('linkgate/schemas hands out schemas that work as zod schemas', () => {
  it('parses, and reports issues by field', () => {
    expect(Domain.parse({ id: 1, domain: 'https://go.example.com' })).toMatchObject({ id: 1 });
    const checked = DomainCreate.safeParse({ domain: 42 });
    expect(checked.success).toBe(false);
    expect(checked.error?.issues[0]?.path).toEqual(['domain']);
  });

  it('nests in the app’s own schemas, and their fields spread through .shape', () => {
    const Page = z.object({ items: z.array(Domain), owner: z.optional(User) });
    expect(Page.parse({ items: [{ id: '7', domain: 'd' }] }).items[0]?.id).toBe(7);
    const WithNote = z.object({ ...DomainCreate.shape, note: z.string() });
    expect(Object.keys(WithNote.shape)).toEqual(['domain', 'redirectroot', 'redirect404', 'note']);
    expect(WithNote.safeParse({ domain: 'https://go.example.com', note: 'n' }).success).toBe(true);
  });

  it('is recognised by zod (instanceof, checks, JSON Schema)', () => {
    expect(DomainCreate).toBeInstanceOf(z.ZodMiniObject);
    expect(QrCreate).toBeInstanceOf(z.ZodMiniUnion);
    const Short = DomainCreate.check(z.refine((body) => body.domain.length < 40, 'too long'));
    expect(Short.safeParse({ domain: `https://${'a'.repeat(40)}.com` }).success).toBe(false);
    expect(z.toJSONSchema(DomainCreate, { io: 'input' })).toMatchObject({
      type: 'object',
      required: ['domain'],
      properties: { domain: { type: 'string', maxLength: 2048 } },
    });
  });
});

/** Whether evaluating `node` calls a function (a function or arrow inside it is not evaluated, so does not count). */
function containsCall(node: ts.Node): boolean {
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return false;
  if (ts.isCallExpression(node) || ts.isNewExpression(node)) return true;
  return ts.forEachChild(node, (child) => containsCall(child) || undefined) ?? false;
}
