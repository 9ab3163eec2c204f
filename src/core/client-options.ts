// What a client is configured with (the options users pass, and what each API family supplies) and how resources
// describe one call: the types of the request path in src/core/api-client.ts, apart from its code.
import type * as z from 'zod/mini';
import type { Clock } from '../shared/clock.js';
import type { AnswerClassifier } from './error-mapping.js';
import type { Hooks } from './hooks.js';
import type { Logger } from './logger.js';
import type { RateLimitStore } from './rate-limit-store.js';
import type { RateLimitEvent } from './rate-limiter.js';

/** A `fetch`-compatible function. */
export type Fetch = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

// Declared with the options, apart from the Logger that linkgate/redis shares, so the declaration bundler keeps it in
// the linkgate entry's own declarations.
/** How much to log; each level includes the ones before it. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Options every client accepts. */
export interface ClientOptions {
  /** The API key sent as `Authorization: Bearer <key>`. @default process.env.LINKGATE_API_KEY (where it exists) */
  apiKey?: string;
  /** The service's base URL, e.g. `https://links.example.com`. @default process.env.LINKGATE_BASE_URL (where it exists) */
  baseUrl?: string;
  /** A custom `fetch` (instrumentation, proxies, test doubles). @default globalThis.fetch */
  fetch?: Fetch;
  /**
   * Per-attempt time limit in ms, including the attempt's `beforeRequest` hooks and reading the body; the
   * `afterResponse`, `beforeRetry` and `beforeError` hooks of one step get as long again. @default 30000
   */
  timeout?: number;
  /**
   * The most bytes one answer's body may have (counted after decompression). Reading stops there and the call fails
   * with ResponseTooLargeError, so an endless or huge answer (or a gzip bomb) cannot exhaust memory. The API's pages
   * are a few KB; raise it only for very large `limit`s.
   * @default 16777216 (16 MiB)
   */
  maxResponseBytes?: number;
  /** Retries after a connection error, timeout, 408 or 5xx (not for POST). @default 2 */
  maxRetries?: number;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** Where log lines go (`console` fits). @default none: silent */
  logger?: Logger;
  /** How much to log. @default 'info' when a logger is given */
  logLevel?: LogLevel;
  /** Where time comes from (waits, timeouts, back-off). @default systemClock */
  clock?: Clock;
  /** Random numbers in [0, 1) for back-off jitter. @default Math.random */
  random?: () => number;
  /** Allow construction in a browser, where the key would be visible to every visitor. @default false */
  dangerouslyAllowBrowser?: boolean;
  /**
   * What to do when the request budget is spent: `wait` holds requests until the window resets, `throw` fails them
   * with RateLimitError at once, `false` turns the client-side limiter off (answers are still retried). The budget is
   * assumed to be 30 per 60 s before the first answer, then read from the `X-RateLimit-*` headers; while answers carry
   * none, the server advertises no limit and nothing is held (rate-limit answers are still waited out and retried).
   * @default 'wait' (management client)
   */
  rateLimit?: 'wait' | 'throw' | false;
  /** The longest one request may wait for rate-limit budget, in ms; past it a RateLimitError is thrown. @default 120000 */
  maxRateLimitWait?: number;
  /** Called whenever a request is held for budget or the API answered "rate limited". */
  onRateLimit?: (event: RateLimitEvent) => void;
  /** Where the budget lives; share one (e.g. Redis-backed) between processes that use the same key. @default in memory */
  rateLimitStore?: RateLimitStore;
  /**
   * Functions run along each call's way, ky's names and shapes with linkgate's context (operation, attempt, rate-limit
   * state, the classified error): `beforeRequest` (add headers), `afterResponse`, `beforeRetry` (see retries happen),
   * `beforeError`. See {@link Hooks}. @default none
   */
  hooks?: Hooks;
}

/** Options of a single call; they override the client's. */
export interface RequestOptions {
  /** Aborts the call, including any wait for budget or back-off and any hook still running. */
  signal?: AbortSignal;
  /** Per-attempt time limit in ms (hooks included, see the client's `timeout`). @default the client's `timeout` */
  timeout?: number;
  /** Retries after transient failures. @default the client's `maxRetries` */
  maxRetries?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

/** What differs between API families; supplied by each client class, not by users. */
export interface ClientProfile {
  /** Class name for messages, e.g. `Linkgate`. */
  name: string;
  /** Environment variable with the API key. */
  apiKeyEnv: string;
  /** Environment variable with the base URL. */
  baseUrlEnv: string;
  /** Decides which answers are failures. */
  classify: AnswerClassifier;
  /** The `rateLimit` option's default for this API family. */
  rateLimit: 'wait' | false;
  /** Throws a LinkgateError when a given key has the wrong shape for this API (never quoting it). */
  checkKey?: (apiKey: string) => void;
}

/** One API call, as resources describe it. */
export interface RequestSpec<S extends z.core.$ZodType, T> {
  /** e.g. `domains.update`, for messages. */
  operation: string;
  /** HTTP method. */
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path below the base URL, ids already validated. */
  path: string;
  /** The path template, ids not filled in (`/api/domain/{id}/update`), for hooks and traces. @default path */
  route?: string;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | undefined>;
  /** JSON body, already validated. */
  body?: unknown;
  /** Schema of a successful answer. */
  schema: S;
  /** Picks the result out of the parsed answer. */
  select: (parsed: z.output<S>) => T;
  /** Per-call options. */
  options?: RequestOptions | undefined;
}
