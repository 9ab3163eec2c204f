import type { Clock, Timer } from '../../src/shared/clock.js';

interface Scheduled {
  at: number;
  seq: number;
  fn: () => void;
}

/**
 * A clock that moves only when told to. Share one between the mock and the SDK in a test and time-dependent
 * behaviour (rate windows, retries, circuits, QR refresh) runs without sleeping.
 *
 * @example
 * const clock = new ManualClock();
 * const backend = createMockBackend({ clock });
 * await clock.advance(60_000); // the rate-limit window has passed
 */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #queue: Scheduled[] = [];

  /** @param start - the starting time in ms since the epoch (default 2026-01-01T00:00:00Z). */
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  /** The current manual time in ms since the epoch. */
  now(): number {
    return this.#now;
  }

  /** Schedules `fn` at now + ms; it runs when {@link advance} passes that time. */
  setTimeout(fn: () => void, ms: number): Timer {
    const item: Scheduled = { at: this.#now + Math.max(0, ms), seq: this.#seq++, fn };
    this.#queue.push(item);
    return {
      cancel: () => {
        const i = this.#queue.indexOf(item);
        if (i >= 0) this.#queue.splice(i, 1);
      },
    };
  }

  /** How many callbacks are waiting. */
  get pending(): number {
    return this.#queue.length;
  }

  /** The time of the earliest waiting callback, or null. */
  nextAt(): number | null {
    return this.#queue.reduce<number | null>((min, s) => (min === null || s.at < min ? s.at : min), null);
  }

  /**
   * Moves time forward by `ms`, running every callback that falls due in time order. Between callbacks it lets
   * promise continuations run, so work a callback starts can schedule more before time moves on.
   */
  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.#now + ms);
  }

  /** Moves time forward to `time` (ms since the epoch); see {@link advance}. */
  async advanceTo(time: number): Promise<void> {
    for (;;) {
      await flushMicrotasks();
      const due = this.#earliestDue(time);
      if (!due) break;
      this.#queue.splice(this.#queue.indexOf(due), 1);
      this.#now = Math.max(this.#now, due.at);
      due.fn();
    }
    this.#now = Math.max(this.#now, time);
    await flushMicrotasks();
  }

  /** Runs callbacks one by one, jumping time to each, until none is waiting or `limit` have run. Returns how many ran. */
  async runAll(limit = 10_000): Promise<number> {
    let ran = 0;
    for (; ran < limit; ran++) {
      await flushMicrotasks();
      const at = this.nextAt();
      if (at === null) break;
      await this.advanceTo(at);
    }
    return ran;
  }

  #earliestDue(time: number): Scheduled | undefined {
    let best: Scheduled | undefined;
    for (const s of this.#queue) {
      if (s.at <= time && (!best || s.at < best.at || (s.at === best.at && s.seq < best.seq))) best = s;
    }
    return best;
  }
}

/** Lets pending promise continuations (and the macrotask after them) run. */
async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await new Promise<void>((r) => setTimeout(r, 0));
}
