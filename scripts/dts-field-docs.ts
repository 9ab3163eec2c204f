// Part of `npm run build`, after tsup: puts the TSDoc of each request schema's fields (their rules: lengths, patterns,
// allowed values) back on those fields in dist/*.d.ts and *.d.cts. TypeScript's declaration emit drops comments of an
// inferred type, so without this an editor's hover on `body.domain` shows `string` and nothing else.
// Run: node --import tsx scripts/dts-field-docs.ts
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));

/** For each schema constant, the TSDoc of its fields as written in the source: schema name → field → comment. */
export type FieldDocs = Map<string, Map<string, string>>;

/** The `/** … *\/` comment attached to a node, if any, as written. */
function jsDocOf(node: ts.Node, source: ts.SourceFile): string | undefined {
  const docs = (node as { jsDoc?: ts.JSDoc[] }).jsDoc;
  const last = docs?.at(-1);
  return last ? source.text.slice(last.pos, last.end) : undefined;
}

/**
 * The documented fields of every `const X = lazy(() => z.object({ ... }))` or `const X = z.object({ ... })` (and of plain
 * object literals) in the given sources; a schema's fields include those it spreads (`...Group.shape`, `...group`).
 */
export function fieldDocsOf(sources: { file: string; text: string }[]): FieldDocs {
  const literals = new Map<string, ts.ObjectLiteralExpression>();
  const files = new Map<ts.ObjectLiteralExpression, ts.SourceFile>();
  for (const { file, text } of sources) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        let init = node.initializer;
        // A schema built on first use, `lazy(() => z.object({ ... }))`: its fields are those of the object.
        if (ts.isCallExpression(init) && init.expression.getText(source) === 'lazy') {
          const build = init.arguments[0];
          if (build && ts.isArrowFunction(build) && !ts.isBlock(build.body)) init = build.body;
        }
        if (ts.isCallExpression(init) && /\.object$/.test(init.expression.getText(source))) init = init.arguments[0]!;
        if (init && ts.isObjectLiteralExpression(init)) {
          literals.set(node.name.text, init);
          files.set(init, source);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const docsOf = (literal: ts.ObjectLiteralExpression, seen: Set<ts.Node>): Map<string, string> => {
    const fields = new Map<string, string>();
    if (seen.has(literal)) return fields;
    seen.add(literal);
    for (const property of literal.properties) {
      if (ts.isSpreadAssignment(property)) {
        const spread = literals.get(spreadName(property.expression));
        if (spread) for (const [name, doc] of docsOf(spread, seen)) fields.set(name, doc);
      } else if (property.name && ts.isIdentifier(property.name)) {
        const doc = jsDocOf(property, files.get(literal)!);
        if (doc) fields.set(property.name.text, doc);
      }
    }
    return fields;
  };
  const result: FieldDocs = new Map();
  for (const [name, literal] of literals) {
    const fields = docsOf(literal, new Set());
    if (fields.size > 0) result.set(name, fields);
  }
  return result;
}

/** The schema or group a spread names: `Group` in `...Group.shape`, `group` in `...group`. */
const spreadName = (spread: ts.Expression): string =>
  ts.isPropertyAccessExpression(spread) && spread.name.text === 'shape'
    ? spread.expression.getText()
    : spread.getText();

/** A comment re-indented for a member that starts at `indent`. */
const reindent = (doc: string, indent: string) =>
  doc
    .split('\n')
    .map((line, i) => (i === 0 ? line : `${indent} ${line.trimStart()}`))
    .join('\n');

/**
 * A declaration file with the fields of each `declare const X: z.ZodMiniObject<{ ... }>` documented from `docs`,
 * where X is a schema with documented fields and the field has no comment yet.
 */
export function withFieldDocs(file: string, text: string, docs: FieldDocs): string {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const edits: { at: number; insert: string }[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const fields = ts.isIdentifier(declaration.name) ? docs.get(declaration.name.text) : undefined;
      const literal = declaration.type && findTypeLiteral(declaration.type);
      if (!fields || !literal) continue;
      for (const member of literal.members) {
        const name = member.name && ts.isIdentifier(member.name) ? member.name.text : undefined;
        const doc = name ? fields.get(name) : undefined;
        if (!doc || jsDocOf(member, source)) continue;
        const start = member.getStart(source);
        const indent = text.slice(text.lastIndexOf('\n', start) + 1, start);
        edits.push({ at: start, insert: `${reindent(doc, indent)}\n${indent}` });
      }
    }
  }
  let out = text;
  for (const { at, insert } of edits.sort((a, b) => b.at - a.at)) out = out.slice(0, at) + insert + out.slice(at);
  return out;
}

/** The shape of `z.ZodMiniObject<{ ... }>`: its first type argument. */
function findTypeLiteral(type: ts.TypeNode): ts.TypeLiteralNode | undefined {
  if (!ts.isTypeReferenceNode(type) || !/Object$/.test(type.typeName.getText())) return undefined;
  const shape = type.typeArguments?.[0];
  return shape && ts.isTypeLiteralNode(shape) ? shape : undefined;
}

function main(): void {
  const schemas = join(root, 'src', 'schemas');
  const docs = fieldDocsOf(
    readdirSync(schemas)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => ({ file: f, text: readFileSync(join(schemas, f), 'utf8') })),
  );
  const dist = join(root, 'dist');
  let changed = 0;
  for (const file of readdirSync(dist).filter((f) => /\.d\.c?ts$/.test(f))) {
    const text = readFileSync(join(dist, file), 'utf8');
    const next = withFieldDocs(file, text, docs);
    if (next !== text) {
      writeFileSync(join(dist, file), next);
      changed++;
    }
  }
  console.log(`dts-field-docs: documented the fields of ${docs.size} schemas in ${changed} declaration files`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
