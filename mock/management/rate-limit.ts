import { DEFAULT_ASSUMED_WINDOW } from '../../src/core/rate-limit-store.js';
import type { Clock } from '../../src/shared/clock.js';

/** How many requests a key may make per window. */
export interface RateLimitOptions {
  /** Requests allowed per window. @default 30 */
  limit: number;
  /** Window length in ms. @default 60_000 */
  windowMs: number;
}

/** The management API's documented limit: 30 requests per minute per key (the figure the SDK assumes, written once). */
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { ...DEFAULT_ASSUMED_WINDOW };

/** The outcome of counting one request. */
export interface RateDecision {
  /** Whether the request may proceed. */
  allowed: boolean;
  /** The window's limit. */
  limit: number;
  /** Requests left in this window, never below 0 (older production versions sent -1). */
  remaining: number;
  /** When the window ends, ms since the epoch. */
  resetAt: number;
  /** Whole seconds until the window ends (rounded up), the body's `Retry-After`. */
  retryAfter: number;
}

interface Window {
  start: number;
  count: number;
}

/**
 * Fixed-window rate limit per key, as production runs it: a window opens at a key's first request, lasts
 * `windowMs`, and admits `limit` requests; requests beyond that are refused until the window ends.
 *
 * @example
 * const limiter = new RateLimiter(clock, { limit: 30, windowMs: 60_000 });
 * const decision = limiter.take(apiKey);
 * if (!decision.allowed) return tooManyRequests(decision);
 */
export class RateLimiter {
  readonly #clock: Clock;
  readonly #options: RateLimitOptions;
  readonly #windows = new Map<string, Window>();

  constructor(clock: Clock, options: RateLimitOptions = DEFAULT_RATE_LIMIT) {
    if (!Number.isInteger(options.limit) || options.limit < 1) {
      throw new TypeError(`rateLimit.limit must be a positive integer (got ${String(options.limit)}).`);
    }
    if (!Number.isFinite(options.windowMs) || options.windowMs <= 0) {
      throw new TypeError(`rateLimit.windowMs must be a positive number of ms (got ${String(options.windowMs)}).`);
    }
    this.#clock = clock;
    this.#options = { limit: options.limit, windowMs: options.windowMs };
  }

  /** The limit and window length in force. */
  get options(): RateLimitOptions {
    return { ...this.#options };
  }

  /** Counts one request for `key` and says whether it may proceed. */
  take(key: string): RateDecision {
    const now = this.#clock.now();
    let window = this.#windows.get(key);
    if (!window || now >= window.start + this.#options.windowMs) {
      if (this.#windows.size > 10_000) this.#sweep(now);
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    window.count++;
    const resetAt = window.start + this.#options.windowMs;
    return {
      allowed: window.count <= this.#options.limit,
      limit: this.#options.limit,
      remaining: Math.max(0, this.#options.limit - window.count),
      resetAt,
      retryAfter: Math.max(0, Math.ceil((resetAt - now) / 1000)),
    };
  }

  /** A key's current window without counting a request, or undefined when it has none open (for the inspector). */
  peek(key: string): { used: number; limit: number; remaining: number; resetAt: number } | undefined {
    const window = this.#windows.get(key);
    if (!window || this.#clock.now() >= window.start + this.#options.windowMs) return undefined;
    const { limit, windowMs } = this.#options;
    return {
      used: window.count,
      limit,
      remaining: Math.max(0, limit - window.count),
      resetAt: window.start + windowMs,
    };
  }

  /** Forgets a key's window (its user was deleted, or the backend was reset). */
  forget(key: string): void {
    this.#windows.delete(key);
  }

  /** Forgets every window. */
  clear(): void {
    this.#windows.clear();
  }

  #sweep(now: number): void {
    for (const [key, w] of this.#windows) if (now >= w.start + this.#options.windowMs) this.#windows.delete(key);
  }
}

/** The `X-RateLimit-*` headers for a decision; `Reset` is Unix time in seconds, as production sends it. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(Math.ceil(decision.resetAt / 1000)),
  };
}

/** The over-limit body production sends on HTTP 200. */
export function tooManyRequestsBody(decision: RateDecision): { error: 429; message: string; 'Retry-After': number } {
  return { error: 429, message: 'Too Many API Requests.', 'Retry-After': decision.retryAfter };
}
