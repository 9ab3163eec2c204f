import { RateLimitError } from 'linkgate';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE_URL, overrideAnswerHeaders, settle, settleWithIo, useMockApi } from './support/harness.js';

describe('rate-limit answers from servers that do not send X-RateLimit-* headers', () => {
  const ctx = useMockApi();

  /** The next GET /api/account is answered "rate limited" by a proxy in front of the API, without rate headers. */
  function rateLimitedOnce(answer: () => Response) {
    ctx.server.use(http.get(`${BASE_URL}/api/account`, answer, { once: true }));
  }

  it('honours Retry-After in seconds on a 429 without rate headers: waits 1 s, not an assumed minute', async () => {
    rateLimitedOnce(() => new HttpResponse('slow down', { status: 429, headers: { 'Retry-After': '1' } }));
    const started = ctx.clock.now();
    const account = await settleWithIo(ctx.clock, Promise.resolve(ctx.client().account.get()));
    expect(account.username).toBe('admin');
    expect(ctx.clock.now() - started).toBe(1000);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const at = new Date(ctx.clock.now() + 5000).toUTCString();
    rateLimitedOnce(() => new HttpResponse(null, { status: 429, headers: { 'Retry-After': at } }));
    const started = ctx.clock.now();
    await settleWithIo(ctx.clock, Promise.resolve(ctx.client().account.get()));
    expect(ctx.clock.now() - started).toBe(5000);
  });

  it('honours a Retry-After header on an "error: 429" body in an HTTP 200 answer', async () => {
    rateLimitedOnce(() =>
      HttpResponse.json({ error: 429, message: 'Too Many API Requests.' }, { headers: { 'Retry-After': '2' } }),
    );
    const started = ctx.clock.now();
    await settleWithIo(ctx.clock, Promise.resolve(ctx.client().account.get()));
    expect(ctx.clock.now() - started).toBe(2000);
  });

  it('reports retryAfter from an HTTP-date Retry-After when it may not wait', async () => {
    const at = new Date(ctx.clock.now() + 7000).toUTCString();
    rateLimitedOnce(() => new HttpResponse(null, { status: 429, headers: { 'Retry-After': at } }));
    const outcome = await settle(ctx.clock, Promise.resolve(ctx.client({ rateLimit: 'throw' }).account.get()));
    expect((outcome as { error: RateLimitError }).error).toBeInstanceOf(RateLimitError);
    expect((outcome as { error: RateLimitError }).error.retryAfter).toBe(7);
  });
});

const ZERO_LIMIT = { 'X-RateLimit-Limit': '0', 'X-RateLimit-Remaining': '0' };

describe('X-RateLimit-Limit: 0', () => {
  const ctx = useMockApi();

  it('fails the next call with a RateLimitError naming the zero limit instead of waiting window after window', async () => {
    // The real answer, with the headers a key that may send nothing would get.
    overrideAnswerHeaders(ctx, '/api/account', () => ZERO_LIMIT, { once: true });
    const client = ctx.client();
    await client.account.get();
    const started = ctx.clock.now();
    const outcome = await settle(ctx.clock, Promise.resolve(client.account.get()), 100);
    expect(outcome.ok).toBe(false);
    const error = (outcome as { error: RateLimitError }).error;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toMatch(/limit of 0 requests per window for this key \(X-RateLimit-Limit: 0\)/);
    expect(error.message).toMatch(/check the key and its plan/);
    expect(ctx.clock.now()).toBe(started);
  });

  it('sends one request in the next window, to learn whether the limit was raised', async () => {
    let zero = true;
    overrideAnswerHeaders(ctx, '/api/account', () => (zero ? ZERO_LIMIT : null));
    const client = ctx.client();
    await client.account.get();
    zero = false;
    await ctx.clock.advance(60_000);
    const outcome = await settle(ctx.clock, Promise.resolve(client.account.get()));
    expect(outcome.ok).toBe(true);
    expect(client.rateLimit?.limit).toBe(30);
  });
});
