// The issues of a payload that breaks its schema read word for word as they did when the event schemas were classic
// zod (every message below was recorded from that build): the schemas moved to zod/mini, which ships no messages, and
// the receiver parses with them (compiled by zod's `compile` under Node); neither may change what a receiver logs or
// answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWebhookEvent, WebhookVerificationError } from '../../src/webhooks/index.js';
import { useCompiledEventParsers } from '../../src/webhooks/node-parsers.js';
import { useSchemaPreparer } from '../../src/webhooks/parse.js';
import { deviceQr, deviceStatus, messageAck, messageReceived } from './support/fixtures.js';

type Issue = [path: (string | number)[], message: string, code: string];

/** A copy of `event` with the field at `path` set to `value` (removed when undefined). */
function withField(event: object, path: string[], value: unknown): unknown {
  const copy = structuredClone(event) as Record<string, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}

function issuesOf(body: unknown): Issue[] {
  try {
    parseWebhookEvent(body);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return (error.issues ?? []).map((i) => [i.path as (string | number)[], i.message, i.code]);
  }
  throw new Error('expected the payload to be refused');
}

const qr = await deviceQr();
const cases: [what: string, body: unknown, issues: Issue[]][] = [
  [
    'a missing string',
    withField(messageReceived, ['data', 'sender'], undefined),
    [[['data', 'sender'], 'Invalid input: expected string, received undefined', 'invalid_type']],
  ],
  [
    'a number where a string belongs',
    withField(messageReceived, ['device_id'], 6),
    [[['device_id'], 'Invalid input: expected string, received number', 'invalid_type']],
  ],
  [
    'a fraction where an integer belongs',
    withField(messageReceived, ['timestamp'], 1.5),
    [[['timestamp'], 'Invalid input: expected int, received number', 'invalid_type']],
  ],
  [
    'an integer past the safe range',
    withField(messageReceived, ['timestamp'], 2 ** 60),
    [[['timestamp'], 'Too big: expected int to be <=9007199254740991', 'too_big']],
  ],
  [
    'a string where a boolean belongs',
    withField(messageReceived, ['data', 'has_media'], 'x'),
    [[['data', 'has_media'], 'Invalid input: expected boolean, received string', 'invalid_type']],
  ],
  [
    'a negative file size',
    withField(messageReceived, ['data', 'media', 'file_size'], -1),
    [[['data', 'media', 'file_size'], 'Too small: expected number to be >=0', 'too_small']],
  ],
  [
    'a missing data object',
    withField(messageAck, ['data'], undefined),
    [[['data'], 'Invalid input: expected object, received undefined', 'invalid_type']],
  ],
  [
    'a status outside the enum',
    withField(messageAck, ['data', 'status'], 'x'),
    [[['data', 'status'], 'Invalid option: expected one of "sent"|"delivered"|"read"|"played"', 'invalid_value']],
  ],
  [
    'a status code above the range, not matching its status',
    withField(messageAck, ['data', 'status_code'], 6),
    [
      [['data', 'status_code'], 'Too big: expected number to be <=4', 'too_big'],
      [['data', 'status_code'], 'status_code must match status (1 sent, 2 delivered, 3 read, 4 played)', 'custom'],
    ],
  ],
  [
    'a heat score above 100',
    withField(deviceStatus, ['data', 'heat_score'], 101),
    [[['data', 'heat_score'], 'Too big: expected number to be <=100', 'too_big']],
  ],
  [
    'a QR image that is not a PNG data URI',
    withField(qr, ['data', 'qr_image_url'], 'x'),
    [[['data', 'qr_image_url'], 'Invalid string: must start with "data:image/png;base64,"', 'invalid_format']],
  ],
  [
    'an expiry of zero seconds',
    withField(qr, ['data', 'expires_in'], 0),
    [[['data', 'expires_in'], 'Too small: expected number to be >0', 'too_small']],
  ],
  [
    'an unknown event without data',
    withField({ ...messageReceived, event: 'other.event' }, ['data'], undefined),
    [[['data'], 'Invalid input: expected record, received undefined', 'invalid_type']],
  ],
];

describe.each([
  ['as browsers and edges parse them (the zod/mini schemas as written)', () => useSchemaPreparer()],
  ['as the Node build parses them (the schemas compiled by zod)', useCompiledEventParsers],
])('payload issues, %s', (_, setUp) => {
  beforeAll(setUp);
  // Back to the default, so files after this one in the worker parse as the package does.
  afterAll(() => useSchemaPreparer());

  it.each(cases)('names %s in the words classic zod used', (_what, body, issues) => {
    expect(issuesOf(body)).toEqual(issues);
  });

  it('accepts the spec examples unchanged', () => {
    expect(parseWebhookEvent(messageReceived)).toMatchObject({ ...messageReceived, known: true });
    expect(parseWebhookEvent(qr)).toMatchObject({ ...qr, known: true });
  });
});
