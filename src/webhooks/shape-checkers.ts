// The validator's fast path for valid input: each shape of the table, turned once (on first use) into closures that
// answer the data event-validation.ts's interpreter would give, or INVALID at the first problem without saying which
// (the interpreter then walks the value again to name the issues). Plain closures, no generated code: it runs where
// `new Function` is forbidden (CSP, `--jitless`). The usual delivery is taken: objects whose keys come in the order of
// their shape; anything else is left to the interpreter. Two kinds: copying checkers build the output objects as the
// interpreter does; in-place checkers, for a body the receiver has just parsed and holds alone, answer the parsed
// objects themselves, which a copy could not differ from, and save the copying, most of the cost.
import { EVENT_REFINEMENTS } from '../shared/event-refinements.js';
import type { FieldShape, NumberCheck, ObjectShape, StringCheck } from './event-shape.js';

/** What a checker answers for a value its shape refuses (why is the interpreter's to say). */
export const INVALID: unique symbol = Symbol('invalid');

/** Checks `input` against one shape: the data the interpreter would give for it, or {@link INVALID}. */
export type ShapeChecker = (input: unknown) => unknown;

const hasOwn = Object.hasOwn;
const isArray = Array.isArray;
const isSafeInteger = Number.isSafeInteger;
const isFiniteNumber = Number.isFinite;
const isEnumerable = Object.prototype.propertyIsEnumerable;

// Built on first use, once per shape: importing the validator does no work.
const copying = new WeakMap<FieldShape, ShapeChecker>();
const inPlace = new WeakMap<FieldShape, ShapeChecker>();

/** The copying checker of `shape`: fresh objects, as the interpreter builds them. */
export function copyingCheckerOf(shape: FieldShape): ShapeChecker {
  let checker = copying.get(shape);
  if (checker === undefined) {
    checker = build(shape, false);
    copying.set(shape, checker);
  }
  return checker;
}

/**
 * The in-place checker of `shape`, for a value fresh from `JSON.parse` that nothing else holds: the value itself,
 * whose every object the interpreter would copy key for key (see copyObject), else INVALID.
 */
export function inPlaceCheckerOf(shape: FieldShape): ShapeChecker {
  let checker = inPlace.get(shape);
  if (checker === undefined) {
    const inner = build(shape, true);
    // An enumerable key on Object.prototype (a polluted realm) is one for...in yields and the copy would own.
    checker = (input) => (prototypeHasEnumerableKeys() ? INVALID : inner(input));
    inPlace.set(shape, checker);
  }
  return checker;
}

function prototypeHasEnumerableKeys(): boolean {
  for (const _ in Object.prototype) return true;
  return false;
}

function build(shape: FieldShape, inPlace: boolean): ShapeChecker {
  switch (shape[0]) {
    case 'optional': {
      const inner = build(shape[1], inPlace);
      return (input) => (input === undefined ? input : inner(input));
    }
    case 'nullable': {
      const inner = build(shape[1], inPlace);
      return (input) => (input === null ? input : inner(input));
    }
    case 'value': {
      const values = shape[1];
      const only = values[0];
      if (isOneValue(values)) return (input) => (input === only ? input : INVALID);
      return (input) => (values.includes(input as string) ? input : INVALID);
    }
    case 'boolean':
      return (input) => (typeof input === 'boolean' ? input : INVALID);
    case 'string':
      return stringChecker((shape.slice(1) as StringCheck[]).map(([, prefix]) => prefix));
    case 'number':
      return numberChecker(shape.slice(1) as NumberCheck[]);
    case 'record':
      return inPlace ? recordInPlace : copyRecord;
    default:
      return (inPlace ? objectInPlace : copyObject)(shape, fieldList(shape[1], inPlace));
  }
}

/** One value (every event name) is checked by `===`; but `includes`, as zod, also matches NaN, which `===` would not. */
const isOneValue = (values: readonly (string | number)[]) => values.length === 1 && !Number.isNaN(values[0]);

function stringChecker(prefixes: readonly string[]): ShapeChecker {
  if (prefixes.length === 0) return (input) => (typeof input === 'string' ? input : INVALID);
  return (input) => {
    if (typeof input !== 'string') return INVALID;
    for (let i = 0; i < prefixes.length; i++) if (!input.startsWith(prefixes[i]!)) return INVALID;
    return input;
  };
}

/**
 * A number passes every check of its list at once when it is finite (a safe integer under an `int` format) and
 * within the tightest bounds of the list, formats' ranges included.
 */
function numberChecker(checks: readonly NumberCheck[]): ShapeChecker {
  let integer = false;
  let low = Number.NEGATIVE_INFINITY;
  let lowInclusive = true;
  let high = Number.POSITIVE_INFINITY;
  let highInclusive = true;
  const atLeast = (bound: number, inclusive: boolean) => {
    if (bound > low || (bound === low && !inclusive)) [low, lowInclusive] = [bound, inclusive];
  };
  const atMost = (bound: number, inclusive: boolean) => {
    if (bound < high || (bound === high && !inclusive)) [high, highInclusive] = [bound, inclusive];
  };
  for (const check of checks) {
    if (check[0] === 'format') {
      integer ||= check[1] === 'int';
      atLeast(check[2], true);
      atMost(check[3], true);
    } else if (check[0] === 'min') atLeast(check[1], check[2]);
    else atMost(check[1], check[2]);
  }
  return (input) =>
    typeof input === 'number' &&
    (integer ? isSafeInteger(input) : isFiniteNumber(input)) &&
    (lowInclusive ? input >= low : input > low) &&
    (highInclusive ? input <= high : input < high)
      ? input
      : INVALID;
}

/** An object other than an array: what an object shape takes. */
export const isObject = (value: unknown): value is Record<PropertyKey, unknown> =>
  typeof value === 'object' && value !== null && !isArray(value);

/** zod's util.isPlainObject, which records (an event's `data` outside the catalog) require. */
export function isPlainObject(value: unknown): value is Record<PropertyKey, unknown> {
  if (!isObject(value)) return false;
  const made = value.constructor;
  if (typeof made !== 'function') return true;
  return isObject(made.prototype) && hasOwn(made.prototype, 'isPrototypeOf');
}

/** A record (an unknown event's `data`): a plain object, copied by its own enumerable keys, none of them a symbol. */
function copyRecord(input: unknown): unknown {
  if (!isPlainObject(input)) return INVALID;
  const data: Record<string, unknown> = {};
  for (const key of Reflect.ownKeys(input)) {
    if (key === '__proto__' || !isEnumerable.call(input, key)) continue;
    if (typeof key !== 'string') return INVALID;
    data[key] = input[key];
  }
  return data;
}

/** A parsed record is its own copy unless it has an own `__proto__` key (JSON text has no symbols or hidden keys). */
function recordInPlace(input: unknown): unknown {
  if (!isPlainObject(input)) return INVALID;
  for (const key in input) if (key === '__proto__') return INVALID;
  return input;
}

// How a field's value is checked, once an optional field's undefined is let through: the common leaves inline (a call
// per field would cost more than the check), the rest by the field's own checker.
const BY_CHECKER = 0;
const STRING = 1;
const BOOLEAN = 2;
const SAFE_INTEGER = 3;
const CONSTANT = 4;

/** An object's fields, in the order the interpreter walks them, each with how to check it. */
interface FieldList {
  readonly keys: readonly string[];
  /** Whether undefined passes without a check (an optional field). */
  readonly optional: readonly boolean[];
  /** How the value is checked otherwise (the shape inside an optional). */
  readonly kinds: Uint8Array;
  readonly checkers: readonly ShapeChecker[];
  /** The one value of a CONSTANT field. */
  readonly constants: readonly unknown[];
  /** Whether an absent field passes (as undefined); it is then not copied. */
  readonly mayBeAbsent: readonly boolean[];
}

function fieldList(fields: ObjectShape[1], inPlace: boolean): FieldList {
  // In the interpreter's order; own keys only, as it takes them.
  const keys = Object.keys(fields);
  const optional = keys.map((key) => fields[key]![0] === 'optional');
  const inner = keys.map((key, i) => (optional[i] ? (fields[key]![1] as FieldShape) : fields[key]!));
  const list = {
    keys,
    optional,
    kinds: Uint8Array.from(inner, kindOf),
    checkers: inner.map((shape) => build(shape, inPlace)),
    constants: inner.map((shape) => (shape[0] === 'value' ? shape[1][0] : undefined)),
    mayBeAbsent: [] as boolean[],
  };
  list.mayBeAbsent = keys.map((_, at) => checkField(list, at, undefined) !== INVALID);
  return list;
}

function kindOf(shape: FieldShape): number {
  if (shape[0] === 'boolean') return BOOLEAN;
  if (shape[0] === 'string') return shape.length === 1 ? STRING : BY_CHECKER;
  if (shape[0] === 'value') return isOneValue(shape[1]) ? CONSTANT : BY_CHECKER;
  if (shape[0] !== 'number' || shape.length !== 2) return BY_CHECKER;
  // zod's int(): a safe integer is all it asks.
  const [check] = shape.slice(1) as NumberCheck[];
  return check![0] === 'format' &&
    check![1] === 'int' &&
    check![2] <= Number.MIN_SAFE_INTEGER &&
    check![3] >= Number.MAX_SAFE_INTEGER
    ? SAFE_INTEGER
    : BY_CHECKER;
}

/** The data of field `at` for `value`, or INVALID. */
function checkField(list: FieldList, at: number, value: unknown): unknown {
  if (value === undefined && list.optional[at]) return value;
  switch (list.kinds[at]) {
    case STRING:
      return typeof value === 'string' ? value : INVALID;
    case BOOLEAN:
      return typeof value === 'boolean' ? value : INVALID;
    case SAFE_INTEGER:
      return isSafeInteger(value) ? value : INVALID;
    case CONSTANT:
      return value === list.constants[at] ? value : INVALID;
    default:
      return list.checkers[at]!(value);
  }
}

const refinementOf = (shape: ObjectShape) => (shape[3] === undefined ? undefined : EVENT_REFINEMENTS[shape[3]].test);

/**
 * An object whose keys for...in meets as the interpreter's copy lists them: the fields present in shape order, then
 * only unknown keys (if kept), never `__proto__`; an absent field not in the object at all (no hidden or inherited
 * one). Anything else is left to the interpreter. The answer is a fresh object with those keys.
 */
function copyObject(shape: ObjectShape, list: FieldList): ShapeChecker {
  const [, fields, keepsUnknownKeys] = shape;
  const refinement = refinementOf(shape) as ((data: object) => boolean) | undefined;
  const { keys, mayBeAbsent } = list;
  const count = keys.length;
  return (input) => {
    if (!isObject(input)) return INVALID;
    const data: Record<string, unknown> = {};
    let next = 0;
    let pastFields = false;
    for (const key in input) {
      if (!pastFields) {
        let at = next;
        while (at < count && keys[at] !== key) at++;
        if (at < count) {
          for (; next < at; next++) if (!mayBeAbsent[next] || keys[next]! in input) return INVALID;
          const checked = checkField(list, at, input[key]);
          if (checked === INVALID) return INVALID;
          data[key] = checked;
          next = at + 1;
          continue;
        }
        if (!keepsUnknownKeys) return INVALID;
        pastFields = true;
      }
      // A field after an unknown key: the copy would move it ahead.
      if (key === '__proto__' || hasOwn(fields, key)) return INVALID;
      data[key] = input[key];
    }
    for (; next < count; next++) if (!mayBeAbsent[next] || keys[next]! in input) return INVALID;
    return refinement === undefined || refinement(data) ? data : INVALID;
  };
}

/**
 * copyObject's walk without the copy: the object itself, each field's value having to be its own copy. A walk of its
 * own rather than a flag of copyObject's: the flag's tests cost the hottest path a tenth.
 */
function objectInPlace(shape: ObjectShape, list: FieldList): ShapeChecker {
  const [, fields, keepsUnknownKeys] = shape;
  const refinement = refinementOf(shape) as ((data: object) => boolean) | undefined;
  const { keys, mayBeAbsent } = list;
  const count = keys.length;
  return (input) => {
    // Spelt out, not isObject: the hottest line of a delivery.
    if (typeof input !== 'object' || input === null || isArray(input)) return INVALID;
    let next = 0;
    let pastFields = false;
    for (const key in input) {
      if (!pastFields) {
        let at = next;
        while (at < count && keys[at] !== key) at++;
        if (at < count) {
          for (; next < at; next++) if (!mayBeAbsent[next] || keys[next]! in input) return INVALID;
          const value = (input as Record<string, unknown>)[key];
          if (checkField(list, at, value) !== value) return INVALID;
          next = at + 1;
          continue;
        }
        if (!keepsUnknownKeys) return INVALID;
        pastFields = true;
      }
      if (key === '__proto__' || hasOwn(fields, key)) return INVALID;
    }
    for (; next < count; next++) if (!mayBeAbsent[next] || keys[next]! in input) return INVALID;
    return refinement === undefined || refinement(input) ? input : INVALID;
  };
}
