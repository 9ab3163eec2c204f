import { awaitedTimeout, type Clock, sleep, type Timer } from '../shared/clock.js';
import { APIUserAbortError, RateLimitError } from './errors.js';
import type { RateLimitInfo } from './rate-limit-info.js';
import {
  type AssumedWindow,
  DEFAULT_ASSUMED_WINDOW,
  type RateLimitObservation,
  type RateLimitState,
  type RateLimitStore,
  type TakeResult,
  UnsharedMemoryStore,
} from './rate-limit-store.js';

// RateLimitInfo sits in a leaf, so the error classes can carry it without an import circle.
export type { RateLimitInfo } from './rate-limit-info.js';

/** Passed to `onRateLimit` whenever a request is held back or the API answered "rate limited". */
export interface RateLimitEvent extends RateLimitInfo {
  /** `budget`: held by the client before sending; `answer`: the API answered 429 and the request will be retried. */
  reason: 'budget' | 'answer';
  /**
   * How long the request will wait, in ms, before it is sent or the budget is looked at again: the window's end, or,
   * while the window is a guess shared with other processes (a Redis store), the next check a second later.
   */
  waitMs: number;
}

/** How the limiter behaves; the client fills these from its options. */
export interface RateLimiterOptions {
  /** Where time comes from. */
  clock: Clock;
  /** Identifies the budget in the store (a fingerprint of key and origin). */
  key: string;
  /** Where the budget is kept. @default a new MemoryRateLimitStore */
  store?: RateLimitStore;
  /**
   * `wait` holds requests until the budget refills; `throw` fails them with RateLimitError at once; `false` keeps no
   * budget (nothing is held before sending) and a rate-limit answer holds only its own call, which still waits it out.
   * @default 'wait'
   */
  mode?: 'wait' | 'throw' | false;
  /** The longest a request may be held, in ms; past it a RateLimitError is thrown instead. @default 120000 */
  maxWaitMs?: number;
  /** Called whenever a request is held or rate limited. */
  onRateLimit?: (event: RateLimitEvent) => void;
  /** Assumed before the first answer; afterwards the answers' headers (or their absence) decide. @default { limit: 30, windowMs: 60000 } */
  assumed?: AssumedWindow;
}

/** A held request: taken off its signal, then granted (no argument) or refused with `error`. */
type Waiter = (error?: unknown) => void;

const isPromise = <T>(value: T | Promise<T>): value is Promise<T> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

/** Applies `next` to a store's answer: at once when the store answered synchronously (in memory), else when it comes. */
const andThen = <T, U>(value: T | Promise<T>, next: (value: T) => U): U | Promise<Awaited<U>> =>
  isPromise(value) ? (value.then(next) as Promise<Awaited<U>>) : next(value);

/** Rate-limit figures as users get them, from what an answer stated or a store holds (null for none). */
export function rateLimitInfo(seen: RateLimitObservation): RateLimitInfo;
export function rateLimitInfo(seen: RateLimitObservation | null): RateLimitInfo | null;
export function rateLimitInfo(seen: RateLimitObservation | null): RateLimitInfo | null {
  return seen && { limit: seen.limit, remaining: seen.remaining, resetAt: new Date(seen.resetAt) };
}

/** Reads `X-RateLimit-Limit/Remaining/Reset`; null when the answer has none. Reset may be Unix s, Unix ms or a delta in s. */
export function readRateLimitHeaders(headers: Headers, now: number): RateLimitObservation | null {
  const limit = Number(headers.get('x-ratelimit-limit') ?? Number.NaN);
  const remaining = Number(headers.get('x-ratelimit-remaining') ?? Number.NaN);
  const resetAt = parseReset(headers.get('x-ratelimit-reset'), now);
  if (!Number.isFinite(limit) || !Number.isFinite(remaining) || resetAt === null) return null;
  // Older production versions send -1 when the budget is spent.
  return { limit, remaining: Math.max(0, remaining), resetAt };
}

/** Turns a reset header into ms since the epoch; tolerant of the three encodings seen in the wild. */
export function parseReset(value: string | null, now: number): number | null {
  if (!value?.trim()) return null;
  const n = Number(value);
  if (Number.isFinite(n)) {
    if (n > 1e12) return n;
    if (n > 1e9) return n * 1000;
    return now + n * 1000;
  }
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : date;
}

/** The longest one request may be held for budget or a rate-limit answer unless the client says otherwise, in ms. */
export const DEFAULT_MAX_WAIT_MS = 120_000;

/**
 * Shares one request budget between every call of a client: holds new requests while the budget is spent instead of
 * sending them to fail, queues concurrent calls in order, and reads the budget back from each answer's headers. It
 * alone decides what a rate limit means for a call: wait or throw, the longest wait, and `onRateLimit`.
 * Before the first answer it assumes the documented 30 requests per 60 s, so a burst of calls never outruns it.
 * An answer without `X-RateLimit-*` headers says the API advertises no limit: from then on nothing is held (see
 * {@link observeUnlimited}) until an answer carries the headers again or the API answers "rate limited".
 */
export class RateLimiter {
  readonly #clock: Clock;
  readonly #key: string;
  readonly #store: RateLimitStore;
  readonly #mode: 'wait' | 'throw' | false;
  readonly #maxWaitMs: number;
  readonly #onRateLimit: ((event: RateLimitEvent) => void) | undefined;
  readonly #assumed: AssumedWindow;
  readonly #queue: Waiter[] = [];
  #inFlight = 0;
  #lastState: RateLimitState | undefined;
  #timer: Timer | null = null;
  #draining = false;
  /** True after an answer without rate-limit headers: requests go out without taking budget. */
  #unlimited = false;

  constructor(options: RateLimiterOptions) {
    this.#clock = options.clock;
    this.#key = options.key;
    this.#store = options.store ?? new UnsharedMemoryStore();
    this.#mode = options.mode ?? 'wait';
    // The longest one request may be held for budget or a rate-limit answer, unless the client says otherwise.
    this.#maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    this.#onRateLimit = options.onRateLimit;
    this.#assumed = options.assumed ?? DEFAULT_ASSUMED_WINDOW;
  }

  /**
   * Resolves when one request may be sent; pair each with {@link release}. Rejects with RateLimitError when the wait
   * would pass `maxWaitMs` (or at once in `throw` mode), and with APIUserAbortError when `signal` aborts while held
   * (the client checks it before asking). `notify` false holds without calling `onRateLimit`, for a retry whose wait
   * was already announced.
   */
  acquire(signal?: AbortSignal, notify = true): Promise<void> | undefined {
    if (this.#mode === false) return undefined;
    if (this.#unlimited && this.#queue.length === 0) {
      this.#inFlight++;
      return undefined;
    }
    if (this.#queue.length === 0) {
      // Fast path for the in-memory store: no promise at all when budget is left.
      return andThen(this.#take(), (result) => (result.granted ? undefined : this.#hold(result.state, signal, notify)));
    }
    const now = this.#clock.now();
    if (notify && this.#lastState) this.#notifyHeld(this.#lastState, now);
    return this.#enqueue(signal);
  }

  /** Marks one request as answered (or failed). */
  release(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
  }

  /** Feeds an answer's rate-limit figures back into the budget. Call after {@link release}. */
  observe(seen: RateLimitObservation): Promise<void> | undefined {
    if (this.#mode === false) return undefined;
    this.#unlimited = false;
    // A bigger limit than assumed, or a new window, may free queued calls now (no promise from the in-memory store).
    return andThen(this.#store.observe(this.#key, seen, this.#inFlight, this.#clock.now()), () => {
      if (this.#queue.length > 0) this.#drainSoon(0);
      return undefined;
    });
  }

  /**
   * An answer carried no `X-RateLimit-*` headers: the API advertises no limit (a deployment without one, or
   * `linkgate mock --rate-limit off`). Stop holding requests, and free those already queued, until an answer states
   * a limit again ({@link observe}) or the API answers "rate limited" ({@link waitOut}).
   */
  observeUnlimited(): void {
    if (this.#mode === false) return;
    this.#unlimited = true;
    if (this.#queue.length > 0) this.#drainSoon(0);
  }

  /**
   * Whether a call the API answered "rate limited" (`answersInARow` times so far) waits for the reset and tries
   * again. Not in `throw` mode, not past `maxWaitMs`, and not after 5 answers in a row: someone else is spending the
   * budget.
   */
  waitsOut(failure: RateLimitError, answersInARow: number): boolean {
    return this.#mode !== 'throw' && answersInARow <= 5 && this.answerDelay(failure) <= this.#maxWaitMs;
  }

  /** How long a call answered "rate limited" waits before trying again, in ms: until the answer's reset, at least 1 s. */
  answerDelay(failure: RateLimitError): number {
    const now = this.#clock.now();
    // Never spin, even when the reset has passed.
    return Math.max(+failure.resetAt, now + 1000) - now;
  }

  /**
   * Announces the wait for a rate-limit answer's reset (`onRateLimit`, with the `limit` last stated) and waits: with the budget on, every call of
   * the key is held until then; without it, only this one. Rejects with the signal's reason when it aborts.
   */
  async waitOut(failure: RateLimitError, limit: number, signal: AbortSignal | undefined): Promise<void> {
    const waitMs = this.answerDelay(failure);
    const resetAt = this.#clock.now() + waitMs;
    this.#onRateLimit?.({
      reason: 'answer',
      limit,
      remaining: 0,
      resetAt: new Date(resetAt),
      waitMs,
    });
    // Blocking the shared budget holds every other call too; acquire() then waits for the reset.
    if (this.#mode !== false) {
      this.#unlimited = false;
      await this.#store.block(this.#key, resetAt);
    } else await sleep(this.#clock, waitMs, signal);
  }

  #take(): TakeResult | Promise<TakeResult> {
    return andThen(this.#store.take(this.#key, this.#clock.now(), this.#inFlight, this.#assumed), (r) => {
      this.#lastState = r.state;
      if (r.granted) this.#inFlight++;
      return r;
    });
  }

  #hold(state: RateLimitState, signal: AbortSignal | undefined, notify: boolean): Promise<void> {
    const now = this.#clock.now();
    const rejection = this.#refusal(state, now);
    if (rejection) return Promise.reject(rejection);
    if (notify) this.#notifyHeld(state, now);
    return this.#enqueue(signal, this.#wakeAt(state, now));
  }

  /**
   * When held requests look at the budget again: at the window's end, or, while the window is the client's own guess
   * and the store was given to the client (another process or client may update it with the server's real, often
   * earlier, reset), every second.
   */
  #wakeAt(state: RateLimitState, now: number): number {
    return state.provisional && !(this.#store instanceof UnsharedMemoryStore)
      ? Math.min(state.resetAt, now + 1000)
      : state.resetAt;
  }

  /**
   * A RateLimitError when the caller must not wait (throw mode, or this wait for the window to reset passes
   * maxWaitMs); otherwise null. Each wait is judged on its own, so a long queue drains window by window.
   */
  #refusal(state: RateLimitState, now: number): RateLimitError | null {
    const waitMs = Math.max(0, state.resetAt - now);
    const retryAfter = Math.ceil(waitMs / 1000);
    const why =
      // Every window would be spent before it starts: waiting would never end.
      state.limit <= 0
        ? 'the API states a limit of 0 requests per window for this key (X-RateLimit-Limit: 0); check the key and its plan'
        : this.#mode === 'throw'
          ? `rateLimit is 'throw' ('wait' holds requests instead)`
          : waitMs > this.#maxWaitMs &&
            `waiting ${retryAfter} s would pass maxRateLimitWait (${this.#maxWaitMs / 1000} s); raise it or retry later`;
    if (!why) return null;
    return new RateLimitError({
      status: 429,
      message: `Rate limit budget spent (${state.remaining} of ${state.limit} left until ${new Date(state.resetAt).toISOString()}), request not sent: ${why}.`,
      body: undefined,
      headers: new Headers(),
      rateLimit: rateLimitInfo(state),
      retryAfter,
      resetAt: new Date(state.resetAt),
    });
  }

  #notifyHeld(state: RateLimitState, now: number): void {
    this.#onRateLimit?.({
      reason: 'budget',
      ...rateLimitInfo(state),
      // The wait actually scheduled, not a guessed window's end that a shared store's check may cut short.
      waitMs: Math.max(0, this.#wakeAt(state, now) - now),
    });
  }

  #enqueue(signal: AbortSignal | undefined, wakeAt?: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.#queue.indexOf(waiter);
        if (i >= 0) this.#queue.splice(i, 1);
        // Nobody waits any more: the wake-up timer would only keep the process alive for nothing.
        if (this.#queue.length === 0 && !this.#draining) {
          this.#timer?.cancel();
          this.#timer = null;
        }
        reject(new APIUserAbortError('The request was aborted by its signal while waiting for rate-limit budget.'));
      };
      const waiter: Waiter = (error) => {
        signal?.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
      if (wakeAt !== undefined) this.#drainSoon(wakeAt - this.#clock.now());
      else if (!this.#timer && !this.#draining) this.#drainSoon(0);
    });
  }

  #drainSoon(ms: number): void {
    this.#timer?.cancel();
    // Only scheduled while someone is queued, so it keeps the process alive exactly as long as a caller waits.
    this.#timer = awaitedTimeout(
      this.#clock,
      () => {
        this.#timer = null;
        void this.#drain();
      },
      Math.max(0, ms),
    );
  }

  /** Grants queued calls in order while budget lasts, then sleeps until the window resets. */
  async #drain(): Promise<void> {
    if (this.#draining) return;
    this.#draining = true;
    try {
      while (this.#queue.length > 0) {
        if (this.#unlimited) {
          this.#inFlight++;
          (this.#queue.shift() as Waiter)();
          continue;
        }
        const taken = this.#take();
        const result = isPromise(taken) ? await taken : taken;
        const head = this.#queue.shift();
        if (!head) {
          // Every waiter aborted while an async store answered; hand the budget back by not counting it.
          if (result.granted) this.release();
          break;
        }
        if (result.granted) {
          head();
          continue;
        }
        this.#queue.unshift(head);
        const now = this.#clock.now();
        // When the next reset is too far off (e.g. after a long Retry-After), every waiter gives up now.
        const refusal = this.#refusal(result.state, now);
        if (refusal) {
          for (const waiter of this.#queue.splice(0)) waiter(refusal);
        }
        if (this.#queue.length > 0) this.#drainSoon(this.#wakeAt(result.state, now) - now);
        break;
      }
    } finally {
      this.#draining = false;
    }
  }
}
