import { AsyncLocalStorage } from 'node:async_hooks';
import { tracingChannel } from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import { APIError, type LinkgateTypes, NotFoundError } from 'linkgate';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { channelsOf, startTrace, tracingChannels } from '../../src/core/traces.js';
import { BASE_URL, rejectionOf, type SdkTestContext, settle, settleWithIo, useMockApi } from './support/harness.js';

/** A key no trace may show. */
const KEY = 'traces-key-SECRET-4b8e2f61a0';

type Event = 'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error';
const EVENTS: Event[] = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'];

/** One event as a subscriber saw it at that moment. */
interface Seen {
  channel: 'request' | 'attempt';
  event: Event;
  operation: string;
  route: string;
  attempt?: number;
  attempts?: number;
  status?: number;
  rateLimitWait: number;
  error?: unknown;
  /** Everything the context held, as a subscriber that prints it would show it. */
  printed: string;
}

const unsubscribers: (() => void)[] = [];
afterEach(() => {
  while (unsubscribers.length) unsubscribers.pop()?.();
});

/** Subscribes to both channels as a tracer would, recording each event until the test ends. */
function recordTraces(): Seen[] {
  const seen: Seen[] = [];
  const subscribe = (channel: 'request' | 'attempt') => {
    const tc = tracingChannel<object, LinkgateTypes.RequestTrace | LinkgateTypes.AttemptTrace>(`linkgate:${channel}`);
    const handlers = Object.fromEntries(
      EVENTS.map((event) => [
        event,
        (context: LinkgateTypes.RequestTrace | LinkgateTypes.AttemptTrace) => {
          const call = 'call' in context ? context.call : context;
          seen.push({
            channel,
            event,
            operation: call.operation,
            route: call.route,
            ...('call' in context ? { attempt: context.attempt } : { attempts: context.attempts }),
            status: context.status,
            rateLimitWait: context.rateLimitWait,
            error: context.error,
            printed: `${inspect(context, { depth: 5 })} ${JSON.stringify({ ...context, call: undefined })}`,
          } as Seen);
        },
      ]),
    );
    tc.subscribe(handlers as never);
    unsubscribers.push(() => tc.unsubscribe(handlers as never));
  };
  subscribe('request');
  subscribe('attempt');
  return seen;
}

/** Makes the first `failures` GETs of `path` fail with `answer` (a hostile proxy); later ones reach the mock. */
function failFirst(ctx: SdkTestContext, path: string, failures: number, answer: () => Response): void {
  let seen = 0;
  ctx.server.use(http.get(`${BASE_URL}${path}`, () => (++seen <= failures ? answer() : undefined)));
}

describe('traces on diagnostics_channel', () => {
  const ctx = useMockApi(() => ({ adminKey: KEY }));

  it('publishes a call on linkgate:request and its attempt on linkgate:attempt, in TracingChannel order', async () => {
    const row = ctx.backend.store.addDomain(1, { domain: 'https://go.example.com' });
    const seen = recordTraces();
    await ctx.client().domains.update(row.id, { redirectroot: 'https://example.com' });
    expect(seen.map((s) => `${s.channel} ${s.event}`)).toEqual([
      'request start',
      'attempt start',
      'attempt end',
      'request end',
      'attempt asyncStart',
      'attempt asyncEnd',
      'request asyncStart',
      'request asyncEnd',
    ]);
    const end = seen.at(-1);
    expect(end).toMatchObject({ operation: 'domains.update', route: '/api/domain/{id}/update', attempts: 1 });
    expect(end?.status).toBe(200);
    expect(end?.error).toBeUndefined();
    expect(seen.find((s) => s.channel === 'attempt' && s.event === 'asyncEnd')).toMatchObject({
      attempt: 1,
      status: 200,
      rateLimitWait: 0,
    });
  });

  it('publishes the error a failed call rejects with, and how many attempts it made', async () => {
    const seen = recordTraces();
    const error = await rejectionOf(ctx.client().domains.delete(12345));
    expect(error).toBeInstanceOf(NotFoundError);
    const errors = seen.filter((s) => s.event === 'error');
    expect(errors.map((s) => s.channel)).toEqual(['attempt', 'request']);
    expect(errors.every((s) => s.error === error)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ event: 'asyncEnd', attempts: 1, status: 200, error });
  });

  it('publishes nothing for arguments refused before anything was sent', async () => {
    const seen = recordTraces();
    await rejectionOf(ctx.client().domains.delete(-1));
    expect(seen).toEqual([]);
  });

  it('never carries the API key, the filled-in path or the answer, whatever happens', async () => {
    const row = ctx.backend.store.addDomain(1, { domain: 'https://go.example.com' });
    failFirst(ctx, '/api/account', 1, () => HttpResponse.json({ message: `bad key ${KEY}` }, { status: 503 }));
    const seen = recordTraces();
    const client = ctx.client({
      random: () => 0,
      hooks: {
        beforeRequest: [
          ({ operation }) => {
            if (operation === 'domains.delete') throw new Error(`refused ${KEY}`);
          },
        ],
      },
    });
    await settle(ctx.clock, Promise.resolve(client.account.get()));
    await client.domains.update(row.id, { redirectroot: 'https://example.com' });
    // An admin's list of users holds their API keys, the admin's among them.
    const users = await client.users.list();
    expect(JSON.stringify(users)).toContain(KEY);
    await rejectionOf(client.domains.delete(12345));
    await rejectionOf(client.pixels.delete(12345));
    expect(seen.length).toBeGreaterThan(20);
    const printed = seen.map((s) => s.printed).join('\n');
    expect(printed).not.toContain(KEY);
    expect(printed).not.toContain(`/api/domain/${row.id}/update`);
    expect(printed).not.toContain('admin@');
  });
});

describe('stores bound to the tracing channels', () => {
  const ctx = useMockApi(() => ({ adminKey: KEY }));

  it('are current while the call and each attempt run, hooks included', async () => {
    const callStore = new AsyncLocalStorage<string>();
    const attemptStore = new AsyncLocalStorage<string>();
    const requests = tracingChannel<string, LinkgateTypes.RequestTrace>('linkgate:request');
    const attempts = tracingChannel<string, LinkgateTypes.AttemptTrace>('linkgate:attempt');
    requests.start.bindStore(callStore, (call) => `call ${call.operation}`);
    attempts.start.bindStore(attemptStore, (attempt) => `attempt ${attempt.attempt}`);
    unsubscribers.push(() => {
      requests.start.unbindStore(callStore);
      attempts.start.unbindStore(attemptStore);
    });
    const seen: string[] = [];
    const client = ctx.client({
      hooks: {
        beforeRequest: [() => void seen.push(`${callStore.getStore()}, ${attemptStore.getStore()}`)],
        afterResponse: [() => void seen.push(`${callStore.getStore()}, ${attemptStore.getStore()}`)],
      },
    });
    await client.account.get();
    expect(seen).toEqual(['call account.get, attempt 1', 'call account.get, attempt 1']);
    expect(callStore.getStore()).toBeUndefined();
  });
});

describe('traces of a call that retried and waited for the rate window', () => {
  const ctx = useMockApi(() => ({ adminKey: KEY, rateLimit: { limit: 2, windowMs: 10_000 } }));

  it('shows each attempt with its status and error, and the wait for budget before the retry', async () => {
    const client = ctx.client({ random: () => 0 });
    await client.account.get();
    // The second call's first answer is a proxy's 503: the client spent its last request on it, so the retry
    // waits for the window to reset before it is sent.
    failFirst(ctx, '/api/account', 1, () => HttpResponse.json({}, { status: 503 }));
    const seen = recordTraces();
    const resetAt = client.rateLimit?.resetAt.getTime() ?? 0;
    const started = ctx.clock.now();
    await settleWithIo(ctx.clock, Promise.resolve(client.account.get()));
    const attempts = seen.filter((s) => s.channel === 'attempt' && s.event === 'asyncEnd');
    expect(attempts.map(({ attempt, status }) => ({ attempt, status }))).toEqual([
      { attempt: 1, status: 503 },
      { attempt: 2, status: 200 },
    ]);
    expect(attempts[0]?.error).toBeInstanceOf(APIError);
    expect(attempts[0]?.rateLimitWait).toBe(0);
    expect(attempts[1]?.error).toBeUndefined();
    // Held from the back-off's end (500 ms) until the window reset.
    expect(attempts[1]?.rateLimitWait).toBe(resetAt - started - 500);
    expect(seen.filter((s) => s.event === 'error').map((s) => s.channel)).toEqual(['attempt']);
    const call = seen.at(-1);
    expect(call).toMatchObject({ channel: 'request', event: 'asyncEnd', attempts: 2, status: 200 });
    expect(call?.rateLimitWait).toBe(attempts[1]?.rateLimitWait);
  });
});

describe('the tracing channels themselves', () => {
  it('are asked of the runtime once and shared by every client', () => {
    const traces = tracingChannels();
    expect(traces).not.toBeNull();
    expect(tracingChannels()).toBe(traces);
  });

  it('are none where the runtime hands out no diagnostics_channel: browsers, Node before 22.3', () => {
    expect(channelsOf(undefined)).toBeNull();
    expect(channelsOf({})).toBeNull();
    expect(channelsOf({ getBuiltinModule: () => undefined })).toBeNull();
    expect(channelsOf(process)).not.toBeNull();
  });

  it("see listeners on Bun too, whose TracingChannel has only its five channels' flags", () => {
    const spec = { operation: 'account.get', method: 'GET', path: '/api/account' };
    // Bun 1.4's shape: no hasSubscribers of its own.
    const bunChannel = (listening: boolean) => ({
      start: { hasSubscribers: false },
      end: { hasSubscribers: false },
      asyncStart: { hasSubscribers: false },
      asyncEnd: { hasSubscribers: listening },
      error: { hasSubscribers: false },
      tracePromise: <T>(fn: () => Promise<T>) => fn(),
    });
    expect(startTrace({ request: bunChannel(false), attempt: bunChannel(false) }, BASE_URL, spec)).toBeUndefined();
    expect(startTrace({ request: bunChannel(true), attempt: bunChannel(false) }, BASE_URL, spec)).toMatchObject({
      operation: 'account.get',
    });
  });

  it('build no trace while nobody listens', () => {
    const spec = { operation: 'account.get', method: 'GET', path: '/api/account' };
    expect(startTrace(tracingChannels(), BASE_URL, spec)).toBeUndefined();
    expect(startTrace(null, BASE_URL, spec)).toBeUndefined();
    recordTraces();
    expect(startTrace(tracingChannels(), BASE_URL, spec)).toMatchObject({
      baseUrl: BASE_URL,
      route: '/api/account',
      attempts: 0,
    });
  });
});
