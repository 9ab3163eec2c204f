import { RateLimitError, type RateLimitEvent } from 'linkgate';
import { describe, expect, it } from 'vitest';
import { rejectionOf, settle, useMockApi } from './support/harness.js';

const WINDOW = 60_000;

describe('ids of new domains and pixels sent as numeric strings (stringIds production variant)', () => {
  const ctx = useMockApi(() => ({ variants: ['stringIds'] }));

  it('domains.create() returns the id as a number that finds the new domain', async () => {
    const created = await ctx.client().domains.create({ domain: 'https://go.example.com' });
    expect(created.id).toEqual(expect.any(Number));
    expect(ctx.backend.store.domains.get(created.id)).toMatchObject({ domain: 'https://go.example.com' });
    const updated = await ctx.client().domains.update(created.id, { redirectroot: 'https://example.com' });
    expect(updated.message).toBe('Domain has been updated successfully.');
  });

  it('pixels.create() returns the id as a number that finds the new pixel', async () => {
    const created = await ctx.client().pixels.create({ type: 'fbpixel', name: 'Facebook', tag: '1234567890' });
    expect(created.id).toEqual(expect.any(Number));
    expect(ctx.backend.store.pixels.get(created.id)).toMatchObject({ tag: '1234567890' });
  });
});

describe('X-RateLimit-Remaining: -1 on over-limit answers (negativeRemaining production variant)', () => {
  const ctx = useMockApi(() => ({ variants: ['negativeRemaining'] }));

  it('reads -1 as no budget left, waits out the window once and then succeeds', async () => {
    const other = ctx.client();
    for (let i = 0; i < 30; i++) await other.account.get();
    const events: RateLimitEvent[] = [];
    const client = ctx.client({ onRateLimit: (e) => events.push(e) });
    const started = ctx.clock.now();
    const outcome = await settle(ctx.clock, client.account.get());
    expect(outcome).toMatchObject({ ok: true, value: { username: 'admin' } });
    expect(events[0]).toMatchObject({ reason: 'answer', limit: 30, remaining: 0, waitMs: WINDOW });
    // Never a negative budget, whatever the header said.
    expect(events.map((e) => e.remaining)).toEqual(events.map(() => 0));
    expect(ctx.clock.now() - started).toBe(WINDOW);
  });

  it('reports the budget of that answer as 0 remaining in client.rateLimit, never -1', async () => {
    const other = ctx.client();
    for (let i = 0; i < 30; i++) await other.account.get();
    const client = ctx.client({ maxRateLimitWait: 0 });
    expect(await rejectionOf(client.account.get())).toBeInstanceOf(RateLimitError);
    expect(client.rateLimit).toEqual({ limit: 30, remaining: 0, resetAt: new Date(ctx.clock.now() + WINDOW) });
  });
});
