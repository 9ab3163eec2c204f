// Compares a JSON value with a schema of the operation table the way the service's documentation states it, not the way the SDK reads
// it: the SDK's tolerant reader accepts numeric strings, dates in any form and unknown fields, a drift check reports
// them (what the reader tolerates as `tolerated`, see documented-forms.ts).
import * as z from 'zod/mini';
import { appendAll } from '../shared/append-all.js';
import { documentedForm } from './documented-forms.js';
import { Count } from './operation-table.js';

/**
 * What kind of difference a field shows; `tolerated`: linkgate reads the value, but it is not the form the API
 * documents (a numeric string for a number, a date in another form), so another client may not.
 */
export type DifferenceKind = 'type' | 'missing' | 'unknown-field' | 'rule' | 'tolerated';

/** One field that differs from the table: where, what the table says, what was seen. */
export interface ShapeDifference {
  /** JSON path, e.g. `data.domains[0].id`. */
  path: string;
  kind: DifferenceKind;
  expected: string;
  seen: string;
}

/** Where the service's documentation documents a numeric string for a number (e.g. `error: "0"` of paged lists). */
export type NumericStringAllowance = (path: string) => 'allowed' | 'quirk' | 'no';

interface Def {
  type: string;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  options?: z.core.$ZodType[];
  shape?: Record<string, z.core.$ZodType>;
  catchall?: z.core.$ZodType;
  element?: z.core.$ZodType;
  values?: unknown[];
}

const defOf = (schema: z.core.$ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** A value as a finding shows it: JSON for scalars, the kind for containers; cut for display once secrets are hidden. */
export function showValue(value: unknown): string {
  if (value === undefined) return 'absent';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value !== null && typeof value === 'object') return 'an object';
  return JSON.stringify(value);
}

/** The JSON kind of a value: how unions pick the member to compare with. */
const kindOf = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as 'string' | 'number' | 'object');

/** The JSON kinds a schema accepts, for choosing a union member and for saying what was expected. */
function kindsOf(schema: z.core.$ZodType): string[] {
  if (schema === Count) return ['integer'];
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
      return [...kindsOf(def.innerType!), ...(def.type === 'nullable' ? ['null'] : [])];
    case 'pipe':
      return kindsOf(def.in!);
    case 'union':
      return [...new Set(def.options!.flatMap(kindsOf))];
    case 'literal':
      return def.values!.map((v) => JSON.stringify(v));
    case 'object':
      return ['object'];
    case 'array':
      return ['array'];
    default:
      return [def.type];
  }
}

const matchesKind = (kind: string, value: unknown) => {
  const seen = kindOf(value);
  if (kind === 'integer') return seen === 'number';
  if (kind.startsWith('"') || /^(-?\d|true|false|null)/.test(kind)) return JSON.stringify(value) === kind;
  return kind === seen || (kind === 'unknown' && value !== undefined);
};

const article = (kinds: string[]) =>
  kinds
    .map((k) =>
      k.startsWith('"') || /^(-?\d|true|false|null)/.test(k) ? k : `${/^[aeiou]/.test(k) ? 'an' : 'a'} ${k}`,
    )
    .join(' or ');

/**
 * Every difference between `value` and `schema` at `path`, strictly: unknown fields of records, numeric strings
 * where the table has an integer (unless `numericStrings` allows them there), and each leaf's own rule.
 */
export function compareShape(
  schema: z.core.$ZodType,
  value: unknown,
  path = '',
  numericStrings: NumericStringAllowance = () => 'no',
  quirks: string[] = [],
): ShapeDifference[] {
  const out: ShapeDifference[] = [];
  walk(schema, value, path, { out, numericStrings, quirks });
  return out;
}

interface Walk {
  out: ShapeDifference[];
  numericStrings: NumericStringAllowance;
  /** Paths where a documented quirk (not a difference) was seen. */
  quirks: string[];
}

const child = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** A value of the wrong JSON kind, or none where one is required. */
function mismatch(w: Walk, path: string, expected: string, value: unknown): void {
  w.out.push({
    path: path === '' ? '(body)' : path,
    kind: value === undefined ? 'missing' : 'type',
    expected,
    seen: showValue(value),
  });
}

/** A value linkgate's reader takes, in a form the API does not document. */
function tolerated(w: Walk, path: string, expected: string, value: unknown): void {
  w.out.push({ path: path === '' ? '(body)' : path, kind: 'tolerated', expected, seen: showValue(value) });
}

function walk(schema: z.core.$ZodType, value: unknown, path: string, w: Walk): void {
  if (schema === Count) {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return;
    if (typeof value === 'string' && /^-?\d+$/.test(value)) {
      const allowance = w.numericStrings(path);
      if (allowance === 'quirk') w.quirks.push(path);
      if (allowance !== 'no') return;
      tolerated(w, path, 'an integer', value);
      return;
    }
    mismatch(w, path, 'an integer', value);
    return;
  }
  const form = documentedForm(schema);
  if (form) {
    if (!z.safeParse(schema, value).success) mismatch(w, path, form.expected, value);
    else if (!z.safeParse(form.strict, value).success) tolerated(w, path, form.expected, value);
    return;
  }
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'default':
      if (value !== undefined) walk(def.innerType!, value, path, w);
      return;
    case 'nullable':
      if (value !== null) walk(def.innerType!, value, path, w);
      return;
    case 'pipe':
      walk(def.in!, value, path, w);
      return;
    case 'transform':
      return;
    case 'union':
      walkUnion(def.options!, value, path, w);
      return;
    case 'object':
      walkObject(def, value, path, w);
      return;
    case 'array':
      if (!Array.isArray(value)) {
        mismatch(w, path, 'an array', value);
        return;
      }
      value.forEach((item, i) => {
        walk(def.element!, item, `${path}[${i}]`, w);
      });
      return;
    default: {
      if (value === undefined && def.type !== 'unknown' && def.type !== 'any') {
        mismatch(w, path, article(kindsOf(schema)), value);
        return;
      }
      const result = z.safeParse(schema, value);
      if (result.success) return;
      const issue = result.error.issues[0]!;
      if (issue.code === 'invalid_type' || issue.code === 'invalid_value') {
        mismatch(w, path, article(kindsOf(schema)), value);
        return;
      }
      w.out.push({
        path: path === '' ? '(body)' : path,
        kind: 'rule',
        expected: `a value that ${issue.message}`,
        seen: showValue(value),
      });
    }
  }
}

function walkUnion(options: z.core.$ZodType[], value: unknown, path: string, w: Walk): void {
  let best: { out: ShapeDifference[]; quirks: string[] } | undefined;
  // Members of the value's own JSON kind are compared field by field; the closest one's differences are reported.
  for (const option of options) {
    if (!kindsOf(option).some((k) => matchesKind(k, value) || (k === 'integer' && typeof value === 'string'))) continue;
    const trial: Walk = { out: [], numericStrings: w.numericStrings, quirks: [] };
    walk(option, value, path, trial);
    if (!best || trial.out.length < best.out.length) best = trial;
    if (trial.out.length === 0) break;
  }
  if (best) {
    appendAll(w.out, best.out);
    appendAll(w.quirks, best.quirks);
    return;
  }
  mismatch(w, path, article([...new Set(options.flatMap(kindsOf))]), value);
}

function walkObject(def: Def, value: unknown, path: string, w: Walk): void {
  if (kindOf(value) !== 'object') {
    mismatch(w, path, 'an object', value);
    return;
  }
  const record = value as Record<string, unknown>;
  const shape = def.shape ?? {};
  for (const [key, field] of Object.entries(shape)) walk(field, record[key], child(path, key), w);
  // A loose record's catch-all is `unknown`: its extra keys are fields the table does not know.
  const catchall = def.catchall;
  const known = catchall !== undefined && defOf(catchall).type !== 'unknown' ? catchall : undefined;
  for (const key of Object.keys(record)) {
    if (key in shape) continue;
    if (known) walk(known, record[key], child(path, key), w);
    else
      w.out.push({
        path: child(path, key),
        kind: 'unknown-field',
        expected: 'no such field',
        seen: showValue(record[key]),
      });
  }
}
