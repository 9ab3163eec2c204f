// Types of the client's API that the Redis entry does not use, in a leaf of their own: kept apart from the store's file,
// which linkgate/redis shares, the declaration bundler can give them to the linkgate entry alone (no TS2742 risk).

/** What the client knows about its request budget, as handed to users. */
export interface RateLimitInfo {
  /** Requests allowed per window. */
  limit: number;
  /** Requests left in the current window. */
  remaining: number;
  /** When the window ends. */
  resetAt: Date;
}

/** A value, or a promise of it: the in-memory store answers synchronously, a Redis store asynchronously. */
export type MaybePromise<T> = T | Promise<T>;
