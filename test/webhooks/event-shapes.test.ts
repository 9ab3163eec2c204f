// The browser receiver's shape table (src/webhooks/event-shapes.generated.ts) is generated from the zod schemas of
// src/schemas/events.ts, which stay the one place each event's shape is written: the committed table must be what the
// generator writes today, and the generator refuses any construct it cannot write out faithfully.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  EVENT_SHAPES_COMMAND,
  EVENT_SHAPES_FILE,
  eventShapesModule,
  fieldShape,
  objectShape,
} from '../../scripts/event-shapes.js';
import { ackStatusCode } from '../../src/shared/event-refinements.js';
import { EVENT_SHAPES } from '../../src/webhooks/event-shapes.generated.js';

const committed = readFileSync(fileURLToPath(new URL(`../../${EVENT_SHAPES_FILE}`, import.meta.url)), 'utf8');

describe('the generated shape table', () => {
  it(`is what the generator writes from the schemas today (else run ${EVENT_SHAPES_COMMAND})`, () => {
    expect(eventShapesModule()).toBe(committed);
  });

  it('says it is generated, and by which command', () => {
    expect(committed.split('\n')[0]).toContain(EVENT_SHAPES_COMMAND);
    expect(committed).toContain('do not edit');
  });

  it('names the message.ack refinement rather than holding code', () => {
    expect(EVENT_SHAPES['message.ack'][2]).toBe(true);
    expect((EVENT_SHAPES['message.ack'][1].data as readonly unknown[])[3]).toBe('ackStatusCode');
  });
});

describe('the generator', () => {
  it('writes out the constructs the validator knows', () => {
    expect(fieldShape(z.nullable(z.optional(z.number().check(z.int32(), z.lt(3)))), 'x')).toEqual([
      'nullable',
      ['optional', ['number', ['format', 'int', -2147483648, 2147483647], ['max', 3, false]]],
    ]);
    expect(objectShape(z.object({ a: z.literal(['a', 1]) }), 'x')).toEqual([
      'object',
      { a: ['value', ['a', 1]] },
      false,
    ]);
  });

  it.each([
    ['an array', z.array(z.string())],
    ['a union', z.union([z.string(), z.number()])],
    ['a string length check', z.string().check(z.maxLength(3))],
    ['a regex', z.string().check(z.regex(/a/))],
    ['a multiple-of check', z.number().check(z.multipleOf(2))],
    ['a schema with its own error map', z.string({ error: 'no' })],
    ['a check with its own message', z.number().check(z.minimum(1, 'too few'))],
    ['a check that aborts', z.number().check(z.minimum(1, { abort: true }))],
    ['a record of strings', z.record(z.string(), z.string())],
    ['a strict object', z.strictObject({ a: z.string() })],
    ['an object with a catchall of strings', z.catchall(z.object({}), z.string())],
    ['an unknown field', z.object({ a: z.unknown() })],
    ['a refine not in src/shared/event-refinements.ts', z.object({}).check(z.refine(() => true))],
    [
      'a known refine with another message',
      z
        .object({})
        .check(
          z.refine(ackStatusCode.test as (data: object) => boolean, { message: 'other', path: ackStatusCode.path }),
        ),
    ],
    ['a bigint literal', z.literal(1n)],
    ['a default', z._default(z.string(), 'x')],
  ])('refuses %s', (_what, schema) => {
    expect(() => fieldShape(schema, 'x')).toThrow();
  });
});
