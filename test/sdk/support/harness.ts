/**
 * `useMockApi()`: a fresh reference backend (msw `setupServer`) and a ManualClock shared by the mock and the SDK for
 * every test, plus `settle()` to drive the clock until a promise settles. SDK tests talk only to the reference mock.
 */
import { Linkgate, type LinkgateOptions } from 'linkgate';
import { createMockBackend, ManualClock, type MockBackend, type MockBackendOptions } from 'linkgate/mock';
import { http } from 'msw';
import { type SetupServer, setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** The origin SDK tests address; msw answers it. */
export const BASE_URL = 'http://linkgate.test';

/** What a suite works with; replaced before every test. */
export interface SdkTestContext {
  /** This test's backend. */
  backend: MockBackend;
  /** The clock shared by the backend and the clients. */
  clock: ManualClock;
  /** The msw server, for `server.use(...)` overrides of one request. */
  server: SetupServer;
  /** A client for the backend's admin, on the shared clock; `options` override. */
  client(options?: LinkgateOptions): Linkgate;
}

/** Registers hooks giving each test a fresh backend and clock. */
export function useMockApi(options: () => MockBackendOptions = () => ({})): SdkTestContext {
  const server = setupServer();
  const ctx: SdkTestContext = {
    backend: undefined as unknown as MockBackend,
    clock: new ManualClock(),
    server,
    client: (overrides) =>
      new Linkgate({ apiKey: ctx.backend.adminKey, baseUrl: BASE_URL, clock: ctx.clock, ...overrides }),
  };
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => server.close());
  beforeEach(() => {
    // Listeners a previous test added (request counters, answer recorders) must not see this test's traffic.
    server.events.removeAllListeners();
    ctx.clock = new ManualClock();
    ctx.backend = createMockBackend({ clock: ctx.clock, ...options() });
    server.resetHandlers(...ctx.backend.handlers);
  });
  return ctx;
}

/**
 * Moves `clock` from one scheduled callback to the next until `promise` settles (or `maxSteps` pass), then returns
 * its outcome. Time jumps; nothing sleeps.
 */
export async function settle<T>(
  clock: ManualClock,
  promise: Promise<T>,
  maxSteps = 10_000,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let outcome: { ok: true; value: T } | { ok: false; error: unknown } | undefined;
  promise.then(
    (value) => {
      outcome = { ok: true, value };
    },
    (error: unknown) => {
      outcome = { ok: false, error };
    },
  );
  for (let step = 0; step < maxSteps && !outcome; step++) {
    const at = clock.nextAt();
    if (at === null) await clock.advance(0);
    else await clock.advanceTo(at);
  }
  if (!outcome) throw new Error(`settle: the promise did not settle within ${maxSteps} clock steps`);
  return outcome;
}

/** Lets real I/O (msw answering) finish before the manual clock moves on: a few `setTimeout(0)` turns, no waiting. */
export async function letIoSettle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 0));
}

/**
 * Like {@link settle}, but lets real I/O finish before every clock step, so many concurrent calls through msw are
 * answered in the window they were sent in. Resolves with `promise`'s value.
 */
export async function settleWithIo<T>(clock: ManualClock, promise: Promise<T>, maxSteps = 10_000): Promise<T> {
  let done = false;
  const finish = () => {
    done = true;
  };
  promise.then(finish, finish);
  for (let step = 0; !done; step++) {
    if (step === maxSteps) throw new Error(`settleWithIo: the promise did not settle within ${maxSteps} clock steps`);
    await letIoSettle();
    const at = clock.nextAt();
    if (at !== null) await clock.advanceTo(at);
  }
  return promise;
}

/** Records every answer the mock gives, so tests can count the rate-limit answers the SDK provoked. */
export function recordAnswers(ctx: SdkTestContext): { rateLimited(): Promise<number>; readonly count: number } {
  const bodies: Promise<string>[] = [];
  ctx.server.events.on('response:mocked', ({ response }) => {
    bodies.push(response.clone().text());
  });
  return {
    async rateLimited(): Promise<number> {
      const all = await Promise.all(bodies);
      return all.filter((b) => /"error":\s*"?429/.test(b)).length;
    },
    get count() {
      return bodies.length;
    },
  };
}

/** Awaits `promise` expecting a rejection and returns the error (fails the test if it resolves). */
export async function rejectionOf(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

/**
 * Answers GET `path` through the test's real backend, with the headers `headers()` returns set on the answer (none when
 * it returns null), as a deployment whose rate-limit headers differ from the mock's would. `once`: the next request only.
 */
export function overrideAnswerHeaders(
  ctx: SdkTestContext,
  path: string,
  headers: () => Record<string, string> | null,
  options: { once?: boolean } = {},
): void {
  ctx.server.use(
    http.get(
      `${BASE_URL}${path}`,
      async ({ request }) => {
        const answer = await ctx.backend.fetch(request);
        const extra = headers();
        if (!extra) return answer;
        const merged = new Headers(answer.headers);
        for (const [name, value] of Object.entries(extra)) merged.set(name, value);
        return new Response(await answer.text(), { status: answer.status, headers: merged });
      },
      options,
    ),
  );
}

/**
 * A Linkgate with `apiKey` for `baseUrl` on a ManualClock of its own, without retries, whose fetch throws what
 * `make()` builds (afresh for each attempt); `options` override.
 */
export function throwingFetchClient(
  apiKey: string,
  baseUrl: string,
  make: () => unknown,
  options: LinkgateOptions = {},
): Linkgate {
  return new Linkgate({
    apiKey,
    baseUrl,
    clock: new ManualClock(),
    maxRetries: 0,
    fetch: async () => {
      throw make();
    },
    ...options,
  });
}
