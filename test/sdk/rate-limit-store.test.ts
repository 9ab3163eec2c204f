import { MemoryRateLimitStore, type RateLimitStore } from 'linkgate';
import { ManualClock } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src/core/rate-limiter.js';
import { recordAnswers, settleWithIo, useMockApi } from './support/harness.js';

/** An asynchronous store in front of one shared memory store: what a Redis store looks like to the limiter. */
class SharedAsyncStore implements RateLimitStore {
  readonly keys = new Set<string>();
  constructor(private readonly inner: MemoryRateLimitStore) {}
  async take(
    key: string,
    now: number,
    inFlight: number,
    assumed: RateLimitStore.AssumedWindow,
  ): Promise<RateLimitStore.TakeResult> {
    this.keys.add(key);
    await Promise.resolve();
    return this.inner.take(key, now, inFlight, assumed);
  }
  async observe(key: string, seen: RateLimitStore.Observation, inFlight: number, now: number): Promise<void> {
    await Promise.resolve();
    this.inner.observe(key, seen, inFlight, now);
  }
  async block(key: string, resetAt: number): Promise<void> {
    this.inner.block(key, resetAt);
  }
}

describe('RateLimitStore', () => {
  const ctx = useMockApi();

  it('lets two clients (two "processes") with one key share one budget through an async store', async () => {
    const shared = new MemoryRateLimitStore();
    const a = ctx.client({ rateLimitStore: new SharedAsyncStore(shared), timeout: 600_000 });
    const bStore = new SharedAsyncStore(shared);
    const b = ctx.client({ rateLimitStore: bStore, timeout: 600_000 });
    const answers = recordAnswers(ctx);
    const results = await settleWithIo(
      ctx.clock,
      Promise.allSettled([
        ...Array.from({ length: 25 }, () => a.account.get()),
        ...Array.from({ length: 25 }, () => b.account.get()),
      ]),
    );
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(await answers.rateLimited()).toBe(0);
    expect([...bStore.keys]).toHaveLength(1);
    // The store key is a fingerprint, never the API key itself.
    expect([...bStore.keys][0]).not.toContain(ctx.backend.adminKey);
  });

  it('memory store: grants the assumed budget, then refuses until the window ends', () => {
    const store = new MemoryRateLimitStore();
    const assumed = { limit: 2, windowMs: 1000 };
    expect(store.take('k', 0, 0, assumed).granted).toBe(true);
    expect(store.take('k', 0, 1, assumed).granted).toBe(true);
    expect(store.take('k', 10, 2, assumed)).toMatchObject({ granted: false, state: { resetAt: 1000 } });
    expect(store.take('k', 1000, 0, assumed).granted).toBe(true);
  });

  it('memory store: answers from the same window only lower the budget; newer windows replace it', () => {
    const store = new MemoryRateLimitStore();
    const assumed = { limit: 30, windowMs: 60_000 };
    store.take('k', 0, 0, assumed);
    store.observe('k', { limit: 30, remaining: 10, resetAt: 60_000 }, 0, 1);
    store.observe('k', { limit: 30, remaining: 20, resetAt: 60_000 }, 0, 2);
    expect(store.take('k', 3, 0, assumed).state.remaining).toBe(9);
    store.observe('k', { limit: 50, remaining: 49, resetAt: 120_000 }, 0, 4);
    expect(store.take('k', 5, 0, assumed).state).toMatchObject({ limit: 50, remaining: 48 });
  });

  it('memory store: an answer from an ended window refunds a provisional window', () => {
    const store = new MemoryRateLimitStore();
    const assumed = { limit: 2, windowMs: 1000 };
    store.take('k', 0, 0, assumed);
    store.take('k', 0, 1, assumed);
    // Window ends with both requests still in flight: the new window counts them against itself.
    expect(store.take('k', 1000, 2, assumed).granted).toBe(false);
    store.observe('k', { limit: 2, remaining: 0, resetAt: 1000 }, 1, 1001);
    expect(store.take('k', 1002, 1, assumed).granted).toBe(true);
  });

  it('memory store shared by two processes: an answer replacing a guessed window does not hand out the requests the other process has in flight', () => {
    const store = new MemoryRateLimitStore();
    const assumed = { limit: 30, windowMs: 60_000 };
    for (let i = 0; i < 20; i++) store.take('k', 0, i, assumed); // process A
    for (let i = 0; i < 10; i++) store.take('k', 0, i, assumed); // process B
    // A's first answer: the server has counted 1; A has 19 in flight. B's 10 are in flight too.
    store.observe('k', { limit: 30, remaining: 29, resetAt: 3000 }, 19, 10);
    expect(store.take('k', 11, 19, assumed)).toMatchObject({ granted: false, state: { remaining: 0, resetAt: 3000 } });
  });

  it('memory store shared by two processes: a higher limit the server states still raises a guessed window', () => {
    const store = new MemoryRateLimitStore();
    const assumed = { limit: 30, windowMs: 60_000 };
    for (let i = 0; i < 30; i++) store.take('k', 0, i, assumed);
    store.observe('k', { limit: 100, remaining: 99, resetAt: 3000 }, 19, 10);
    // 70 of the 100 are not taken by anyone yet.
    expect(store.take('k', 11, 19, assumed)).toMatchObject({ granted: true, state: { limit: 100, remaining: 69 } });
  });

  it('wakes a request held in a shared guessed window when another process learns the real, earlier reset', async () => {
    const clock = new ManualClock();
    const store = new MemoryRateLimitStore();
    const assumed = { limit: 2, windowMs: 60_000 };
    const a = new RateLimiter({ clock, key: 'k', store, assumed });
    const b = new RateLimiter({ clock, key: 'k', store, assumed });
    expect(a.acquire()).toBeUndefined();
    expect(a.acquire()).toBeUndefined();
    let granted = false;
    void b.acquire()?.then(() => {
      granted = true;
    });
    // A's answers state a 3 s window, spent: B must wait for its end, not for the guessed window's 60 s.
    a.release();
    a.observe({ limit: 2, remaining: 0, resetAt: clock.now() + 3000 });
    await clock.advance(2999);
    expect(granted).toBe(false);
    await clock.advance(1001);
    expect(granted).toBe(true);
  });
});
