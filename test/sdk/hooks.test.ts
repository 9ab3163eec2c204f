import {
  APIConnectionError,
  APIError,
  LinkgateError,
  type LinkgateTypes,
  MessagingClient,
  NotFoundError,
  RateLimitError,
  ValidationError,
} from 'linkgate';
import { createMockBackend, ManualClock } from 'linkgate/mock';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { BASE_URL, rejectionOf, type SdkTestContext, settle, settleWithIo, useMockApi } from './support/harness.js';

/** A key no message, stack or trace may show. */
const KEY = 'hooks-key-SECRET-7f3a9c0d1e2b';

type Hooks = LinkgateTypes.Hooks;

/** Makes the first `failures` GETs of `path` fail with `answer` (a hostile proxy); later ones reach the mock. */
function failFirst(ctx: SdkTestContext, path: string, failures: number, answer: () => Response): void {
  let seen = 0;
  ctx.server.use(http.get(`${BASE_URL}${path}`, () => (++seen <= failures ? answer() : undefined)));
}

/** The requests that reached the network (msw), with their headers. */
function sentRequests(ctx: SdkTestContext): Request[] {
  const sent: Request[] = [];
  ctx.server.events.on('request:start', ({ request }) => {
    sent.push(request);
  });
  return sent;
}

describe('hooks on the request path', () => {
  const ctx = useMockApi(() => ({ adminKey: KEY }));

  it('runs each kind in the order given, told the operation, method, route and attempt', async () => {
    const row = ctx.backend.store.addDomain(1, { domain: 'https://go.example.com' });
    const seen: string[] = [];
    const record =
      (name: string) =>
      ({ operation, method, route, attempt, retryCount }: LinkgateTypes.HookContext) => {
        seen.push(`${name} ${operation} ${method} ${route} attempt ${attempt} retryCount ${retryCount}`);
      };
    const client = ctx.client({
      hooks: {
        beforeRequest: [record('beforeRequest 1'), record('beforeRequest 2')],
        afterResponse: [record('afterResponse 1'), record('afterResponse 2')],
      },
    });
    await client.domains.update(row.id, { redirectroot: 'https://example.com' });
    expect(seen).toEqual([
      'beforeRequest 1 domains.update PUT /api/domain/{id}/update attempt 1 retryCount 0',
      'beforeRequest 2 domains.update PUT /api/domain/{id}/update attempt 1 retryCount 0',
      'afterResponse 1 domains.update PUT /api/domain/{id}/update attempt 1 retryCount 0',
      'afterResponse 2 domains.update PUT /api/domain/{id}/update attempt 1 retryCount 0',
    ]);
  });

  it('sends the headers a beforeRequest hook sets, on every attempt, the key untouched', async () => {
    failFirst(ctx, '/api/account', 1, () => HttpResponse.json({}, { status: 503 }));
    const sent = sentRequests(ctx);
    const client = ctx.client({
      hooks: { beforeRequest: [({ request, attempt }) => request.headers.set('X-Attempt', String(attempt))] },
    });
    const outcome = await settle(ctx.clock, Promise.resolve(client.account.get()));
    expect(outcome.ok).toBe(true);
    expect(sent.map((r) => r.headers.get('x-attempt'))).toEqual(['1', '2']);
    expect(sent.map((r) => r.headers.get('authorization'))).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
  });

  it('sends the Request a beforeRequest hook returns, and later hooks see it', async () => {
    const sent = sentRequests(ctx);
    let seenByNext: string | null = null;
    const client = ctx.client({
      hooks: {
        beforeRequest: [
          ({ request }) => new Request(request, { headers: { ...Object.fromEntries(request.headers), 'X-Tag': 'a' } }),
          ({ request }) => {
            seenByNext = request.headers.get('x-tag');
          },
        ],
      },
    });
    await client.account.get();
    expect(seenByNext).toBe('a');
    expect(sent[0]?.headers.get('x-tag')).toBe('a');
  });

  it('judges the Response a beforeRequest hook returns as the answer, sending nothing', async () => {
    const sent = sentRequests(ctx);
    const client = ctx.client({
      hooks: {
        beforeRequest: [() => Response.json({ error: 1, message: 'Domain does not exist.' })],
      },
    });
    const error = await rejectionOf(client.domains.delete(12345));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(sent).toHaveLength(0);
  });

  it('shows beforeRetry each retry before its wait: the attempt to come, the back-off and the classified error', async () => {
    failFirst(ctx, '/api/account', 2, () => HttpResponse.json({}, { status: 503 }));
    const sentAt: number[] = [];
    ctx.server.events.on('request:start', () => {
      sentAt.push(ctx.clock.now());
    });
    const retries: string[] = [];
    const client = ctx.client({
      random: () => 0,
      hooks: {
        beforeRetry: [
          ({ attempt, retryCount, delay, error }) => {
            retries.push(
              `at ${ctx.clock.now() - (sentAt[0] ?? 0)} ms: attempt ${attempt} (retry ${retryCount}) in ${delay} ms after ${error.name} ${(error as APIError).status}`,
            );
          },
        ],
      },
    });
    const outcome = await settle(ctx.clock, Promise.resolve(client.account.get()));
    expect(outcome.ok).toBe(true);
    expect(retries).toEqual([
      'at 0 ms: attempt 2 (retry 1) in 500 ms after APIError 503',
      'at 500 ms: attempt 3 (retry 2) in 1000 ms after APIError 503',
    ]);
    expect(sentAt.map((t) => t - (sentAt[0] ?? 0))).toEqual([0, 500, 1500]);
  });

  it('lets afterResponse read every answer with the rate-limit state it stated, and replace it', async () => {
    const seen: string[] = [];
    const client = ctx.client({
      hooks: {
        afterResponse: [
          async ({ response, rateLimit }) => {
            const body = (await response.json()) as { data: { username: string } };
            seen.push(`${response.status} ${body.data.username} remaining ${rateLimit?.remaining}`);
          },
          async ({ response }) => {
            const body = (await response.json()) as { data: Record<string, unknown> };
            return Response.json({ ...body, data: { ...body.data, username: 'renamed' } });
          },
        ],
      },
    });
    const account = await client.account.get();
    expect(seen).toEqual(['200 admin remaining 29']);
    expect(account.username).toBe('renamed');
  });

  it('gives beforeError the final error with its attempts, and fails the call with the Error it returns', async () => {
    failFirst(ctx, '/api/account', 99, () => HttpResponse.json({}, { status: 502 }));
    const seen: unknown[] = [];
    const client = ctx.client({
      random: () => 0,
      hooks: {
        beforeError: [
          ({ error, attempt }) => {
            seen.push(error, attempt);
            return new Error(`account.get failed after ${(error as APIError).attempts} attempts`, { cause: error });
          },
        ],
      },
    });
    const outcome = await settle(ctx.clock, Promise.resolve(client.account.get()));
    expect(outcome.ok).toBe(false);
    const error = (outcome as { error: Error }).error;
    expect(error.message).toBe('account.get failed after 3 attempts');
    expect(seen[0]).toBeInstanceOf(APIError);
    expect(seen[1]).toBe(3);
    expect(error.cause).toBe(seen[0]);
  });

  it('does not run beforeError for a success, for arguments refused before sending, or for a hook’s own throw', async () => {
    let calls = 0;
    const client = ctx.client({
      hooks: {
        beforeError: [
          () => {
            calls++;
          },
        ],
      },
    });
    await client.account.get();
    expect(await rejectionOf(client.domains.delete(-1))).toBeInstanceOf(ValidationError);
    const throwing = ctx.client({
      hooks: {
        beforeRequest: [
          () => {
            throw new Error('no');
          },
        ],
        beforeError: [
          () => {
            calls++;
          },
        ],
      },
    });
    expect(await rejectionOf(throwing.account.get())).toMatchObject({ message: 'no' });
    expect(calls).toBe(0);
  });

  describe('a throwing hook', () => {
    /** A hook that throws an Error naming the key, as a careless one might. */
    const careless = () => {
      throw new TypeError(`token rejected: Bearer ${KEY}`);
    };
    const kinds: [keyof Hooks, number][] = [
      ['beforeRequest', 0],
      ['afterResponse', 1],
      ['beforeRetry', 1],
      ['beforeError', 3],
    ];

    it.each(kinds)(
      '%s: fails the call with its error, unretried, the key scrubbed from message and stack',
      async (kind, requests) => {
        failFirst(ctx, '/api/account', 99, () => HttpResponse.json({}, { status: 503 }));
        const sent = sentRequests(ctx);
        const client = ctx.client({ random: () => 0, hooks: { [kind]: [careless] } });
        const outcome = await settle(ctx.clock, Promise.resolve(client.account.get()));
        const error = (outcome as { error: Error }).error;
        expect(error).toBeInstanceOf(TypeError);
        expect(error.message).toBe('token rejected: Bearer ***');
        expect(error.stack).toContain('token rejected: Bearer ***');
        expect(`${error.message}\n${error.stack}`).not.toContain(KEY);
        expect(sent).toHaveLength(requests);
      },
    );

    it('that throws a string fails the call with the string, scrubbed', async () => {
      const client = ctx.client({
        hooks: {
          beforeRequest: [
            () => {
              throw `key ${KEY} refused`;
            },
          ],
        },
      });
      expect(await rejectionOf(client.account.get())).toBe('key *** refused');
    });
  });

  it('shows hooks errors without the key, even when the server quoted it', async () => {
    failFirst(ctx, '/api/account', 99, () =>
      HttpResponse.json({ message: `key ${KEY} is overloaded` }, { status: 503 }),
    );
    const seen: string[] = [];
    const show = ({ error }: { error: Error }) => void seen.push(`${error.message}\n${error.stack}`);
    const client = ctx.client({ random: () => 0, hooks: { beforeRetry: [show], beforeError: [show] } });
    const outcome = await settle(ctx.clock, Promise.resolve(client.account.get()));
    expect(outcome.ok).toBe(false);
    expect(seen).toHaveLength(3);
    expect(seen.every((text) => text.includes('key *** is overloaded'))).toBe(true);
    expect(seen.join('\n')).not.toContain(KEY);
  });

  it('gives every APIError the rate-limit figures of its answer and the attempts made', async () => {
    const client = ctx.client();
    const notFound = (await rejectionOf(client.domains.delete(12345))) as NotFoundError;
    expect(notFound).toBeInstanceOf(NotFoundError);
    expect(notFound.attempts).toBe(1);
    expect(notFound.rateLimit).toEqual({ limit: 30, remaining: 29, resetAt: client.rateLimit?.resetAt });
  });

  it('counts the attempts of a connection error that was retried', async () => {
    failFirst(ctx, '/api/account', 99, () => HttpResponse.error());
    const outcome = await settle(ctx.clock, Promise.resolve(ctx.client().account.get()));
    const error = (outcome as { error: APIConnectionError }).error;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.attempts).toBe(3);
  });

  it('refuses a hooks option that is not a list of functions, naming the list', () => {
    expect(() => ctx.client({ hooks: { beforeRetry: 'log' as never } })).toThrow(
      'Linkgate: hooks.beforeRetry must be an array of functions, e.g. [(state) => {}].',
    );
    expect(() => ctx.client({ hooks: { afterResponse: [null as never] } })).toThrow(LinkgateError);
  });

  it('keeps the hooks it was given: adding to the array afterwards changes nothing', async () => {
    const list: NonNullable<Hooks['beforeRequest']> = [];
    const client = ctx.client({ hooks: { beforeRequest: list } });
    let ran = false;
    list.push(() => {
      ran = true;
    });
    await client.account.get();
    expect(ran).toBe(false);
  });
});

describe('hooks and rate-limit answers', () => {
  const ctx = useMockApi(() => ({ adminKey: KEY, rateLimit: { limit: 2, windowMs: 10_000 } }));

  it('shows beforeRetry a rate-limit answer: the wait until the reset and the spent budget', async () => {
    const retries: LinkgateTypes.BeforeRetryState[] = [];
    // The limiter off: calls go out freely, so the third is answered "rate limited" and waited out.
    const client = ctx.client({ rateLimit: false, hooks: { beforeRetry: [(state) => void retries.push(state)] } });
    await client.account.get();
    await client.account.get();
    const started = ctx.clock.now();
    await settleWithIo(ctx.clock, Promise.resolve(client.account.get()));
    expect(retries).toHaveLength(1);
    const [retry] = retries;
    expect(retry?.error).toBeInstanceOf(RateLimitError);
    expect(retry?.attempt).toBe(2);
    expect(retry?.rateLimit).toMatchObject({ limit: 2, remaining: 0 });
    // Until the window's reset: within the mock's 10 s window, and exactly as long as the call then waited.
    expect(retry?.delay).toBeGreaterThan(0);
    expect(retry?.delay).toBeLessThanOrEqual(10_000);
    expect(ctx.clock.now() - started).toBe(retry?.delay);
  });

  it('gives a RateLimitError refused before sending the budget as it stood, and 0 attempts', async () => {
    const client = ctx.client({ rateLimit: 'throw' });
    await client.account.get();
    await client.account.get();
    const error = (await rejectionOf(client.account.get())) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.attempts).toBe(0);
    expect(error.rateLimit).toMatchObject({ limit: 2, remaining: 0 });
  });
});

describe('hooks on the messaging client', () => {
  const MESSAGING_KEY = 'gw_live_HooksKey0123456789abcdefghij';
  const server = setupServer();
  const clock = new ManualClock();
  const backend = createMockBackend({ clock, gateway: { messagingKey: MESSAGING_KEY } });

  it('runs the same hooks, told the messaging operation and route', async () => {
    server.listen({ onUnhandledFrame: 'error' });
    try {
      server.resetHandlers(...backend.handlers);
      const device = backend.gateway.devices.add({ status: 'ONLINE' });
      const seen: string[] = [];
      const client = new MessagingClient({
        apiKey: MESSAGING_KEY,
        baseUrl: 'http://gateway.test',
        clock,
        hooks: {
          beforeRequest: [({ operation, route }) => void seen.push(`${operation} ${route}`)],
          afterResponse: [({ response }) => void seen.push(`answered ${response.status}`)],
        },
      });
      await client.messages.send({ device_id: device.id, phone: '15551234567', message: 'Hi' });
      expect(seen).toEqual(['messages.send /api/v1/wa/messages/send', 'answered 200']);
    } finally {
      server.close();
    }
  });
});
