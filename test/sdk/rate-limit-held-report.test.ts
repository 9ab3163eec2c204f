// What onRateLimit says when a request is held for budget: the wait the limiter has scheduled, to the millisecond.
import { MemoryRateLimitStore } from 'linkgate';
import { ManualClock } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';
import { type RateLimitEvent, RateLimiter } from '../../src/core/rate-limiter.js';

/** Two limiters ("processes") on one store with a guessed window of 2 requests per 60 s; `b` reports to `events`. */
function twoSharing(clock: ManualClock) {
  const store = new MemoryRateLimitStore();
  const assumed = { limit: 2, windowMs: 60_000 };
  const events: RateLimitEvent[] = [];
  const a = new RateLimiter({ clock, key: 'k', store, assumed });
  const b = new RateLimiter({ clock, key: 'k', store, assumed, onRateLimit: (e) => events.push(e) });
  return { a, b, events };
}

describe('onRateLimit for a request held for budget', () => {
  it('reports the 1 s check of a guessed window shared with other processes, not the guessed 60 s, and the check happens then', async () => {
    const clock = new ManualClock();
    const { a, b, events } = twoSharing(clock);
    expect(a.acquire()).toBeUndefined();
    expect(a.acquire()).toBeUndefined();
    await clock.advance(13);
    let granted = false;
    void b.acquire()?.then(() => {
      granted = true;
    });
    expect(events).toEqual([
      { reason: 'budget', limit: 2, remaining: 0, resetAt: new Date(clock.now() + 60_000 - 13), waitMs: 1000 },
    ]);
    // Another process learns meanwhile that the real window ends in half a second; the check a second later sees
    // the new window and sends the request.
    a.release();
    a.observe({ limit: 2, remaining: 0, resetAt: clock.now() + 500 });
    await clock.advance(999);
    expect(granted).toBe(false);
    await clock.advance(1);
    expect(granted).toBe(true);
  });

  it('a call queued behind a held one is told the same scheduled wait', async () => {
    const clock = new ManualClock();
    const { a, b, events } = twoSharing(clock);
    a.acquire();
    a.acquire();
    void b.acquire();
    await clock.advance(400);
    void b.acquire();
    expect(events.map((e) => e.waitMs)).toEqual([1000, 1000]);
  });

  it('reports the time left to a window the API stated, to the millisecond', async () => {
    const clock = new ManualClock();
    const { a, b, events } = twoSharing(clock);
    a.acquire();
    a.release();
    a.observe({ limit: 1, remaining: 0, resetAt: clock.now() + 2_345 });
    await clock.advance(45);
    void b.acquire();
    expect(events).toEqual([
      { reason: 'budget', limit: 1, remaining: 0, resetAt: new Date(clock.now() + 2_300), waitMs: 2_300 },
    ]);
  });
});
