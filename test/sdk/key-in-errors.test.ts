// Nothing reachable from an error the SDK throws may hold the API key: not its message and stack, nor its cause chain,
// AggregateError's errors, headers, body, or anything a hook threw, however odd. Checked as the worst logger would
// show it: util.inspect with hidden properties, ten levels deep.
import { inspect } from 'node:util';
import fc from 'fast-check';
import { APIError, LinkgateError, type LinkgateTypes, MessagingClient, NotFoundError } from 'linkgate';
import { createMockBackend, ManualClock } from 'linkgate/mock';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { BASE_URL, rejectionOf, useMockApi } from './support/harness.js';

const KEY = 'errors-key-SECRET-91b2c3d4e5f6';
const MESSAGING_KEY = 'gw_live_ErrorsKey0123456789abcdefghij';

/** Everything about `value` a log line could show. */
function shown(value: unknown): string {
  return inspect(value, { depth: 10, showHidden: true });
}

/** The message an error carries when the key could not be taken out of what a call would have failed with. */
const REPLACED = /failed with a value holding the API key where it cannot be removed/;

/** How to build one thrown value; built afresh for each call, since scrubbing changes values in place. */
type Recipe =
  | { t: 'text'; s: string }
  | { t: 'key'; before: string; after: string }
  | { t: 'number'; n: number }
  | { t: 'null' | 'undefined' | 'symbol' | 'keyName' | 'headers' }
  | { t: 'array' | 'set' | 'aggregate'; items: Recipe[] }
  | { t: 'object' | 'map'; entries: [string, Recipe][] }
  | { t: 'error'; message: Recipe; cause: Recipe }
  | { t: 'getter' | 'hidden' | 'cyclic' | 'frozen'; inner: Recipe };

const recipes = fc.letrec<{ recipe: Recipe }>((tie) => ({
  recipe: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ t: fc.constant('text' as const), s: fc.string({ maxLength: 8 }) }),
    fc.record({
      t: fc.constant('key' as const),
      before: fc.constantFrom('', 'Bearer ', 'token='),
      after: fc.constantFrom('', ' rejected'),
    }),
    fc.record({ t: fc.constant('number' as const), n: fc.integer() }),
    fc.record({
      t: fc.constantFrom(
        'null' as const,
        'undefined' as const,
        'symbol' as const,
        'keyName' as const,
        'headers' as const,
      ),
    }),
    fc.record({
      t: fc.constantFrom('array' as const, 'set' as const, 'aggregate' as const),
      items: fc.array(tie('recipe'), { maxLength: 3 }),
    }),
    fc.record({
      t: fc.constantFrom('object' as const, 'map' as const),
      entries: fc.array(fc.tuple(fc.constantFrom('a', 'message', KEY), tie('recipe')), { maxLength: 3 }),
    }),
    fc.record({ t: fc.constant('error' as const), message: tie('recipe'), cause: tie('recipe') }),
    fc.record({
      t: fc.constantFrom('getter' as const, 'hidden' as const, 'cyclic' as const, 'frozen' as const),
      inner: tie('recipe'),
    }),
  ),
})).recipe;

/** The value a recipe describes. */
function build(r: Recipe): unknown {
  switch (r.t) {
    case 'text':
      return r.s;
    case 'key':
      return `${r.before}${KEY}${r.after}`;
    case 'number':
      return r.n;
    case 'null':
      return null;
    case 'undefined':
      return undefined;
    case 'symbol':
      return Symbol(`for ${KEY}`);
    case 'keyName':
      return { [KEY]: 1, [Symbol(KEY)]: 2 };
    case 'headers':
      return new Headers({ authorization: `Bearer ${KEY}` });
    case 'array':
      return r.items.map(build);
    case 'set':
      return new Set(r.items.map(build));
    case 'aggregate':
      return new AggregateError(r.items.map(build), `all failed for ${KEY}`);
    case 'object':
      return Object.fromEntries(r.entries.map(([k, v]) => [k, build(v)]));
    case 'map':
      return new Map(r.entries.map(([k, v]) => [k, build(v)]));
    case 'error':
      return new Error(String(build(r.message)), { cause: build(r.cause) });
    case 'getter': {
      const inner = build(r.inner);
      return {
        get value() {
          return inner;
        },
      };
    }
    case 'hidden':
      return Object.defineProperty({}, 'secret', {
        value: build(r.inner),
        enumerable: false,
        configurable: true,
        writable: true,
      });
    case 'cyclic': {
      const node: Record<string, unknown> = { inner: build(r.inner) };
      node.self = node;
      return node;
    }
    case 'frozen':
      return Object.freeze({ inner: build(r.inner) });
  }
}

type Kind = keyof LinkgateTypes.Hooks;

describe('the API key in what a hook throws', () => {
  const ctx = useMockApi(() => ({ adminKey: KEY, rateLimit: false }));
  /** A client whose `kind` hook throws `thrown`; `domains.delete(12345)` then fails, so every kind runs. */
  const throwing = (kind: Kind, thrown: unknown) =>
    ctx.client({
      rateLimit: false,
      maxRetries: 0,
      hooks: {
        [kind]: [
          () => {
            throw thrown;
          },
        ],
      },
    });

  it.each(['beforeRequest', 'afterResponse', 'beforeError'] as Kind[])(
    '%s: whatever shape is thrown, the call fails with it (or, where the key cannot be taken out, a LinkgateError saying so), never showing the key',
    async (kind) => {
      await fc.assert(
        fc.asyncProperty(recipes, async (recipe) => {
          const thrown = build(recipe);
          const error = await rejectionOf(throwing(kind, thrown).domains.delete(12345));
          expect(shown(error)).not.toContain(KEY);
          if (error !== thrown && typeof thrown === 'object' && thrown !== null) {
            expect(error).toBeInstanceOf(LinkgateError);
            expect((error as Error).message).toMatch(REPLACED);
          }
        }),
        { numRuns: 150, seed: 21, endOnFailure: true },
      );
    },
    60_000,
  );

  it('takes it out of an Error’s whole cause chain, message and stack alike, keeping the same objects', async () => {
    const root = new TypeError(`upstream said: Bearer ${KEY}`);
    const middle = new Error('token refresh failed', { cause: root });
    const top = new Error(`call with ${KEY} failed`, { cause: middle });
    const error = await rejectionOf(throwing('beforeRequest', top).account.get());
    expect(error).toBe(top);
    expect(top.message).toBe('call with *** failed');
    expect(root.message).toBe('upstream said: Bearer ***');
    expect(root.stack).toContain('upstream said: Bearer ***');
    expect(shown(error)).not.toContain(KEY);
  });

  it('takes it out of every error of an AggregateError', async () => {
    const thrown = new AggregateError([new Error(`first ${KEY}`), `second ${KEY}`, { detail: KEY }], 'both failed');
    const error = await rejectionOf(throwing('afterResponse', thrown).account.get());
    expect(error).toBe(thrown);
    expect(shown(thrown)).not.toContain(KEY);
    expect(thrown.errors[1]).toBe('second ***');
  });

  it('takes it out of a plain object, a getter’s value and a cyclic object, without looping', async () => {
    const cyclic: Record<string, unknown> = { headers: { authorization: `Bearer ${KEY}` } };
    cyclic.self = cyclic;
    const withGetter = {
      get token() {
        return KEY;
      },
      cyclic,
    };
    const error = await rejectionOf(throwing('beforeRequest', withGetter).account.get());
    expect(error).toBe(withGetter);
    expect(withGetter.token).toBe('***');
    expect(shown(error)).not.toContain(KEY);
    expect(JSON.stringify(withGetter, (k, v) => (k === 'self' ? undefined : v))).not.toContain(KEY);
  });

  it('takes it out of the Request a hook throws along with its error', async () => {
    let thrown: unknown;
    const client = ctx.client({
      hooks: {
        beforeRequest: [
          ({ request }) => {
            thrown = new Error('refused', { cause: { request } });
            throw thrown;
          },
        ],
      },
    });
    const error = await rejectionOf(client.account.get());
    expect(error).toBe(thrown);
    expect(shown(error)).not.toContain(KEY);
  });

  it('fails with a LinkgateError instead of a frozen object that holds it', async () => {
    const frozen = Object.freeze({ key: KEY });
    const error = await rejectionOf(throwing('beforeRequest', frozen).account.get());
    expect(error).toBeInstanceOf(LinkgateError);
    expect((error as Error).message).toMatch(REPLACED);
    expect(shown(error)).not.toContain(KEY);
  });

  it('keeps a frozen object without it as it is', async () => {
    const frozen = Object.freeze({ reason: 'quota' });
    expect(await rejectionOf(throwing('beforeRequest', frozen).account.get())).toBe(frozen);
  });

  it('does not crash on a Proxy that throws on every access: a LinkgateError replaces it', async () => {
    const trap = () => {
      throw new Error(`trap for ${KEY}`);
    };
    const hostile = new Proxy({ key: KEY }, { get: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, has: trap });
    const error = await rejectionOf(throwing('beforeError', hostile).domains.delete(12345));
    expect(error).toBeInstanceOf(LinkgateError);
    expect(shown(error)).not.toContain(KEY);
  });

  it('takes it out of an Error a beforeError hook returns, cause included', async () => {
    const client = ctx.client({
      hooks: {
        beforeError: [({ error }) => new Error(`wrapped for ${KEY}`, { cause: { original: error, key: KEY } })],
      },
    });
    const error = await rejectionOf(client.domains.delete(12345));
    expect((error as Error).message).toBe('wrapped for ***');
    expect(((error as Error).cause as { original: unknown }).original).toBeInstanceOf(NotFoundError);
    expect(shown(error)).not.toContain(KEY);
  });

  it('handles values too deep to check by refusing them, not by walking forever', async () => {
    let deep: Record<string, unknown> = { key: KEY };
    for (let i = 0; i < 10_000; i++) deep = { next: deep };
    const error = await rejectionOf(throwing('beforeRequest', deep).account.get());
    expect(error).toBeInstanceOf(LinkgateError);
    expect((error as Error).message).toMatch(REPLACED);
  });
});

describe('the API key in an answer the server echoes it in', () => {
  const ctx = useMockApi(() => ({ adminKey: KEY }));

  it('is taken out of error.headers and error.body, which console.log(error) would print', async () => {
    ctx.server.use(
      http.get(
        `${BASE_URL}/api/account`,
        () =>
          HttpResponse.json(
            { error: 1, message: 'Key refused', echo: { authorization: `Bearer ${KEY}` } },
            { headers: { 'X-Echo-Authorization': `Bearer ${KEY}` } },
          ),
        { once: true },
      ),
    );
    const error = (await rejectionOf(ctx.client().account.get())) as APIError;
    expect(error).toBeInstanceOf(APIError);
    expect(error.headers.get('x-echo-authorization')).toBe('Bearer ***');
    expect(error.body).toMatchObject({ echo: { authorization: 'Bearer ***' } });
    expect(shown(error)).not.toContain(KEY);
  });
});

describe('a failure answer nested deep', () => {
  const ctx = useMockApi(() => ({ adminKey: KEY }));

  it('stays the APIError it is, its key taken out 500 levels down', async () => {
    const deep = `${'['.repeat(500)}"key ${KEY}"${']'.repeat(500)}`;
    ctx.server.use(
      http.get(`${BASE_URL}/api/account`, () => new HttpResponse(`{"error":1,"message":"No","detail":${deep}}`), {
        once: true,
      }),
    );
    const error = (await rejectionOf(ctx.client().account.get())) as APIError;
    expect(error).toBeInstanceOf(APIError);
    expect(JSON.stringify(error.body)).toContain('"key ***"');
    expect(JSON.stringify(error.body)).not.toContain(KEY);
  });
});

describe('the messaging key', () => {
  const server = setupServer();
  const clock = new ManualClock();
  const backend = createMockBackend({ clock, gateway: { messagingKey: MESSAGING_KEY } });
  const client = (options: ConstructorParameters<typeof MessagingClient>[0] = {}) =>
    new MessagingClient({ apiKey: MESSAGING_KEY, baseUrl: 'http://gateway.test', clock, maxRetries: 0, ...options });
  const send = (c: MessagingClient) => c.messages.send({ device_id: 'auto', phone: '15551234567', message: 'Hi' });

  it('is in nothing a MessagingClient error carries: a hook’s throw, or an answer echoing it', async () => {
    server.listen({ onUnhandledFrame: 'error' });
    try {
      server.resetHandlers(...backend.handlers);
      const thrown = new AggregateError([new Error(`key ${MESSAGING_KEY}`)], 'hook', {
        cause: { headers: new Headers({ authorization: `Bearer ${MESSAGING_KEY}` }) },
      });
      const hooked = client({
        hooks: {
          beforeRequest: [
            () => {
              throw thrown;
            },
          ],
        },
      });
      expect(await rejectionOf(send(hooked))).toBe(thrown);
      expect(shown(thrown)).not.toContain(MESSAGING_KEY);

      server.use(
        http.post('http://gateway.test/api/v1/wa/messages/send', () =>
          HttpResponse.json(
            { success: false, message: 'bad key', key: MESSAGING_KEY },
            { status: 401, headers: { 'X-Echo': MESSAGING_KEY } },
          ),
        ),
      );
      const answered = await rejectionOf(send(client()));
      expect(answered).toBeInstanceOf(APIError);
      expect(shown(answered)).not.toContain(MESSAGING_KEY);
    } finally {
      server.close();
    }
  });
});
