import type { Clock } from 'linkgate';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { TimerOptions } from '../../src/shared/clock.js';
import { BASE_URL, letIoSettle, settle, useMockApi } from './support/harness.js';

/** Wraps the test's ManualClock and records every timer the client schedules, with its options, and which are live. */
function recordingClock(inner: Clock) {
  const timers: { ms: number; options: TimerOptions | undefined; live: boolean }[] = [];
  const clock: Clock = {
    now: () => inner.now(),
    setTimeout(fn, ms, options) {
      const record = { ms, options, live: true };
      timers.push(record);
      const timer = inner.setTimeout(
        () => {
          record.live = false;
          fn();
        },
        ms,
        options,
      );
      return {
        cancel() {
          record.live = false;
          timer.cancel();
        },
      };
    },
  };
  return { clock, timers, live: () => timers.filter((t) => t.live) };
}

describe('timers the client awaits', () => {
  const ctx = useMockApi();

  it('asks the clock to keep the process alive for a rate-limit wait, a back-off and a request timeout', async () => {
    const rec = recordingClock(ctx.clock);
    ctx.server.use(http.get(`${BASE_URL}/api/account`, () => HttpResponse.json({}, { status: 503 }), { once: true }));
    const client = ctx.client({ clock: rec.clock, random: () => 0 });
    const outcome = await settle(ctx.clock, Promise.resolve(client.account.get()));
    expect(outcome.ok).toBe(true);
    for (let i = 0; i < 29; i++) await client.account.get();
    await settle(ctx.clock, Promise.resolve(client.account.get()));
    const kinds = new Set(rec.timers.map((t) => (t.ms === 500 ? 'back-off' : t.ms === 30_000 ? 'timeout' : 'window')));
    expect(kinds).toEqual(new Set(['back-off', 'timeout', 'window']));
    expect(rec.timers.every((t) => t.options?.keepAlive === true)).toBe(true);
  });

  it('leaves no timer behind once the work is done', async () => {
    const rec = recordingClock(ctx.clock);
    const client = ctx.client({ clock: rec.clock });
    for (let i = 0; i < 31; i++) await settle(ctx.clock, Promise.resolve(client.account.get()));
    expect(rec.live()).toEqual([]);
  });

  it('cancels the wake-up timer when the only waiter aborts, so nothing holds the process', async () => {
    const rec = recordingClock(ctx.clock);
    const client = ctx.client({ clock: rec.clock });
    for (let i = 0; i < 30; i++) await client.account.get();
    const controller = new AbortController();
    const held = client.account.get({ signal: controller.signal });
    await letIoSettle();
    expect(rec.live().map((t) => t.ms)).toEqual([60_000]);
    controller.abort();
    await expect(held).rejects.toMatchObject({ name: 'APIUserAbortError' });
    expect(rec.live()).toEqual([]);
  });

  it('cancels the back-off timer when the call aborts during it', async () => {
    const rec = recordingClock(ctx.clock);
    ctx.server.use(http.get(`${BASE_URL}/api/account`, () => HttpResponse.json({}, { status: 503 }), { once: true }));
    const controller = new AbortController();
    const call = ctx.client({ clock: rec.clock, random: () => 0 }).account.get({ signal: controller.signal });
    for (let i = 0; i < 5 && !rec.live().some((t) => t.ms === 500); i++) await letIoSettle();
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'APIUserAbortError' });
    expect(rec.live()).toEqual([]);
  });
});
