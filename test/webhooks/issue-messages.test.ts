// The event schemas' issues get their English messages per parse, from a map that words only the issues those schemas
// can raise (src/webhooks/issue-messages.ts), not from zod's global configuration: importing linkgate/webhooks changes
// nothing in the app's own zod set-up, and every issue still reads as zod's `en` locale words it.

import { afterEach, describe, expect, it } from 'vitest';
import { en, fr } from 'zod/locales';
import * as z from 'zod/mini';
import { EVENT_SCHEMAS, EventEnvelope } from '../../src/schemas/events.js';
import { parseWebhookEvent, WebhookVerificationError } from '../../src/webhooks/index.js';
import { ENGLISH } from '../../src/webhooks/issue-messages.js';
import { deviceQr, deviceStatus, messageAck, messageReceived, messageSent } from './support/fixtures.js';

/** Values that break (or pass) each kind of field: types, bounds, formats, odd objects. */
const VALUES: unknown[] = [
  undefined,
  null,
  '',
  'x',
  'sent',
  'data:image/png;base64,',
  0,
  -1,
  1,
  1.5,
  4,
  5,
  6,
  100,
  101,
  2 ** 60,
  -(2 ** 60),
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  true,
  10n,
  [],
  [1],
  {},
  Object.create(null),
  new Date(0),
  new (class Gadget {})(),
  new Map(),
  () => {},
  Symbol('s'),
];

/** Every path to a field of `value` (objects only, as the payloads are). */
function fieldPaths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => [[...prefix, key], ...fieldPaths(inner, [...prefix, key])]);
}

function withField(event: object, path: string[], value: unknown): unknown {
  const copy = structuredClone(event) as Record<string, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
  target[path[path.length - 1]!] = value;
  return copy;
}

const qr = await deviceQr();
const samples = [messageReceived, messageAck, messageSent, deviceStatus, qr];
/** Every sample with every field set to every value, plus whole bodies of every value and a symbol-keyed data. */
const bodies: unknown[] = [
  ...VALUES,
  ...samples.flatMap((sample) =>
    fieldPaths(sample).flatMap((path) => VALUES.map((value) => withField(sample, path, value))),
  ),
  { ...messageReceived, event: 'other.event', data: { [Symbol('k')]: 1 } },
  ...VALUES.map((value) => ({ ...messageReceived, event: 'other.event', data: value })),
];
const schemas = [...Object.values(EVENT_SCHEMAS), EventEnvelope];
const enLocale = { error: en().localeError };

describe('the English messages of the event schemas', () => {
  it('word every issue the schemas raise as zod’s en locale does', () => {
    const codes = new Set<string>();
    let compared = 0;
    for (const schema of schemas) {
      for (const body of bodies) {
        const ours = schema.safeParse(body, ENGLISH);
        if (ours.success) continue;
        const theirs = schema.safeParse(body, enLocale);
        expect(ours.error.issues).toEqual(theirs.success ? [] : theirs.error.issues);
        for (const issue of ours.error.issues) codes.add(issue.code);
        compared += ours.error.issues.length;
      }
    }
    // The comparison reached every code the map words (the custom one carries its own message).
    expect([...codes].sort()).toEqual([
      'custom',
      'invalid_format',
      'invalid_key',
      'invalid_type',
      'invalid_value',
      'too_big',
      'too_small',
    ]);
    expect(compared).toBeGreaterThan(1000);
  });
});

describe('importing linkgate/webhooks', () => {
  afterEach(() => {
    z.config({ localeError: undefined });
  });

  it('sets no zod locale of its own (nothing runs at import)', () => {
    expect(z.config().localeError).toBeUndefined();
  });

  it('keeps an app’s own locale, and still words the payload issues in English', () => {
    const french = fr().localeError;
    z.config({ localeError: french });
    try {
      parseWebhookEvent({ ...messageReceived, device_id: 6 });
      expect.unreachable('the payload should be refused');
    } catch (error) {
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect((error as WebhookVerificationError).issues).toEqual([
        { path: ['device_id'], message: 'Invalid input: expected string, received number', code: 'invalid_type' },
      ]);
    }
    expect(z.config().localeError).toBe(french);
    expect(z.string().safeParse(6).error?.issues[0]?.message).toBe(
      french({
        code: 'invalid_type',
        expected: 'string',
        input: 6,
      } as never),
    );
  });
});
