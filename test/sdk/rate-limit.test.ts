import { RateLimitError, type RateLimitEvent } from 'linkgate';
import { describe, expect, it } from 'vitest';
import { letIoSettle, recordAnswers, settle, settleWithIo, useMockApi } from './support/harness.js';

const WINDOW = 60_000;

describe('rate limiter', () => {
  const ctx = useMockApi();

  it('queues 100 concurrent calls so the mock never answers "rate limited", finishing within 4 windows', async () => {
    const answers = recordAnswers(ctx);
    const client = ctx.client({ timeout: 10 * WINDOW });
    const start = ctx.clock.now();
    const results = await settleWithIo(
      ctx.clock,
      Promise.allSettled(Array.from({ length: 100 }, () => client.account.get())),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(await answers.rateLimited()).toBe(0);
    expect(answers.count).toBe(100);
    const elapsed = ctx.clock.now() - start;
    // 100 calls at 30 per window need 4 windows: three resets, and never a fifth window.
    expect(elapsed).toBeGreaterThanOrEqual(3 * WINDOW);
    expect(elapsed).toBeLessThan(4 * WINDOW);
  });

  it('bounds in-flight requests to the documented 30 before any answer has told it the limit', async () => {
    const client = ctx.client();
    let sent = 0;
    ctx.server.events.on('request:start', () => {
      sent++;
    });
    const calls = Array.from({ length: 40 }, () => client.account.get());
    await letIoSettle();
    expect(sent).toBe(30);
    const all = settle(ctx.clock, Promise.all(calls));
    expect((await all).ok).toBe(true);
    expect(sent).toBe(40);
  });

  it('holds new requests until the window resets when remaining is 0', async () => {
    const client = ctx.client();
    for (let i = 0; i < 30; i++) await client.account.get();
    expect(client.rateLimit?.remaining).toBe(0);
    const resetAt = client.rateLimit?.resetAt.getTime() ?? 0;
    const held = client.account.get();
    let done = false;
    void held.then(() => {
      done = true;
    });
    await letIoSettle();
    await ctx.clock.advanceTo(resetAt - 1);
    expect(done).toBe(false);
    await ctx.clock.advanceTo(resetAt);
    await letIoSettle();
    await held;
    expect(done).toBe(true);
    expect(client.rateLimit?.remaining).toBe(29);
  });

  it("throws RateLimitError at once in 'throw' mode instead of waiting", async () => {
    const client = ctx.client({ rateLimit: 'throw' });
    for (let i = 0; i < 30; i++) await client.account.get();
    const error = await client.account.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(60);
    expect((error as RateLimitError).message).toMatch(/rateLimit is 'throw'/);
  });

  it('throws RateLimitError instead of waiting past maxRateLimitWait', async () => {
    const client = ctx.client({ maxRateLimitWait: 10_000 });
    for (let i = 0; i < 30; i++) await client.account.get();
    const error = await client.account.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).message).toMatch(/maxRateLimitWait/);
  });

  it('calls onRateLimit with the wait when a request is held', async () => {
    const events: RateLimitEvent[] = [];
    const client = ctx.client({ onRateLimit: (e) => events.push(e) });
    for (let i = 0; i < 30; i++) await client.account.get();
    const outcome = await settle(ctx.clock, client.account.get());
    expect(outcome.ok).toBe(true);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ reason: 'budget', limit: 30, remaining: 0, waitMs: WINDOW });
  });

  it('waits out an "error: 429" answer in an HTTP 200 body and retries (budget spent by another client)', async () => {
    const other = ctx.client();
    for (let i = 0; i < 30; i++) await other.account.get();
    const events: RateLimitEvent[] = [];
    const client = ctx.client({ onRateLimit: (e) => events.push(e) });
    const started = ctx.clock.now();
    const outcome = await settle(ctx.clock, client.account.get());
    expect(outcome.ok).toBe(true);
    // One wait, one event: holding the retry for the same reset is not announced again.
    expect(events).toEqual([expect.objectContaining({ reason: 'answer', waitMs: WINDOW })]);
    expect(ctx.clock.now() - started).toBe(WINDOW);
  });

  it('throws the RateLimitError of a 429 answer when waiting would pass maxRateLimitWait', async () => {
    const other = ctx.client();
    for (let i = 0; i < 30; i++) await other.account.get();
    const client = ctx.client({ maxRateLimitWait: 5_000 });
    const error = await client.account.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(60);
    expect((error as RateLimitError).resetAt.getTime()).toBe(ctx.clock.now() + WINDOW);
    expect((error as RateLimitError).status).toBe(200);
  });

  it('stops waiting for budget when the signal aborts', async () => {
    const client = ctx.client();
    for (let i = 0; i < 30; i++) await client.account.get();
    const controller = new AbortController();
    const held = client.account.get({ signal: controller.signal });
    await letIoSettle();
    controller.abort();
    await expect(held).rejects.toMatchObject({ name: 'APIUserAbortError' });
  });

  it('sends requests as soon as the budget allows with rateLimit: false (answers still waited out)', async () => {
    const answers = recordAnswers(ctx);
    const client = ctx.client({ rateLimit: false });
    const outcome = await settle(ctx.clock, Promise.all(Array.from({ length: 31 }, () => client.account.get())));
    expect(outcome.ok).toBe(true);
    expect(await answers.rateLimited()).toBe(1);
  });
});
