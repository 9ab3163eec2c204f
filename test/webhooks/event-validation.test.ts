// The browser receiver's validator (src/webhooks/event-validation.ts, reading the generated shape table) answers
// exactly what zod/mini's safeParse of the event schemas answers: the same success, the same data (own keys in the
// same order, the same prototypes, the same values down to -0) and the same issues (path, code, message) in the same
// order. Held over every field of every sample set to every kind of odd value, then over random payloads; each also
// through JSON text, as a delivery arrives, where the validator may answer the parsed objects themselves.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { objectShape } from '../../scripts/event-shapes.js';
import { EVENT_NAMES, EVENT_SCHEMAS, EventEnvelope } from '../../src/schemas/events.js';
import { ENVELOPE_SHAPE, EVENT_SHAPES } from '../../src/webhooks/event-shapes.generated.js';
import {
  type EventValidation,
  type ObjectShape,
  validateParsedJson,
  validateShape,
} from '../../src/webhooks/event-validation.js';
import { ENGLISH } from '../../src/webhooks/issue-messages.js';
import { copyingCheckerOf, INVALID } from '../../src/webhooks/shape-checkers.js';
import { catalogExamples } from './support/fixtures.js';

/** Each schema beside its row of the table: the five events and the envelope of unknown ones. */
const pairs: [name: string, schema: z.ZodMiniType, shape: ObjectShape][] = [
  ...EVENT_NAMES.map((name): [string, z.ZodMiniType, ObjectShape] => [name, EVENT_SCHEMAS[name], EVENT_SHAPES[name]]),
  ['envelope', EventEnvelope, ENVELOPE_SHAPE],
];

/** Objects reachable from `value` (own and inherited enumerable keys), to tell data copied from data passed through. */
function objectsIn(value: unknown, found = new Set<object>()): Set<object> {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null || found.has(value)) return found;
  found.add(value);
  for (const key of Reflect.ownKeys(value)) objectsIn(Reflect.get(value, key), found);
  for (const key in value) objectsIn((value as Record<string, unknown>)[key], found);
  return found;
}

/**
 * Everything a comparison must see of parsed data: for an object, whether it is one of the input's own objects, its
 * prototype, and its own keys in order with their enumerability and values; numbers by Object.is (so -0 shows).
 */
function anatomy(value: unknown, input: Set<object>, depth = 0): unknown {
  if (typeof value === 'number') return `number ${Object.is(value, -0) ? '-0' : String(value)}`;
  if (typeof value !== 'object' || value === null) return value;
  if (input.has(value)) return { passedThrough: value };
  if (depth > 8) return '(deep)';
  return {
    prototype: Object.getPrototypeOf(value),
    keys: Reflect.ownKeys(value).map((key) => [
      key,
      Object.getOwnPropertyDescriptor(value, key)?.enumerable,
      anatomy(Reflect.get(value, key), input, depth + 1),
    ]),
  };
}

let compared = 0;
const codes = new Set<string>();

/** Parses `value` with both and requires the same answer; then the same through JSON text, if it has one. */
function expectSame(schema: z.ZodMiniType, shape: ObjectShape, value: unknown): void {
  const theirs = schema.safeParse(value, ENGLISH);
  const ours = validateShape(shape, value);
  compared++;
  expectAnswer(ours, theirs, objectsIn(value));
  // The fast path never takes an invalid value: that would skip the interpreter's issues.
  if (!theirs.success) expect(copyingCheckerOf(shape)(value)).toBe(INVALID);
  const text = JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? 1 : v));
  if (text !== undefined) expectSameFromJson(schema, shape, text);
}

/**
 * Parses the JSON `text` with both, each from its own JSON.parse: the same answer, where ours may be the parsed
 * objects themselves (the caller gave them up), so data is compared as if all were fresh.
 */
function expectSameFromJson(schema: z.ZodMiniType, shape: ObjectShape, text: string): void {
  expectAnswer(validateParsedJson(shape, JSON.parse(text)), schema.safeParse(JSON.parse(text), ENGLISH), new Set());
}

function expectAnswer(ours: EventValidation, theirs: ReturnType<z.ZodMiniType['safeParse']>, input: Set<object>): void {
  expect(ours.success).toBe(theirs.success);
  if (theirs.success && ours.success) {
    expect(anatomy(ours.data, input)).toEqual(anatomy(theirs.data, input));
  } else if (!theirs.success && !ours.success) {
    const expected = theirs.error.issues.map(({ path, code, message }) => ({ path, code, message }));
    for (const issue of expected) codes.add(issue.code);
    expect(ours.error.issues).toEqual(expected);
  }
}

class Gadget {
  wheels = 4;
}
const withInherited = (own: object, inherited: object) => Object.assign(Object.create(inherited), own);

/** Values that break (or pass) each kind of field: types, bounds, formats, odd numbers, odd objects. */
const ODD_VALUES: unknown[] = [
  undefined,
  null,
  true,
  false,
  '',
  'x',
  ...['sent', 'delivered', 'read', 'played', 'SENT', 'ONLINE', 'COOLDOWN', 'other.event', ...EVENT_NAMES],
  ...['data:image/png;base64,', 'data:image/png;base64,iVBOR', 'data:image/png;base64', ' data:image/png;base64,x'],
  ...['DATA:image/png;base64,x', 'data:image/jpeg;base64,x', 'data:image/png;base64,'.slice(0, 11)],
  0,
  -0,
  1,
  -1,
  0.5,
  1.5,
  -1.5,
  2,
  3,
  4,
  4.000001,
  5,
  6,
  99.5,
  100,
  100.5,
  101,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 1,
  Number.MIN_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER - 1,
  2 ** 60,
  -(2 ** 60),
  1e21,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  Number.EPSILON,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  10n,
  Symbol.for('odd'),
  [],
  [1, 'a'],
  {},
  { a: 1 },
  Object.create(null),
  withInherited({ own: 1 }, { inherited: 2 }),
  JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": 1}, "kept": 1}'),
  JSON.parse('{"constructor": "x", "toString": 1, "hasOwnProperty": 2}'),
  { 2: 'two', 1: 'one', b: 'b', a: 'a' },
  { [Symbol.for('key')]: 1, plain: 2 },
  Object.defineProperty({ shown: 1 }, 'hidden', { value: 2, enumerable: false }),
  new Date(0),
  new Map([['a', 1]]),
  new Gadget(),
  () => {},
];

/** The path of `value` itself, of every field in it, and of an unknown key in each object. */
function fieldPaths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null) return [];
  return [
    ...(prefix.length === 0 ? [[]] : []),
    [...prefix, 'unknown_key'],
    ...Object.entries(value).flatMap(([key, inner]) => [[...prefix, key], ...fieldPaths(inner, [...prefix, key])]),
  ];
}

const REMOVE = Symbol('remove');

/** A change to the object already at a path, rather than a new value for it. */
class Reshape {
  constructor(
    readonly what: string,
    readonly apply: (old: object) => object,
  ) {}
}

/** Ways an object of a payload can arrive otherwise: keys inherited, odd own keys, odd prototypes. */
const RESHAPES = [
  new Reshape('every key inherited', (old) => Object.create(old)),
  new Reshape('unknown keys inherited', (old) => withInherited({ ...old }, { inherited_extra: 1, 0: 'zero' })),
  new Reshape('an own __proto__ key, as JSON.parse makes', (old) =>
    Object.assign(JSON.parse('{"__proto__": {"event": "x", "status": "sent"}, "constructor": 1}'), old),
  ),
  new Reshape('extra keys, numeric ones reordered, one undefined, one a symbol', (old) => ({
    ...old,
    10: 'ten',
    2: 'two',
    extra: undefined,
    [Symbol.for('extra')]: 1,
  })),
  new Reshape('a non-enumerable key', (old) => Object.defineProperty({ ...old }, 'hidden', { value: 1 })),
  new Reshape('no prototype', (old) => Object.assign(Object.create(null), old)),
  new Reshape('a class instance', (old) => Object.assign(new Gadget(), old)),
  new Reshape('an array', (old) => Object.assign([], old)),
];

/** `old` with `value` applied: a Reshape changes an object, anything else replaces it. */
const applied = (old: unknown, value: unknown) =>
  value instanceof Reshape ? (typeof old === 'object' && old !== null ? value.apply(old) : old) : value;

/** `event` with the field at `path` set to `value` (deleted for REMOVE), copied along the path only; as is if the path is gone. */
function withField(event: unknown, path: readonly string[], value: unknown): unknown {
  if (typeof event !== 'object' || event === null) return event;
  if (path.length === 0) return applied(event, value);
  const [key, ...rest] = path as [string, ...string[]];
  const copy: Record<string, unknown> = { ...event };
  if (rest.length > 0) copy[key] = withField(copy[key], rest, value);
  else if (value === REMOVE) delete copy[key];
  else copy[key] = applied(copy[key], value);
  return copy;
}

const examples = await catalogExamples();
const samples: unknown[] = [...Object.values(examples), { ...examples['message.sent'], event: 'other.event' }];

describe('the shape-table validator against the zod schemas', () => {
  it('gives the same answer for every field of every sample set to every odd value, removed or undefined', () => {
    const bodies = [
      ...ODD_VALUES,
      ...samples,
      ...samples.flatMap((sample) =>
        fieldPaths(sample).flatMap((path) =>
          [...ODD_VALUES, REMOVE, ...RESHAPES].map((value) => withField(sample, path, value)),
        ),
      ),
    ];
    for (const [, schema, shape] of pairs) for (const body of bodies) expectSame(schema, shape, body);
    expect(compared).toBeGreaterThan(30_000);
  });

  const PREFIX = 'data:image/png;base64,';
  // Strings around the QR image's prefix: a part of it, then anything.
  const nearPrefix = fc
    .tuple(fc.nat({ max: PREFIX.length }), fc.string({ maxLength: 8 }))
    .map(([length, tail]) => PREFIX.slice(0, length) + tail);

  it('gives the same answer on random payloads: several fields changed at once, among them to random JSON', () => {
    const anyValue = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...ODD_VALUES, REMOVE) },
      { weight: 2, arbitrary: fc.constantFrom(...RESHAPES) },
      { weight: 1, arbitrary: fc.jsonValue() },
      { weight: 1, arbitrary: fc.double() },
      { weight: 1, arbitrary: fc.integer() },
      { weight: 1, arbitrary: nearPrefix },
    );
    const payload = fc
      .record({
        sample: fc.constantFrom(...samples),
        event: fc.oneof(fc.constant(undefined), fc.constantFrom(...EVENT_NAMES, 'other.event'), fc.string()),
        changes: fc.array(fc.tuple(fc.nat(), anyValue), { minLength: 1, maxLength: 4 }),
        viaJson: fc.boolean(),
      })
      .map(({ sample, event, changes, viaJson }) => {
        let body = event === undefined ? sample : { ...(sample as object), event };
        const paths = fieldPaths(body);
        for (const [at, value] of changes) body = withField(body, paths[at % paths.length]!, value);
        // Through JSON text, as a delivery arrives: own __proto__ keys, no undefined, no -0.
        return viaJson ? JSON.parse(JSON.stringify(body, (_, v) => (typeof v === 'bigint' ? 1 : v)) ?? 'null') : body;
      });
    fc.assert(
      fc.property(payload, (body) => {
        for (const [, schema, shape] of pairs) expectSame(schema, shape, body);
      }),
      { numRuns: 2_000 },
    );
  });

  it('gives the same answer for the constructs the events do not use (yet): strip objects, other formats, bounds', () => {
    const everyConstruct = z.object({
      int32: z.number().check(z.int32()),
      between: z.optional(z.number().check(z.lt(3), z.gt(-3))),
      float: z.number().check(z.float32(), z.lte(1e30)),
      maybe: z.nullable(z.optional(z.string().check(z.startsWith('a'), z.startsWith('ab')))),
      choice: z.literal(['a', 1]),
      nested: z.looseObject({ record: z.record(z.string(), z.unknown()) }),
    });
    const shape = objectShape(everyConstruct, 'every construct');
    const valid = { int32: 5, between: 0, float: 1.5, maybe: 'abc', choice: 1, nested: { record: { k: 1 }, more: 2 } };
    expectSame(everyConstruct, shape, valid);
    expect(validateShape(shape, valid).success).toBe(true);
    for (const path of fieldPaths(valid)) {
      for (const value of [...ODD_VALUES, REMOVE, ...RESHAPES])
        expectSame(everyConstruct, shape, withField(valid, path, value));
    }
  });

  it('reached every issue code the schemas raise, and valid events of every kind', () => {
    expect([...codes].sort()).toEqual([
      'custom',
      'invalid_format',
      'invalid_key',
      'invalid_type',
      'invalid_value',
      'too_big',
      'too_small',
    ]);
    for (const [name, , shape] of pairs) {
      const valid = samples.filter((sample) => validateShape(shape, sample).success);
      expect(valid.length, name).toBeGreaterThan(0);
    }
  });
});

describe('the fast path for valid input (shape-checkers.ts)', () => {
  it('takes every valid sample, as written and through JSON, copying it (the interpreter is left the rest)', () => {
    for (const [name, schema, shape] of pairs) {
      for (const sample of samples.filter((sample) => schema.safeParse(sample).success)) {
        const data = copyingCheckerOf(shape)(sample);
        expect(data, name).not.toBe(INVALID);
        expect(data).not.toBe(sample);
        expect(copyingCheckerOf(shape)(JSON.parse(JSON.stringify(sample))), name).not.toBe(INVALID);
      }
    }
  });
});

describe('a body the receiver has just parsed (validateParsedJson)', () => {
  const text = JSON.stringify(examples['message.received']);
  const shape = EVENT_SHAPES['message.received'];

  it('is its own data when valid with keys in the order of the schema: nothing is copied', () => {
    for (const [name, , shape] of pairs) {
      for (const sample of samples) {
        const parsed = JSON.parse(JSON.stringify(sample));
        const result = validateParsedJson(shape, parsed);
        if (result.success) expect(result.data, name).toBe(parsed);
      }
    }
  });

  it('is copied when a copy would differ: keys out of the schema order, an own __proto__ key', () => {
    const { data, ...envelope } = JSON.parse(text);
    for (const reordered of [
      JSON.stringify({ data, ...envelope }),
      JSON.stringify({ ...envelope, extra: 1, data }),
      text.replace('{', '{"__proto__":{"polluted":true},'),
    ]) {
      const parsed = JSON.parse(reordered);
      const result = validateParsedJson(shape, parsed);
      expect(result.success).toBe(true);
      expect((result as { data: unknown }).data).not.toBe(parsed);
      expectSameFromJson(EVENT_SCHEMAS['message.received'], shape, reordered);
    }
  });

  it('is copied while Object.prototype has an enumerable key, which zod copies onto each object', () => {
    Object.defineProperty(Object.prototype, 'polluted', {
      value: 1,
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      for (const [, schema, shape] of pairs) {
        for (const sample of samples) expectSameFromJson(schema, shape, JSON.stringify(sample));
      }
    } finally {
      delete (Object.prototype as { polluted?: unknown }).polluted;
    }
    const parsed = JSON.parse(text);
    expect((validateParsedJson(shape, parsed) as { data: unknown }).data).toBe(parsed);
  });
});
