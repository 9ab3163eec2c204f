/** Why an attempt failed, as far as retrying is concerned. */
export type FailureKind = 'connection' | 'timeout' | 'status';

/**
 * When and how long to wait before trying again after a transient failure (connection error, timeout, 408, 5xx).
 * Rate-limit answers are not handled here: they wait for the window to reset (see RateLimiter).
 */
export class RetryPolicy {
  /** First back-off in ms. @default 500 */
  readonly baseDelayMs: number;
  /** Largest back-off in ms. @default 8000 */
  readonly maxDelayMs: number;
  readonly #random: () => number;

  constructor(options: { baseDelayMs?: number; maxDelayMs?: number; random?: () => number } = {}) {
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 8000;
    this.#random = options.random ?? Math.random;
  }

  /** HTTP statuses that mean "try again later": 408 and every 5xx. */
  static isRetryableStatus(status: number): boolean {
    return status === 408 || status >= 500;
  }

  /**
   * Whether a failed attempt may be repeated. POST creates records, so after a timeout or 5xx it may have been
   * applied already: only GET, PUT and DELETE (idempotent) are retried.
   */
  allows(method: string, kind: FailureKind, status?: number): boolean {
    if (method === 'POST') return false;
    return kind !== 'status' || (status !== undefined && RetryPolicy.isRetryableStatus(status));
  }

  /**
   * Back-off before retry number `retry` (1-based): 0.5 s doubling, capped at 8 s, minus up to 25% jitter so clients
   * that failed together do not retry together.
   */
  delay(retry: number): number {
    const exponential = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (retry - 1));
    return Math.round(exponential * (1 - 0.25 * this.#random()));
  }
}
