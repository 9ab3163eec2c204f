// Whatever a custom fetch throws (null, a number, a string with the key, a Proxy whose traps throw, an object with
// throwing getters, the key's bytes in a Buffer, a frozen object, an error whose causes loop), the call fails with the
// SDK's own APIConnectionError, and no part of the key is in anything it carries. Checked as the worst logger would
// show it: util.inspect with hidden properties, ten levels deep.
import { inspect } from 'node:util';
import fc from 'fast-check';
import { APIConnectionError, Linkgate } from 'linkgate';
import { ManualClock } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';
import { rejectionOf, throwingFetchClient } from './support/harness.js';

const KEY = 'odd-Q7w8E9r0T1y2U3i4-throws';
const BASE = 'https://links.example.com';

/** Every 8-character slice of the key: none may be shown, so half a key (cut text) counts as the key. */
const PARTS = Array.from({ length: KEY.length - 7 }, (_, i) => KEY.slice(i, i + 8));

/** Everything about `value` a log line could show. */
const shown = (value: unknown) => inspect(value, { depth: 10, showHidden: true, maxStringLength: null });

/** The first slice of the key `value` shows, or undefined. */
const leak = (value: unknown) => PARTS.find((part) => shown(value).includes(part));

/** A client whose fetch throws what `make()` builds, afresh for each attempt. */
const throwing = (make: () => unknown) => throwingFetchClient(KEY, BASE, make);

/** Traps that all throw, with the key in what they throw. */
const hostileTraps: ProxyHandler<object> = Object.fromEntries(
  ['get', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf', 'defineProperty', 'set', 'apply'].map(
    (trap) => [
      trap,
      () => {
        throw new Error(`trap ${trap} for ${KEY}`);
      },
    ],
  ),
);

/** The odd values a custom fetch has been seen to throw, each holding the key where it can. */
const ODD: Record<string, () => unknown> = {
  null: () => null,
  undefined: () => undefined,
  'a number': () => 42,
  NaN: () => Number.NaN,
  'a bigint': () => 10n,
  'a string with the key': () => `refused for Bearer ${KEY}`,
  'a symbol with the key': () => Symbol(KEY),
  'a function': () => () => KEY,
  'a Proxy whose traps throw': () => new Proxy({ key: KEY }, hostileTraps),
  'a Proxy of an Error whose traps throw': () => new Proxy(new TypeError(`fetch failed ${KEY}`), hostileTraps),
  'an object with throwing getters': () => ({
    get message(): string {
      throw new Error(`getter for ${KEY}`);
    },
    get cause(): unknown {
      throw new Error(`getter for ${KEY}`);
    },
  }),
  'an error whose message getter throws': () =>
    Object.defineProperty(new Error('x'), 'message', {
      get() {
        throw new Error(KEY);
      },
    }),
  'a Buffer holding the key': () => Buffer.from(`Authorization: Bearer ${KEY}\r\n`),
  'a Uint8Array holding the key': () => new TextEncoder().encode(`token=${KEY}`),
  'an ArrayBuffer holding the key': () => new TextEncoder().encode(KEY).buffer,
  'a frozen object with the key': () => Object.freeze({ message: `key ${KEY}`, key: KEY }),
  'a frozen Error with the key': () => Object.freeze(new Error(`key ${KEY}`)),
  'an error whose causes loop': () => {
    const a = new Error(`a ${KEY}`);
    const b = new Error(`b ${KEY}`, { cause: a });
    (a as { cause?: unknown }).cause = b;
    return b;
  },
  'a network TypeError whose cause holds the key': () =>
    new TypeError('fetch failed', { cause: { code: `E_${KEY}`, request: { headers: { authorization: KEY } } } }),
  'a long message with the key past the cut': () => new Error(`${'x'.repeat(495)}${KEY}`),
};

describe('what a custom fetch throws', () => {
  for (const [name, make] of Object.entries(ODD)) {
    it(`${name}: an APIConnectionError with no part of the key`, async () => {
      const error = await rejectionOf(throwing(make).account.get());
      expect(error).toBeInstanceOf(APIConnectionError);
      expect((error as Error).message).toMatch(/^GET https:\/\/links\.example\.com\/api\/account could not connect: /);
      expect(leak(error)).toBeUndefined();
    });
  }

  it('null is named, not read (it used to fail with "Cannot read properties of null")', async () => {
    const error = await rejectionOf(throwing(() => null).account.get());
    expect((error as Error).message).toBe(
      `GET ${BASE}/api/account could not connect: null. Check baseUrl and the network.`,
    );
  });

  it('bytes are named by their kind, never shown', async () => {
    const error = await rejectionOf(throwing(() => Buffer.from('hello')).account.get());
    expect((error as Error).message).toBe(
      `GET ${BASE}/api/account could not connect: [object Uint8Array]. Check baseUrl and the network.`,
    );
  });

  it('any mix of them, nested: the same', async () => {
    const names = Object.keys(ODD);
    const odd = fc.constantFrom(...names).map((name) => () => (ODD[name] as () => unknown)());
    const values = fc.letrec<{ value: () => unknown }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        odd,
        fc.tuple(fc.string({ maxLength: 6 }), tie('value')).map(
          ([text, inner]) =>
            () =>
              new Error(`${text} ${KEY}`, { cause: inner() }),
        ),
        fc.array(tie('value'), { maxLength: 3 }).map(
          (items) => () =>
            new AggregateError(
              items.map((f) => f()),
              KEY,
            ),
        ),
        tie('value').map((inner) => () => ({ cause: inner(), message: KEY })),
      ),
    })).value;
    await fc.assert(
      fc.asyncProperty(values, async (make) => {
        const error = await rejectionOf(throwing(make).account.get());
        expect(error).toBeInstanceOf(APIConnectionError);
        expect(leak(error)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});

describe('the key in bytes a hook throws', () => {
  it('is starred over in place: the call fails with the same Buffer, the key no longer in it', async () => {
    const bytes = Buffer.from(`header: Bearer ${KEY}; again ${KEY}`);
    const client = new Linkgate({
      apiKey: KEY,
      baseUrl: BASE,
      clock: new ManualClock(),
      hooks: {
        beforeRequest: [
          () => {
            throw { body: bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
          },
        ],
      },
    });
    const error = await rejectionOf(client.account.get());
    expect((error as { body: unknown }).body).toBe(bytes);
    expect(bytes.toString()).toBe(`header: Bearer ${'*'.repeat(KEY.length)}; again ${'*'.repeat(KEY.length)}`);
    expect(leak(error)).toBeUndefined();
  });
});
