// Writes src/webhooks/event-shapes.generated.ts: the event shapes of src/schemas/events.ts, read off the zod
// definitions and written out as plain data, which the browser receiver's validator (src/webhooks/event-validation.ts)
// interprets instead of running zod. The shapes stay written once, in events.ts; test/webhooks/event-shapes.test.ts
// regenerates the table and requires the committed file to match. Any construct this walk does not know stops it.
// Run: node scripts/with-node.mjs node --import tsx scripts/event-shapes.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as z from 'zod/mini';
import { EVENT_NAMES, EVENT_SCHEMAS, EventEnvelope } from '../src/schemas/events.js';
import { EVENT_REFINEMENTS } from '../src/shared/event-refinements.js';
import type { FieldShape, NumberCheck, ObjectShape, StringCheck } from '../src/webhooks/event-validation.js';

/** The generated module, from the repository root. */
export const EVENT_SHAPES_FILE = 'src/webhooks/event-shapes.generated.ts';

/** The command that regenerates it. */
export const EVENT_SHAPES_COMMAND = 'node scripts/with-node.mjs node --import tsx scripts/event-shapes.ts';

type Def = Record<string, unknown> & { type: string };

/** A schema's definition, refused unless it sets only `allowed` keys (an error map, coercion or the like would change results). */
function defOf(schema: z.core.$ZodType, where: string, allowed: string[]): Def {
  const def = schema._zod.def as unknown as Def;
  for (const key of Object.keys(def)) {
    if (!['type', ...allowed].includes(key)) throw new Error(`${where}: ${def.type} with "${key}" is not supported`);
  }
  return def;
}

/** A check's definition: a plain check without `when`, `abort` or its own error map (they change which issues follow). */
function checkDefOf(check: z.core.$ZodCheck, where: string, allowed: string[]): Record<string, unknown> {
  const def = check._zod.def as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(def)) {
    if (key === 'abort' && value === false) continue;
    if (!['check', 'type', ...allowed].includes(key)) throw new Error(`${where}: check "${def.check}" with "${key}"`);
  }
  return def;
}

const checksOf = (def: Def) => (def.checks ?? []) as z.core.$ZodCheck[];

function stringCheck(check: z.core.$ZodCheck, where: string): StringCheck {
  // `pattern` is the prefix as a regex, which zod derives for JSON Schema; the check itself tests startsWith.
  const def = checkDefOf(check, where, ['prefix', 'format', 'origin', 'pattern']);
  if (def.check === 'string_format' && def.format === 'starts_with' && typeof def.prefix === 'string') {
    return ['startsWith', def.prefix];
  }
  throw new Error(`${where}: string check "${String(def.check)}" (${String(def.format)}) is not supported`);
}

function numberCheck(check: z.core.$ZodCheck, where: string): NumberCheck {
  const def = checkDefOf(check, where, ['format', 'value', 'inclusive']);
  if (def.check === 'number_format') {
    // The format's range is zod's own (util.NUMBER_FORMAT_RANGES), not a copy.
    const format = String(def.format);
    const range = (z.core.util.NUMBER_FORMAT_RANGES as Record<string, [number, number]>)[format];
    if (!range) throw new Error(`${where}: number format "${format}" is not supported`);
    return ['format', format.includes('int') ? 'int' : 'number', range[0], range[1]];
  }
  if ((def.check === 'less_than' || def.check === 'greater_than') && typeof def.value === 'number') {
    return [def.check === 'less_than' ? 'max' : 'min', def.value, def.inclusive === true];
  }
  throw new Error(`${where}: number check "${String(def.check)}" is not supported`);
}

/** The shape of one field: `where` names it in errors. */
export function fieldShape(schema: z.core.$ZodType, where: string): FieldShape {
  const type = (schema._zod.def as { type: string }).type;
  switch (type) {
    case 'string':
      return ['string', ...checksOf(defOf(schema, where, ['checks'])).map((c) => stringCheck(c, where))];
    case 'number':
      return ['number', ...checksOf(defOf(schema, where, ['checks'])).map((c) => numberCheck(c, where))];
    case 'boolean':
      defOf(schema, where, []);
      return ['boolean'];
    case 'optional':
    case 'nullable':
      return [type, fieldShape(defOf(schema, where, ['innerType']).innerType as z.core.$ZodType, where)];
    case 'enum':
    case 'literal': {
      // Both accept exactly their values and raise the same invalid_value issue listing them.
      const def = defOf(schema, where, [type === 'enum' ? 'entries' : 'values']);
      const values = [...(schema._zod.values ?? [])];
      if (!values.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))) {
        throw new Error(`${where}: ${type} values other than strings and finite numbers are not supported`);
      }
      if (type === 'literal' && JSON.stringify(def.values) !== JSON.stringify(values)) throw new Error(where);
      return ['value', values as (string | number)[]];
    }
    case 'record': {
      const def = defOf(schema, where, ['keyType', 'valueType']);
      const keyType = defOf(def.keyType as z.core.$ZodType, `${where} (keys)`, []);
      const valueType = defOf(def.valueType as z.core.$ZodType, `${where} (values)`, []);
      if (keyType.type !== 'string' || valueType.type !== 'unknown') {
        throw new Error(`${where}: only record(string, unknown) is supported`);
      }
      return ['record'];
    }
    case 'object':
      return objectShape(schema, where);
    default:
      throw new Error(`${where}: zod type "${type}" is not supported`);
  }
}

/** The shape of an object: its fields, whether it keeps unknown keys (looseObject), and its refinement by name. */
export function objectShape(schema: z.core.$ZodType, where: string): ObjectShape {
  const def = defOf(schema, where, ['shape', 'catchall', 'checks']);
  const shape = def.shape as Record<string, z.core.$ZodType>;
  if (Object.getOwnPropertySymbols(shape).length > 0) throw new Error(`${where}: symbol keys are not supported`);
  const fields: Record<string, FieldShape> = {};
  for (const [key, field] of Object.entries(shape)) {
    if (key === '__proto__') throw new Error(`${where}: a __proto__ field is not supported`);
    fields[key] = fieldShape(field, `${where}.${key}`);
  }
  const catchall = def.catchall as z.core.$ZodType | undefined;
  if (catchall && defOf(catchall, `${where} (unknown keys)`, []).type !== 'unknown') {
    throw new Error(`${where}: only a catchall of unknown (looseObject) is supported`);
  }
  const checks = checksOf(def);
  if (checks.length > 1) throw new Error(`${where}: more than one object check is not supported`);
  return checks.length
    ? ['object', fields, catchall !== undefined, refinementName(checks[0]!, where)]
    : ['object', fields, catchall !== undefined];
}

/** The name under which EVENT_REFINEMENTS holds this refine's function, message and path. */
function refinementName(check: z.core.$ZodCheck, where: string): keyof typeof EVENT_REFINEMENTS {
  const def = checkDefOf(check, where, ['fn', 'error', 'path']) as { fn?: unknown; error?: () => unknown; path?: [] };
  for (const [name, refinement] of Object.entries(EVENT_REFINEMENTS)) {
    if (refinement.test !== def.fn) continue;
    if (def.error?.() !== refinement.message || JSON.stringify(def.path) !== JSON.stringify(refinement.path)) {
      throw new Error(`${where}: the refine with ${name}'s test must take its message and path too`);
    }
    return name as keyof typeof EVENT_REFINEMENTS;
  }
  throw new Error(`${where}: a refine whose function is not in src/shared/event-refinements.ts cannot be written out`);
}

/** The text of the generated module, from the schemas as loaded now. */
export function eventShapesModule(): string {
  const events = EVENT_NAMES.map(
    (name) => `  ${JSON.stringify(name)}: ${shapeText(objectShape(EVENT_SCHEMAS[name], name), 1)},`,
  );
  return `// Generated from src/schemas/events.ts by \`${EVENT_SHAPES_COMMAND}\`: do not edit.
// The browser receiver validates with these rows instead of zod (src/webhooks/event-validation.ts says how to read
// them); test/webhooks/event-shapes.test.ts fails when they no longer match the schemas.
import type { EventName } from '../schemas/events.js';
import type { ObjectShape } from './event-validation.js';

/** Each catalog event's shape, envelope and data. */
// biome-ignore format: generated
export const EVENT_SHAPES: { readonly [E in EventName]: ObjectShape } = {
${events.join('\n')}
};

/** The envelope of events outside the catalog. */
// biome-ignore format: generated
export const ENVELOPE_SHAPE: ObjectShape = ${shapeText(objectShape(EventEnvelope, 'envelope'), 0)};
`;
}

const inline = (node: unknown): string =>
  Array.isArray(node) ? `[${node.map(inline).join(', ')}]` : JSON.stringify(node);

/** A shape as source: each object one field a line, arrays without an object inside on one line. */
function shapeText(node: unknown, depth: number): string {
  const inner = '  '.repeat(depth + 1);
  const end = '  '.repeat(depth);
  if (!Array.isArray(node) && typeof node === 'object' && node !== null) {
    const lines = Object.entries(node).map(
      ([key, value]) => `${inner}${JSON.stringify(key)}: ${shapeText(value, depth + 1)},`,
    );
    return `{\n${lines.join('\n')}\n${end}}`;
  }
  if (!Array.isArray(node) || !JSON.stringify(node).includes('{')) return inline(node);
  return `[\n${node.map((part) => `${inner}${shapeText(part, depth + 1)},`).join('\n')}\n${end}]`;
}

function main(): void {
  writeFileSync(fileURLToPath(new URL(`../${EVENT_SHAPES_FILE}`, import.meta.url)), eventShapesModule());
  console.log(`wrote ${EVENT_SHAPES_FILE}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
