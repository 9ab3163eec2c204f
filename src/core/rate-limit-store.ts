/**
 * The records a {@link RateLimitStore} reads and writes (types only), for store authors: `RateLimitStore.State`,
 * `RateLimitStore.Observation`, `RateLimitStore.AssumedWindow` and `RateLimitStore.TakeResult`.
 */
export declare namespace RateLimitStore {
  /** The request budget of one API key as the client believes it to be. */
  export interface State {
    /** Requests allowed per window. */
    limit: number;
    /** Requests this client may still send in the current window. */
    remaining: number;
    /** When the current window ends, ms since the epoch. */
    resetAt: number;
    /** True while the window is the client's own guess (no answer from the API has confirmed it yet). */
    provisional: boolean;
  }

  /** What one answer's `X-RateLimit-*` headers said. */
  export interface Observation {
    /** `X-RateLimit-Limit`. */
    limit: number;
    /** `X-RateLimit-Remaining`, clamped at 0. */
    remaining: number;
    /** `X-RateLimit-Reset`, converted to ms since the epoch. */
    resetAt: number;
  }

  /** Used until the API has told the client its real limit: the documented 30 requests per 60 s. */
  export interface AssumedWindow {
    /** Requests per window. @default 30 */
    limit: number;
    /** Window length in ms. @default 60000 */
    windowMs: number;
  }

  /** The result of {@link RateLimitStore.take}. */
  export interface TakeResult {
    /** True when the request may be sent now. */
    granted: boolean;
    /** The state after taking. */
    state: State;
  }
}

/** {@link RateLimitStore.State}, by its name inside linkgate. */
export type RateLimitState = RateLimitStore.State;
/** {@link RateLimitStore.Observation}, by its name inside linkgate. */
export type RateLimitObservation = RateLimitStore.Observation;
/** {@link RateLimitStore.AssumedWindow}, by its name inside linkgate. */
export type AssumedWindow = RateLimitStore.AssumedWindow;
/** {@link RateLimitStore.TakeResult}, by its name inside linkgate. */
export type TakeResult = RateLimitStore.TakeResult;

/** The documented budget (30 requests per 60 s), assumed until an answer states the real one. */
export const DEFAULT_ASSUMED_WINDOW: Readonly<AssumedWindow> = { limit: 30, windowMs: 60_000 };

/**
 * Where the client's rate limiter keeps the budget. Every method must be atomic per `key`, so several processes that share
 * one API key can share one budget. The default {@link MemoryRateLimitStore} is per process.
 *
 * `key` is a fingerprint of the API key and origin, never the key itself. `inFlight` is the number of requests this
 * process has sent and not yet seen answered: they may still count against the budget.
 *
 * For processes that share a key through Redis, `linkgate/redis` has one: `RedisRateLimitStore`, on your connected
 * node-redis or ioredis client (each method one Lua script, so every read-modify-write is atomic).
 *
 * @example
 * import { createClient } from 'redis';
 * import { RedisRateLimitStore } from 'linkgate/redis';
 *
 * const redis = createClient({ url: process.env.REDIS_URL });
 * await redis.connect();
 * const client = new Linkgate({ apiKey, rateLimitStore: new RedisRateLimitStore({ client: redis }) });
 */
export interface RateLimitStore {
  /**
   * Takes one request from the budget. Starts a new provisional window when the last one has ended. Returns whether
   * the request may be sent now, and the state after taking (its `resetAt` says how long to wait when not granted).
   */
  take(
    key: string,
    now: number,
    inFlight: number,
    assumed: RateLimitStore.AssumedWindow,
  ): RateLimitStore.TakeResult | Promise<RateLimitStore.TakeResult>;
  /**
   * Merges what an answer said into the state. An answer from a newer window replaces the state; one from the
   * current window can only lower `remaining`; one from an ended window refunds the request to a provisional window.
   * Replacing a provisional window keeps the smaller of the server's count (minus `inFlight`) and what the guessed
   * window has left (moved by the difference between the stated and the assumed limit): other processes sharing the
   * store took from it too, and their requests may not have reached the server yet.
   */
  observe(key: string, seen: RateLimitStore.Observation, inFlight: number, now: number): void | Promise<void>;
  /**
   * The API answered "rate limited": the budget is spent until `resetAt`, which replaces a provisional (guessed)
   * window's end, so a short `Retry-After` is not stretched to the assumed window.
   */
  block(key: string, resetAt: number): void | Promise<void>;
}

/** The default store: a Map in this process. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #states = new Map<string, RateLimitState>();

  take(key: string, now: number, inFlight: number, assumed: RateLimitStore.AssumedWindow): RateLimitStore.TakeResult {
    let state = this.#states.get(key);
    if (!state || now >= state.resetAt) {
      // After "X-RateLimit-Limit: 0" one request per window still goes out, to learn whether the limit was raised.
      const limit = Math.max(1, state?.limit ?? assumed.limit);
      // Requests still in flight may land in the new window, so they are counted against it.
      state = { limit, remaining: Math.max(0, limit - inFlight), resetAt: now + assumed.windowMs, provisional: true };
      this.#states.set(key, state);
    }
    const granted = state.remaining > 0;
    if (granted) state.remaining--;
    return { granted, state: { ...state } };
  }

  observe(key: string, seen: RateLimitStore.Observation, inFlight: number, now: number): void {
    const state = this.#states.get(key);
    if (seen.resetAt <= now) {
      // The answer was counted in a window that is over; it did not use the new window's budget.
      if (state?.provisional) state.remaining = Math.min(state.limit, state.remaining + 1);
      return;
    }
    let remaining = Math.max(0, seen.remaining - inFlight);
    if (!state || state.provisional || seen.resetAt > state.resetAt) {
      // Another process's requests taken from the guessed window are in flight, not yet in the server's count.
      if (state?.provisional && !(this instanceof UnsharedMemoryStore))
        remaining = Math.min(remaining, Math.max(0, state.remaining + seen.limit - state.limit));
      this.#states.set(key, { limit: seen.limit, remaining, resetAt: seen.resetAt, provisional: false });
    } else if (seen.resetAt === state.resetAt) {
      // Answers arrive out of order; the lowest count is the freshest.
      state.limit = seen.limit;
      state.remaining = Math.min(state.remaining, remaining);
    }
  }

  block(key: string, resetAt: number): void {
    const state = this.#states.get(key);
    if (state) {
      state.remaining = 0;
      // The API's own word (Retry-After) replaces a guessed window; a window its headers stated can only grow.
      state.resetAt = state.provisional ? resetAt : Math.max(state.resetAt, resetAt);
      state.provisional = false;
    } else {
      this.#states.set(key, { limit: DEFAULT_ASSUMED_WINDOW.limit, remaining: 0, resetAt, provisional: false });
    }
  }
}

/**
 * A store for one limiter alone, the default when the client is given none (internal: not exported by the package):
 * nobody else takes from it, so its owner's answers are exact.
 */
export class UnsharedMemoryStore extends MemoryRateLimitStore {}
