// The two builds of linkgate/webhooks parse with the same zod/mini schemas: browsers and edges run them as written,
// Node runs them compiled by zod's `compile` (src/webhooks/node-parsers.ts). Over the same valid and invalid payloads,
// both must give the same answer: the same event (same values, same keys in the same order) or the same refusal (same
// message, same issues).
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseWebhookEvent } from '../../src/webhooks/index.js';
import { useCompiledEventParsers } from '../../src/webhooks/node-parsers.js';
import { useSchemaPreparer } from '../../src/webhooks/parse.js';
import { deviceQr, deviceStatus, messageAck, messageReceived, messageSent } from './support/fixtures.js';

/** Values that break (or pass) each kind of field: types, bounds, formats, odd objects. */
const ODD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  'sent',
  'read',
  'COOLDOWN',
  'data:image/png;base64,AAAA',
  0,
  -0,
  -1,
  1,
  1.5,
  3,
  4,
  5,
  100,
  100.5,
  2 ** 53,
  -(2 ** 60),
  Number.NaN,
  Number.POSITIVE_INFINITY,
  true,
  10n,
  [],
  [1, 'a'],
  {},
  Object.create(null),
  new Date(0),
  new Map(),
  Symbol('s'),
];

/** Every path to a field of `value` (objects only, as the payloads are). */
function fieldPaths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => [[...prefix, key], ...fieldPaths(inner, [...prefix, key])]);
}

/** A copy of `event` with each change applied: a value set at a path (created if need be), or removed when `remove`. */
function changed(event: object, changes: { path: string[]; value: unknown; remove: boolean }[]): unknown {
  const copy = structuredClone(event) as Record<string, unknown>;
  for (const { path, value, remove } of changes) {
    let target: Record<string, unknown> = copy;
    for (const key of path.slice(0, -1)) {
      const next = target[key];
      if (typeof next !== 'object' || next === null) target[key] = {};
      target = target[key] as Record<string, unknown>;
    }
    const last = path[path.length - 1]!;
    if (remove) delete target[last];
    else target[last] = value;
  }
  return copy;
}

/** A value as plain data, keys in order and prototypes named, so two results compare exactly. */
function shapeOf(value: unknown): unknown {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : Number.isNaN(value) ? 'NaN' : value;
  if (typeof value === 'bigint' || typeof value === 'symbol') return `${typeof value}:${String(value)}`;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(shapeOf);
  const proto = Object.getPrototypeOf(value);
  return {
    proto: proto === null ? null : proto === Object.prototype ? 'Object' : proto.constructor?.name,
    entries: Reflect.ownKeys(value).map((key) => [String(key), shapeOf((value as Record<PropertyKey, unknown>)[key])]),
  };
}

/** What parseWebhookEvent answers for `body`: the event as data, or the refusal's code, message and issues. */
function answer(body: unknown): unknown {
  try {
    return { event: shapeOf(parseWebhookEvent(body)) };
  } catch (error) {
    const { code, message, issues } = error as { code?: string; message: string; issues?: unknown };
    return { code, message, issues: shapeOf(issues) };
  }
}

/** The answers of both builds for `body`: the browser build's (as written), then the Node build's (compiled). */
function bothBuilds(body: unknown): [asWritten: unknown, compiled: unknown] {
  useSchemaPreparer();
  const asWritten = answer(body);
  useCompiledEventParsers();
  const compiled = answer(body);
  return [asWritten, compiled];
}

const samples = [messageReceived, messageAck, messageSent, deviceStatus, await deviceQr()];
const otherEvent = { ...messageReceived, event: 'device.renamed', data: { name: 'Front desk' } };

/** A sample delivery with zero or more fields changed to `values`, removed, or added. */
const changedSample = (value: fc.Arbitrary<unknown>) =>
  fc.constantFrom(...samples, otherEvent).chain((sample) => {
    const paths = fieldPaths(sample);
    const path = fc.oneof(
      fc.constantFrom(...paths),
      // A field no schema knows, at the top, in data or deeper.
      fc
        .tuple(fc.constantFrom([], ['data'], ['data', 'media']), fc.string({ maxLength: 8 }))
        .map(([at, key]) => [...at, key]),
    );
    return fc
      .array(fc.record({ path, value, remove: fc.boolean() }), { maxLength: 3 })
      .map((changes) => changed(sample, changes));
  });
const payload = changedSample(fc.oneof(fc.constantFrom(...ODD_VALUES), fc.jsonValue({ maxDepth: 2 })));
const jsonText = changedSample(fc.jsonValue({ maxDepth: 2 })).map((body) => JSON.stringify(body));

describe('the browser build (zod/mini as written) and the Node build (compiled by zod) answer alike', () => {
  afterAll(() => useSchemaPreparer());

  it('accepts every spec example with the same event', () => {
    for (const sample of [...samples, otherEvent]) {
      const [asWritten, compiled] = bothBuilds(sample);
      expect(asWritten).toHaveProperty('event');
      expect(compiled).toEqual(asWritten);
    }
  });

  it('gives the same event or the same refusal, word for word, for changed payloads', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(payload, (body) => {
        const [asWritten, compiled] = bothBuilds(body);
        expect(compiled).toEqual(asWritten);
        if ((asWritten as { event?: unknown }).event) accepted++;
        else refused++;
      }),
      { numRuns: 3000 },
    );
    // Both kinds of answer were compared, many times each.
    expect(accepted).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(300);
  });

  it('answers alike for the JSON text a receiver parses, own "__proto__" keys and random JSON included', () => {
    const text = fc.oneof(
      jsonText,
      jsonText.map((body) => body.replace('{', '{"__proto__":{"event":"message.ack","polluted":1},')),
      fc.jsonValue().map((value) => JSON.stringify(value)),
    );
    fc.assert(
      fc.property(text, (body) => {
        const [asWritten, compiled] = bothBuilds(body);
        expect(compiled).toEqual(asWritten);
      }),
      { numRuns: 2000 },
    );
  });

  it('answers alike for objects with inherited fields and odd prototypes', () => {
    const inherited = Object.assign(Object.create({ device_id: 'device-1' }), { ...messageSent, device_id: undefined });
    delete inherited.device_id;
    const nullProto = Object.assign(Object.create(null), structuredClone(messageAck));
    const dataNullProto = { ...messageReceived, data: Object.assign(Object.create(null), messageReceived.data) };
    const classData = { ...otherEvent, data: new (class Reading {})() };
    for (const body of [inherited, nullProto, dataNullProto, classData, [], null, 'x', 42]) {
      const [asWritten, compiled] = bothBuilds(body);
      expect(compiled).toEqual(asWritten);
    }
  });
});
