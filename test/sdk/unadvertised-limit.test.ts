import type { RateLimitEvent } from 'linkgate';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE_URL, overrideAnswerHeaders, settleWithIo, useMockApi } from './support/harness.js';

/** Makes `count` calls one after another. */
async function inSequence(count: number, call: () => PromiseLike<unknown>): Promise<void> {
  for (let i = 0; i < count; i++) await call();
}

describe('a server that advertises no rate limit (answers without X-RateLimit-* headers)', () => {
  const ctx = useMockApi(() => ({ rateLimit: false }));

  it('sends 40 sequential calls (more than the documented 30) without holding any: no assumed 30 per minute', async () => {
    const events: RateLimitEvent[] = [];
    const client = ctx.client({ onRateLimit: (e) => events.push(e) });
    const started = ctx.clock.now();
    await settleWithIo(
      ctx.clock,
      inSequence(40, () => client.account.get()),
    );
    expect(ctx.clock.now() - started).toBe(0);
    expect(events).toEqual([]);
  });

  it('frees calls queued under the assumed limit as soon as the first answer shows no headers', async () => {
    const client = ctx.client();
    const started = ctx.clock.now();
    const results = await settleWithIo(ctx.clock, Promise.all(Array.from({ length: 100 }, () => client.account.get())));
    expect(results).toHaveLength(100);
    expect(ctx.clock.now() - started).toBe(0);
  });

  it('holds again once an answer states a spent budget, until that window resets', async () => {
    const client = ctx.client();
    await client.account.get();
    const resetAt = ctx.clock.now() + 10_000;
    overrideAnswerHeaders(
      ctx,
      '/api/account',
      () => ({ 'X-RateLimit-Limit': '30', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(resetAt / 1000) }),
      { once: true },
    );
    await client.account.get();
    const started = ctx.clock.now();
    await settleWithIo(ctx.clock, Promise.resolve(client.account.get()));
    expect(ctx.clock.now() - started).toBe(10_000);
  });

  it('still waits out a rate-limit answer, then goes on without holding', async () => {
    const client = ctx.client();
    await client.account.get();
    ctx.server.use(
      http.get(
        `${BASE_URL}/api/account`,
        () => new HttpResponse(null, { status: 429, headers: { 'Retry-After': '3' } }),
        {
          once: true,
        },
      ),
    );
    const started = ctx.clock.now();
    await settleWithIo(
      ctx.clock,
      inSequence(40, () => client.account.get()),
    );
    expect(ctx.clock.now() - started).toBe(3000);
  });
});
