import { APIConnectionTimeoutError, APIError, APIUserAbortError, type LinkgateTypes } from 'linkgate';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE_URL, rejectionOf, type SdkTestContext, settle, useMockApi } from './support/harness.js';

type Kind = keyof LinkgateTypes.Hooks;

/** A hook that never settles, as one waiting on a service that never answers would. */
const never = () => new Promise<never>(() => {});

/** Makes every GET /api/account answer 503, so retries and failures happen. */
function unavailable(ctx: SdkTestContext): void {
  ctx.server.use(http.get(`${BASE_URL}/api/account`, () => HttpResponse.json({}, { status: 503 })));
}

/** The kinds, whether the account call must meet a failure for the hook to run at all, and the retries it needs. */
const kinds: [Kind, { failing: boolean; maxRetries: number }][] = [
  ['beforeRequest', { failing: false, maxRetries: 0 }],
  ['afterResponse', { failing: false, maxRetries: 0 }],
  ['beforeRetry', { failing: true, maxRetries: 1 }],
  ['beforeError', { failing: true, maxRetries: 0 }],
];

describe('a hook that never settles', () => {
  const ctx = useMockApi();

  it.each(kinds)(
    '%s: ends the call at its timeout with an APIConnectionTimeoutError naming the hook',
    async (kind, { failing, maxRetries }) => {
      if (failing) unavailable(ctx);
      const client = ctx.client({ timeout: 1000, maxRetries, hooks: { [kind]: [never] } });
      const started = ctx.clock.now();
      const outcome = await settle(ctx.clock, Promise.resolve(client.account.get()));
      const error = (outcome as { error: Error }).error;
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect(error.message).toBe(
        `GET /api/account: ${kind} hook still running after 1000 ms. Make it settle sooner or raise the timeout option.`,
      );
      expect(ctx.clock.now() - started).toBe(1000);
    },
  );

  it.each(kinds)(
    '%s: ends the call when its signal aborts, with APIUserAbortError',
    async (kind, { failing, maxRetries }) => {
      if (failing) unavailable(ctx);
      // The clock is a manual one that nobody moves: only the signal, in real time, can end the call.
      const client = ctx.client({ maxRetries, hooks: { [kind]: [never] } });
      const started = performance.now();
      const error = await rejectionOf(client.account.get({ signal: AbortSignal.timeout(200) }));
      expect(error).toBeInstanceOf(APIUserAbortError);
      expect((error as Error).message).toBe('account.get (GET /api/account) was aborted by its signal.');
      expect(performance.now() - started).toBeLessThan(3_000);
    },
    10_000,
  );

  it('is retried like a slow server when it held up an attempt: the next attempt runs the hook again', async () => {
    let runs = 0;
    const client = ctx.client({
      timeout: 1000,
      random: () => 0,
      hooks: { beforeRequest: [() => (++runs === 1 ? never() : undefined)] },
    });
    const outcome = await settle(ctx.clock, Promise.resolve(client.account.get()));
    expect(outcome.ok).toBe(true);
    expect(runs).toBe(2);
  });

  it('in beforeError: the call fails with the timeout, caused by the error it was about to fail with', async () => {
    unavailable(ctx);
    const client = ctx.client({ timeout: 1000, maxRetries: 0, hooks: { beforeError: [never] } });
    const outcome = await settle(ctx.clock, Promise.resolve(client.account.get()));
    const error = (outcome as { error: Error }).error;
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error.cause).toBeInstanceOf(APIError);
    expect((error.cause as APIError).status).toBe(503);
  });

  it('in afterResponse: a Response it returns whose body never ends is cut short the same way', async () => {
    const endless = () => new Response(new ReadableStream({ pull: () => never() }));
    const client = ctx.client({ timeout: 1000, maxRetries: 0, hooks: { afterResponse: [endless] } });
    const outcome = await settle(ctx.clock, Promise.resolve(client.account.get()));
    expect((outcome as { error: Error }).error).toBeInstanceOf(APIConnectionTimeoutError);
  });

  it.each([
    ['without a length', {}],
    ['with a Content-Length it never reaches', { 'content-length': '5' }],
  ])(
    'in beforeRequest: a Response it returns whose body never ends (%s) is cut short the same way',
    async (_, headers) => {
      const endless = () => new Response(new ReadableStream({ pull: () => never() }), { headers });
      const client = ctx.client({ timeout: 1000, maxRetries: 0, hooks: { beforeRequest: [endless] } });
      const outcome = await settle(ctx.clock, Promise.resolve(client.account.get()));
      const error = (outcome as { error: Error }).error;
      expect(error).toBeInstanceOf(APIConnectionTimeoutError);
      expect(error.message).toBe(
        'GET /api/account: beforeRequest hook still running after 1000 ms. Make it settle sooner or raise the timeout option.',
      );
    },
  );

  it('in beforeRequest: a Response whose body never ends gives way to the call’s signal', async () => {
    const endless = () => new Response(new ReadableStream({ pull: () => never() }));
    const client = ctx.client({ maxRetries: 0, hooks: { beforeRequest: [endless] } });
    const controller = new AbortController();
    const call = client.account.get({ signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect(await rejectionOf(call)).toBeInstanceOf(APIUserAbortError);
  });

  it('a beforeError hook still hears of a call its signal aborted, and may replace its error synchronously', async () => {
    const heard: string[] = [];
    const client = ctx.client({
      hooks: {
        beforeError: [({ error }) => void heard.push(error.name), ({ error }) => new Error(`stopped: ${error.name}`)],
      },
    });
    const error = await rejectionOf(client.account.get({ signal: AbortSignal.abort() }));
    expect(heard).toEqual(['APIUserAbortError']);
    expect((error as Error).message).toBe('stopped: APIUserAbortError');
  });

  it('an aborted call does not wait for an async beforeError hook: it ends with APIUserAbortError now', async () => {
    const client = ctx.client({ hooks: { beforeError: [never] } });
    const error = await rejectionOf(client.account.get({ signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(APIUserAbortError);
  });
});
