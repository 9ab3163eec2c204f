// The receiver's validator, on every runtime: it reads the event shapes of src/schemas/events.ts as plain data (the
// table scripts/event-shapes.ts generates) and answers what zod/mini's safeParse of those schemas answers, without
// loading zod. It follows zod's rules step for step (zod/v4/core schemas.js, checks.js): the same output object, and
// the same issues in the same order, worded by the same English map. Valid input takes shape-checkers.ts's fast path;
// test/webhooks/event-validation.test.ts holds both against zod.
import { EVENT_REFINEMENTS } from '../shared/event-refinements.js';
import type { FieldShape, NumberCheck, StringCheck } from './event-shape.js';
import { eventIssueMessage } from './issue-messages.js';
import { copyingCheckerOf, INVALID, inPlaceCheckerOf, isObject, isPlainObject } from './shape-checkers.js';
import type { WebhookPayloadIssue } from './webhook-errors.js';

export type { FieldShape, NumberCheck, ObjectShape, StringCheck } from './event-shape.js';

/** What a validation gives: zod's safeParse answer, its issues as a refusal lists them (path, message, code). */
export type EventValidation =
  | { success: true; data: unknown }
  | { success: false; error: { issues: WebhookPayloadIssue[] } };

type RawIssue = Parameters<typeof eventIssueMessage>[0];

const hasOwn = Object.hasOwn;

/**
 * Validates `value` against `shape`: `data` is the value zod would give (a fresh object for each object, unknown keys
 * copied where kept), `issues` those zod would raise (path, code, message), in its order.
 */
export function validateShape(shape: FieldShape, value: unknown): EventValidation {
  // Valid input, the usual case, takes the checker's fast path; the interpreter names the issues of the rest.
  const data = copyingCheckerOf(shape)(value);
  return data !== INVALID ? { success: true, data } : interpret(shape, value);
}

/**
 * {@link validateShape} for a value fresh from `JSON.parse` that the caller holds alone and gives up: where zod's copy
 * would not differ from it (keys in the shape's order, the usual delivery), `data` is the value itself, uncopied.
 */
export function validateParsedJson(shape: FieldShape, value: unknown): EventValidation {
  const data = inPlaceCheckerOf(shape)(value);
  return data !== INVALID ? { success: true, data } : validateShape(shape, value);
}

/** One walk of the interpreter: the issues so far and the path to the value at hand. */
interface Walk {
  readonly issues: WebhookPayloadIssue[];
  readonly path: PropertyKey[];
  /** How many issues so far stop the checks that follow on the same value (zod's `continue` not true, util.aborted). */
  stops: number;
}

/** The exact walk: zod's data and issues, step for step. */
function interpret(shape: FieldShape, value: unknown): EventValidation {
  const walk: Walk = { issues: [], path: [], stops: 0 };
  const data = run(walk, shape, value);
  return walk.issues.length ? { success: false, error: { issues: walk.issues } } : { success: true, data };
}

// Functions of the walk rather than closures made per call: an invalid delivery should not cost allocations to refuse.

/** Records an issue at the path at hand (or `at`); unless it lets checks go on (`go`), it stops the ones that follow. */
function raise(walk: Walk, raw: RawIssue, go = false, at: PropertyKey[] = walk.path, message = eventIssueMessage(raw)) {
  if (!go) walk.stops++;
  walk.issues.push({ path: [...at], message, code: raw.code });
}

/** One check of a finite number, as zod's checks.js runs it. */
function numberCheck(walk: Walk, check: NumberCheck, input: number): void {
  if (check[0] === 'format') {
    const [, kind, minimum, maximum] = check;
    if (kind === 'int') {
      if (!Number.isInteger(input)) return void raise(walk, { code: 'invalid_type', expected: 'int', input });
      // Beyond the safe range zod reports the safe bound, whatever the format, and checks nothing more.
      if (!Number.isSafeInteger(input)) {
        return void raise(
          walk,
          input > 0
            ? { code: 'too_big', origin: 'int', maximum: Number.MAX_SAFE_INTEGER, inclusive: true, input }
            : { code: 'too_small', origin: 'int', minimum: Number.MIN_SAFE_INTEGER, inclusive: true, input },
          true,
        );
      }
    }
    if (input < minimum) raise(walk, { code: 'too_small', origin: 'number', minimum, inclusive: true, input }, true);
    if (input > maximum) raise(walk, { code: 'too_big', origin: 'number', maximum, inclusive: true, input }, true);
    return;
  }
  const [kind, bound, inclusive] = check;
  if (kind === 'max' ? (inclusive ? input <= bound : input < bound) : inclusive ? input >= bound : input > bound)
    return;
  raise(
    walk,
    kind === 'max'
      ? { code: 'too_big', origin: 'number', maximum: bound, inclusive, input }
      : { code: 'too_small', origin: 'number', minimum: bound, inclusive, input },
    true,
  );
}

/** The data of `input` against `shape`, its issues raised on the walk. */
function run(walk: Walk, shape: FieldShape, input: unknown): unknown {
  const { path } = walk;
  const stopsBefore = walk.stops;
  switch (shape[0]) {
    case 'optional':
      return input === undefined ? input : run(walk, shape[1], input);
    case 'nullable':
      return input === null ? input : run(walk, shape[1], input);
    case 'value':
      if (!shape[1].includes(input as string)) raise(walk, { code: 'invalid_value', values: [...shape[1]], input });
      return input;
    case 'boolean':
      if (typeof input !== 'boolean') raise(walk, { code: 'invalid_type', expected: 'boolean', input });
      return input;
    case 'string':
      if (typeof input !== 'string') raise(walk, { code: 'invalid_type', expected: 'string', input });
      else {
        for (let i = 1; i < shape.length; i++) {
          const [, prefix] = shape[i] as StringCheck;
          if (!input.startsWith(prefix)) {
            raise(walk, { code: 'invalid_format', format: 'starts_with', origin: 'string', prefix, input }, true);
          }
        }
      }
      return input;
    case 'number':
      // NaN and the infinities are not numbers to zod.
      if (typeof input !== 'number' || !Number.isFinite(input))
        raise(walk, { code: 'invalid_type', expected: 'number', input });
      else {
        for (let i = 1; i < shape.length && walk.stops === stopsBefore; i++)
          numberCheck(walk, shape[i] as NumberCheck, input);
      }
      return input;
    case 'record': {
      if (!isPlainObject(input)) return void raise(walk, { code: 'invalid_type', expected: 'record', input });
      const data: Record<PropertyKey, unknown> = {};
      // Own enumerable keys, symbols included (a symbol is not a string key); never an own __proto__.
      for (const key of Reflect.ownKeys(input)) {
        if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(input, key)) continue;
        if (typeof key === 'string') data[key] = input[key];
        else raise(walk, { code: 'invalid_key', origin: 'record', issues: [], input: key }, false, [...path, key]);
      }
      return data;
    }
    default: {
      if (!isObject(input)) return void raise(walk, { code: 'invalid_type', expected: 'object', input });
      const [, fields, keepsUnknownKeys, refinement] = shape;
      const data: Record<string, unknown> = {};
      // Own keys: one that Object.prototype gained (a polluted realm) is no field.
      for (const key of Object.keys(fields)) {
        const field = fields[key]!;
        path.push(key);
        // `in`, as zod: an inherited key counts as present. A present key is kept even when undefined; an absent one
        // is checked as undefined and not kept (zod skips an absent optional field, which comes to the same).
        if (key in input) data[key] = run(walk, field, input[key]);
        else run(walk, field, undefined);
        path.pop();
      }
      if (keepsUnknownKeys) {
        // for...in, as zod: inherited enumerable keys are copied too; an own __proto__ is not (it would set the prototype).
        for (const key in input) if (!hasOwn(fields, key) && key !== '__proto__') data[key] = input[key];
      }
      if (refinement && walk.stops === stopsBefore) {
        const { test, message, path: at } = EVENT_REFINEMENTS[refinement];
        if (!test(data as never)) raise(walk, { code: 'custom', input: data }, true, [...path, ...at], message);
      }
      return data;
    }
  }
}
