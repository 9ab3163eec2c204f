// Where linkgate's reader accepts more than the API documents (docs/service.md, "Resources and their fields"), and the
// form the API states there. The SDK keeps reading the tolerant declaration (src/schemas); the drift check finds the
// declaration's tolerant nodes here, by walking that same declaration, and reports a value that passed only through
// their tolerance as its own kind of finding: tolerated by linkgate, but not the API's form.
import * as z from 'zod/mini';
import { DateString, DateTimeInput, Plan, PlanLimits, QrStats } from './operation-table.js';

/** The form the API documents for a field linkgate reads tolerantly. */
export interface DocumentedForm {
  /** What the API documents, as a finding's `expected` says it (`a number`). */
  expected: string;
  /** The documented form as a schema: a value the tolerant node accepts but this one refuses is tolerated drift. */
  strict: z.core.$ZodType;
}

interface Def {
  type: string;
  innerType?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
  options?: z.core.$ZodType[];
  catchall?: z.core.$ZodType;
}

const defOf = (schema: z.core.$ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema inside `optional` and `nullable` wrappers. */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  const def = defOf(schema);
  return def.type === 'optional' || def.type === 'nullable' ? unwrap(def.innerType!) : schema;
}

/** A member of an object schema; throws when the declaration lost it, so a renamed field cannot pass unjudged. */
function member(schema: z.core.$ZodType, name: string): z.core.$ZodType {
  const field = defOf(unwrap(schema)).shape?.[name];
  if (!field) throw new Error(`documented-forms: the declaration has no field "${name}" any more`);
  return unwrap(field);
}

/** An integer written as a string of digits (`count: "5"`, the QR statistics' top-N counts). */
const DIGITS = z.string().check(z.regex(/^\d+$/));

function build(): Map<z.core.$ZodType, DocumentedForm> {
  const forms = new Map<z.core.$ZodType, DocumentedForm>();
  // Dates: "Dates are strings in the form YYYY-MM-DD HH:MM:SS"; the SDK reads any string.
  forms.set(DateString, { expected: 'a date in the form YYYY-MM-DD HH:MM:SS', strict: DateTimeInput });
  // Plan: `free` a boolean, `prices` numbers, features' `enabled` "0" or "1" and `count` a string holding a number.
  forms.set(member(Plan, 'free'), { expected: 'true or false', strict: z.boolean() });
  const prices = member(Plan, 'prices');
  for (const name of ['monthly', 'yearly', 'lifetime']) {
    forms.set(member(prices, name), { expected: 'a number', strict: z.number() });
  }
  for (const feature of Object.values(defOf(PlanLimits).shape ?? {})) {
    const members = defOf(unwrap(feature)).shape;
    if (members?.enabled) forms.set(unwrap(members.enabled), { expected: '"0" or "1"', strict: z.literal(['0', '1']) });
    if (members?.count) forms.set(unwrap(members.count), { expected: 'a string of digits', strict: DIGITS });
  }
  // QR statistics: each top-N map gives its counts as strings.
  for (const name of ['topCountries', 'topReferrers', 'topBrowsers', 'topOs']) {
    for (const option of defOf(member(QrStats, name)).options ?? []) {
      const counts = defOf(option).catchall;
      if (counts) forms.set(counts, { expected: 'a string of digits', strict: DIGITS });
    }
  }
  return forms;
}

const FORMS = build();

/** The API's documented form of a schema node linkgate reads tolerantly, or undefined where it reads it as stated. */
export function documentedForm(schema: z.core.$ZodType): DocumentedForm | undefined {
  return FORMS.get(schema);
}
