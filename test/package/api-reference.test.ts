// The API reference as `npm run docs` builds it (typedoc, read here as its JSON output): what a user reads there, and
// in an editor's hover, which shows the same TSDoc.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import * as schemas from '../../src/schemas/public-schemas.js';
import { runCommand } from '../runtimes/support/runtime-install.js';
import { root } from './support/newcomer-project.js';

/** The parts of typedoc's JSON output read here. */
interface Reflection {
  id: number;
  name: string;
  kind: number;
  comment?: { summary: { text: string }[]; blockTags?: { content: { text: string }[] }[] };
  children?: Reflection[];
  signatures?: Reflection[];
  parameters?: Reflection[];
  extendedTypes?: { name: string; target: unknown }[];
  inheritedFrom?: { name: string; target: unknown };
  overwrites?: { name: string; target: unknown };
  type?: { typeArguments?: { declaration?: Reflection }[] };
}

const CLASS = 128;
const VARIABLE = 32;

let out: string;
let project: Reflection;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'linkgate-api-reference-'));
  const typedoc = join(root, 'node_modules', 'typedoc', 'bin', 'typedoc');
  const json = join(out, 'api.json');
  const run = await runCommand(process.execPath, [typedoc, '--out', join(out, 'html'), '--json', json], {
    cwd: root,
    env: process.env,
    timeoutMs: 240_000,
  });
  if (run.code !== 0) throw new Error(`typedoc failed (${run.code}):\n${run.stdout}\n${run.stderr}`);
  project = JSON.parse(readFileSync(json, 'utf8')) as Reflection;
}, 300_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Every reflection of the reference, with the path of names that leads to it. */
function* reflections(node: Reflection, path = ''): Generator<[string, Reflection]> {
  yield [path, node];
  const kids = [
    ...(node.children ?? []),
    ...(node.signatures ?? []),
    ...(node.parameters ?? []),
    ...(node.type?.typeArguments ?? []).flatMap((t) => (t.declaration ? [t.declaration] : [])),
  ];
  for (const kid of kids) yield* reflections(kid, `${path}/${kid.name}`);
}

/** A reflection's comment as plain text. */
const commentText = (r: Reflection) =>
  [...(r.comment?.summary ?? []), ...(r.comment?.blockTags ?? []).flatMap((t) => t.content)]
    .map((part) => part.text)
    .join('');

describe('the API reference', () => {
  it('names the project apart from its first module, so the sidebar does not read "linkgate > linkgate"', () => {
    const modules = (project.children ?? []).map((m) => m.name);
    expect(modules).toContain('linkgate');
    expect(modules).not.toContain(project.name);
  });

  it("shows no class's hierarchy through a class the reference does not document (APIClient)", () => {
    const unlinked = [...reflections(project)]
      .filter(([, r]) => r.kind === CLASS)
      .flatMap(([path, r]) =>
        (r.extendedTypes ?? [])
          .filter(
            (t) => typeof t.target === 'object' && (t.target as { packageName?: string }).packageName === 'linkgate',
          )
          .map((t) => `${path} extends ${t.name}`),
      );
    const inherited = [...reflections(project)]
      .filter(
        ([, r]) => r.inheritedFrom && (r.inheritedFrom.target === -1 || typeof r.inheritedFrom.target !== 'number'),
      )
      .map(([path, r]) => `${path} inherited from ${r.inheritedFrom!.name}`);
    expect(unlinked).toEqual([]);
    expect(inherited).toEqual([]);
    // The page as a reader sees it: no hierarchy, "Inherited from" or "Overrides" naming the internal client.
    for (const page of ['linkgate.Linkgate.html', 'linkgate.MessagingClient.html']) {
      expect(readFileSync(join(out, 'html', 'classes', page), 'utf8')).not.toContain('APIClient');
    }
  });

  it('shows users no build notes: how the declaration bundler or chunks work, or which test keeps what', () => {
    const buildNote = /declaration bundler|\bchunks?\b|\btsup\b|\brollup\b|(?:^|[\s`(])test\/|\.test(?:-d)?\.ts/i;
    const notes = [...reflections(project)]
      .filter(([, r]) => buildNote.test(commentText(r)))
      .map(([path, r]) => `${path}: ${commentText(r).slice(0, 120)}`);
    expect(notes).toEqual([]);
  });

  // Every rule a body field's schema states (length, pattern, one of a list) is said in the field's documentation.
  const bodies = Object.entries(schemas as Record<string, unknown>).filter(
    (entry): entry is [string, z.ZodType] =>
      /(?:Create|Update|Query)$|^SendMessage$/.test(entry[0]) &&
      (entry[1] as Partial<z.ZodType>)._zod?.def.type === 'object',
  );
  it.each(bodies)('documents the rule of every field of %s that has one', (name, schema) => {
    const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
      properties: Record<string, object>;
    };
    const variable = [...reflections(project)].find(([path, r]) => r.kind === VARIABLE && path.endsWith(`/${name}`));
    expect(variable, `${name} is in the reference`).toBeDefined();
    const fields = variable![1].type?.typeArguments?.[0]?.declaration?.children ?? [];
    const undocumented = Object.entries(json.properties).flatMap(([field, rules]) => {
      const text = JSON.stringify(rules);
      const limits = [...text.matchAll(/"(?:minLength|maxLength)":(\d+)/g)].map((m) => Number(m[1]));
      if (limits.length === 0 && !/"pattern"|"enum"|"exclusiveMinimum"/.test(text)) return [];
      const doc = fields.find((f) => f.name === field);
      const said = doc ? commentText(doc).replace(/(\d),(\d{3})/g, '$1$2') : '';
      const missing = limits.filter((n) => n > 1 && !said.includes(String(n)));
      return said === '' || missing.length > 0 ? [`${field} (${text}): "${said}"`] : [];
    });
    expect(undocumented).toEqual([]);
  });
});
