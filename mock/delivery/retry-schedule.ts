/** Waits before each retry (spec, Delivery rules: 3, 6, 12, 24 and 48 seconds). */
export const RETRY_DELAYS_MS = [3_000, 6_000, 12_000, 24_000, 48_000] as const;

/** Options of a {@link RetrySchedule}. */
export interface RetryScheduleOptions {
  /**
   * Upper bound of the random jitter added to each wait, in ms. 0 turns jitter off (exact times, for tests).
   * @default 0
   */
  jitterMs?: number;
  /** Randomness for the jitter, in [0, 1); pass a seeded one for reproducible runs. @default Math.random */
  random?: () => number;
}

/**
 * When to try an event again after a failed attempt: up to 5 retries, 3/6/12/24/48 s plus jitter, then give up.
 *
 * @example
 * const schedule = new RetrySchedule();
 * schedule.delayAfter(1); // 3000: the wait after the first attempt failed
 * schedule.delayAfter(6); // null: retries are used up, dead-letter the event
 */
export class RetrySchedule {
  readonly #jitterMs: number;
  readonly #random: () => number;

  constructor(options: RetryScheduleOptions = {}) {
    this.#jitterMs = Math.max(0, options.jitterMs ?? 0);
    this.#random = options.random ?? Math.random;
  }

  /** The wait in ms after attempt number `attempt` (1-based) failed, or null when no retry is left. */
  delayAfter(attempt: number): number | null {
    const base = RETRY_DELAYS_MS[attempt - 1];
    if (base === undefined) return null;
    return base + (this.#jitterMs > 0 ? Math.floor(this.#random() * this.#jitterMs) : 0);
  }
}
