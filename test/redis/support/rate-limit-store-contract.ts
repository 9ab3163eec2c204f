// What every RateLimitStore must do, written once and run against each store (the in-memory one and the Redis one on
// both client libraries), so the shared store cannot drift from the rules the limiter was proven with.
import type { RateLimitStore } from 'linkgate';
import { expect, it } from 'vitest';

/** A base time like the real clock's, so Redis expiries computed from it are realistic. */
const T = 1_764_000_000_000;
const WINDOW: RateLimitStore.AssumedWindow = { limit: 2, windowMs: 1000 };
const DOCUMENTED: RateLimitStore.AssumedWindow = { limit: 30, windowMs: 60_000 };

/** Defines the contract's tests; `store()` gives the store under test, `key()` a key no other test uses. */
export function rateLimitStoreContract(
  store: () => RateLimitStore,
  key = () => `k-${Math.random().toString(36).slice(2)}`,
) {
  it('grants the assumed budget, then refuses until the window ends, saying when it ends', async () => {
    const k = key();
    expect(await store().take(k, T, 0, WINDOW)).toEqual({
      granted: true,
      state: { limit: 2, remaining: 1, resetAt: T + 1000, provisional: true },
    });
    expect((await store().take(k, T, 1, WINDOW)).granted).toBe(true);
    expect(await store().take(k, T + 10, 2, WINDOW)).toEqual({
      granted: false,
      state: { limit: 2, remaining: 0, resetAt: T + 1000, provisional: true },
    });
    expect(await store().take(k, T + 1000, 0, WINDOW)).toMatchObject({ granted: true, state: { resetAt: T + 2000 } });
  });

  it('counts the requests still in flight against a new window', async () => {
    const k = key();
    expect((await store().take(k, T, 0, DOCUMENTED)).state.remaining).toBe(29);
    expect(await store().take(k, T + 60_000, 25, DOCUMENTED)).toMatchObject({ granted: true, state: { remaining: 4 } });
    const other = key();
    expect(await store().take(other, T, 30, DOCUMENTED)).toMatchObject({ granted: false, state: { remaining: 0 } });
  });

  it('keeps separate budgets per key', async () => {
    const [a, b] = [key(), key()];
    await store().take(a, T, 0, WINDOW);
    await store().take(a, T, 1, WINDOW);
    expect((await store().take(a, T, 2, WINDOW)).granted).toBe(false);
    expect((await store().take(b, T, 0, WINDOW)).granted).toBe(true);
  });

  it('lowers the budget with answers from the same window, and never raises it', async () => {
    const k = key();
    await store().take(k, T, 0, DOCUMENTED);
    await store().observe(k, { limit: 30, remaining: 10, resetAt: T + 60_000 }, 0, T + 1);
    await store().observe(k, { limit: 30, remaining: 20, resetAt: T + 60_000 }, 0, T + 2);
    expect(await store().take(k, T + 3, 0, DOCUMENTED)).toEqual({
      granted: true,
      state: { limit: 30, remaining: 9, resetAt: T + 60_000, provisional: false },
    });
  });

  it("replaces the state with a newer window's answer, its limit included, minus this process's requests in flight", async () => {
    const k = key();
    await store().take(k, T, 0, DOCUMENTED);
    await store().observe(k, { limit: 30, remaining: 10, resetAt: T + 60_000 }, 0, T + 1);
    await store().observe(k, { limit: 50, remaining: 49, resetAt: T + 120_000 }, 3, T + 4);
    expect(await store().take(k, T + 5, 0, DOCUMENTED)).toEqual({
      granted: true,
      state: { limit: 50, remaining: 45, resetAt: T + 120_000, provisional: false },
    });
  });

  it('ignores an answer from a window older than the one stated', async () => {
    const k = key();
    await store().take(k, T, 0, DOCUMENTED);
    await store().observe(k, { limit: 30, remaining: 10, resetAt: T + 120_000 }, 0, T + 1);
    await store().observe(k, { limit: 30, remaining: 2, resetAt: T + 60_000 }, 0, T + 2);
    expect((await store().take(k, T + 3, 0, DOCUMENTED)).state).toMatchObject({ remaining: 9, resetAt: T + 120_000 });
  });

  it('refunds a guessed window for an answer counted in a window that is over, up to its limit', async () => {
    const k = key();
    await store().take(k, T, 0, WINDOW);
    await store().take(k, T, 1, WINDOW);
    // The window ends with both requests in flight: the new window counts them against itself.
    expect((await store().take(k, T + 1000, 2, WINDOW)).granted).toBe(false);
    await store().observe(k, { limit: 2, remaining: 0, resetAt: T + 1000 }, 1, T + 1001);
    expect(await store().take(k, T + 1002, 1, WINDOW)).toMatchObject({ granted: true, state: { remaining: 0 } });
    await store().observe(k, { limit: 2, remaining: 0, resetAt: T + 1000 }, 0, T + 1003);
    await store().observe(k, { limit: 2, remaining: 0, resetAt: T + 1000 }, 0, T + 1004);
    await store().observe(k, { limit: 2, remaining: 0, resetAt: T + 1000 }, 0, T + 1005);
    expect((await store().take(k, T + 1006, 0, WINDOW)).state.remaining).toBe(1);
  });

  it('refunds nothing to a window the server stated', async () => {
    const k = key();
    await store().take(k, T, 0, DOCUMENTED);
    await store().observe(k, { limit: 30, remaining: 5, resetAt: T + 60_000 }, 0, T + 1);
    await store().observe(k, { limit: 30, remaining: 29, resetAt: T }, 0, T + 2);
    expect((await store().take(k, T + 3, 0, DOCUMENTED)).state.remaining).toBe(4);
  });

  it('does not hand out, when an answer replaces a guessed window, the requests another process has in flight', async () => {
    const k = key();
    for (let i = 0; i < 20; i++) await store().take(k, T, i, DOCUMENTED); // process A
    for (let i = 0; i < 10; i++) await store().take(k, T, i, DOCUMENTED); // process B
    // A's first answer: the server has counted 1; A has 19 in flight. B's 10 are in flight too.
    await store().observe(k, { limit: 30, remaining: 29, resetAt: T + 3000 }, 19, T + 10);
    expect(await store().take(k, T + 11, 19, DOCUMENTED)).toEqual({
      granted: false,
      state: { limit: 30, remaining: 0, resetAt: T + 3000, provisional: false },
    });
  });

  it('still raises a guessed window to a higher limit the server states', async () => {
    const k = key();
    for (let i = 0; i < 30; i++) await store().take(k, T, i, DOCUMENTED);
    await store().observe(k, { limit: 100, remaining: 99, resetAt: T + 3000 }, 19, T + 10);
    // 70 of the 100 are not taken by anyone yet.
    expect(await store().take(k, T + 11, 19, DOCUMENTED)).toMatchObject({
      granted: true,
      state: { limit: 100, remaining: 69 },
    });
  });

  it('starts the next window with the limit the server stated, and still one request after a limit of 0', async () => {
    const k = key();
    await store().take(k, T, 0, DOCUMENTED);
    await store().observe(k, { limit: 5, remaining: 4, resetAt: T + 1000 }, 0, T + 1);
    expect((await store().take(k, T + 1000, 0, DOCUMENTED)).state).toMatchObject({ limit: 5, remaining: 4 });
    await store().observe(k, { limit: 0, remaining: 0, resetAt: T + 2000 }, 0, T + 1001);
    expect(await store().take(k, T + 2000, 0, DOCUMENTED)).toMatchObject({
      granted: true,
      state: { limit: 1, remaining: 0, provisional: true },
    });
  });

  it("spends the budget on a rate-limit answer, ending a guessed window at the answer's reset", async () => {
    const k = key();
    await store().take(k, T, 0, DOCUMENTED);
    await store().block(k, T + 1000);
    expect(await store().take(k, T + 10, 0, DOCUMENTED)).toEqual({
      granted: false,
      state: { limit: 30, remaining: 0, resetAt: T + 1000, provisional: false },
    });
    expect((await store().take(k, T + 1000, 0, DOCUMENTED)).granted).toBe(true);
  });

  it('only lengthens a window the server stated when blocked', async () => {
    const k = key();
    await store().take(k, T, 0, DOCUMENTED);
    await store().observe(k, { limit: 30, remaining: 5, resetAt: T + 5000 }, 0, T + 1);
    await store().block(k, T + 1000);
    expect((await store().take(k, T + 2, 0, DOCUMENTED)).state).toMatchObject({ remaining: 0, resetAt: T + 5000 });
    await store().block(k, T + 9000);
    expect((await store().take(k, T + 3, 0, DOCUMENTED)).state).toMatchObject({ remaining: 0, resetAt: T + 9000 });
  });

  it('blocks a key it has never seen with the documented limit', async () => {
    const k = key();
    await store().block(k, T + 1000);
    expect(await store().take(k, T, 0, WINDOW)).toEqual({
      granted: false,
      state: { limit: 30, remaining: 0, resetAt: T + 1000, provisional: false },
    });
  });

  it('grants exactly the budget to many takes at once, never more', async () => {
    const k = key();
    const results = await Promise.all(Array.from({ length: 100 }, () => store().take(k, T, 0, DOCUMENTED)));
    expect(results.filter((r) => r.granted)).toHaveLength(30);
    expect(new Set(results.filter((r) => r.granted).map((r) => r.state.remaining)).size).toBe(30);
  });
}
