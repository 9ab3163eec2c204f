import ky from 'ky';
import type * as z from 'zod/mini';
import type { PageData } from '../schemas/page.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import { type Clock, sleep, systemClock } from './clock.js';
import { type Answer, type AnswerClassifier, errorForStatus, unreadableBodyError } from './error-mapping.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  type APIError,
  APIUserAbortError,
  LinkgateError,
  RateLimitError,
  ResponseValidationError,
} from './errors.js';
import { type LevelledLogger, type Logger, type LogLevel, levelledLogger, redactHeaders } from './logger.js';
import { Page, PagePromise } from './pagination.js';
import type { RateLimitStore } from './rate-limit-store.js';
import { type RateLimitEvent, RateLimiter, type RateLimitInfo, readRateLimitHeaders } from './rate-limiter.js';
import { RetryPolicy } from './retry.js';
import { assertServerSide, readEnv } from './runtime.js';
import { pathToString, toIssues } from './validation.js';

/** A `fetch`-compatible function. */
export type Fetch = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** Options every client accepts. */
export interface ClientOptions {
  /** The API key sent as `Authorization: Bearer <key>`. @default process.env.LINKGATE_API_KEY (where it exists) */
  apiKey?: string;
  /** The service's base URL, e.g. `https://links.example.com`. @default process.env.LINKGATE_BASE_URL (where it exists) */
  baseUrl?: string;
  /** A custom `fetch` (instrumentation, proxies, test doubles). @default globalThis.fetch */
  fetch?: Fetch;
  /** Per-attempt time limit in ms, including reading the body. @default 30000 */
  timeout?: number;
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
   * with RateLimitError at once, `false` turns the client-side limiter off (answers are still retried).
   * @default 'wait' (management client)
   */
  rateLimit?: 'wait' | 'throw' | false;
  /** The longest one request may wait for rate-limit budget, in ms; past it a RateLimitError is thrown. @default 120000 */
  maxRateLimitWait?: number;
  /** Called whenever a request is held for budget or the API answered "rate limited". */
  onRateLimit?: (event: RateLimitEvent) => void;
  /** Where the budget lives; share one (e.g. Redis-backed) between processes that use the same key. @default in memory */
  rateLimitStore?: RateLimitStore;
}

/** Options of a single call; they override the client's. */
export interface RequestOptions {
  /** Aborts the call, including any wait for budget or back-off. */
  signal?: AbortSignal;
  /** Per-attempt time limit in ms. @default the client's `timeout` */
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
  /** Whether the client-side rate limiter is on unless the user says otherwise. */
  rateLimitByDefault: boolean;
}

/** One API call, as resources describe it. */
export interface RequestSpec<S extends z.core.$ZodType, T> {
  /** e.g. `domains.update`, for messages. */
  operation: string;
  /** HTTP method. */
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path below the base URL, ids already validated. */
  path: string;
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

interface Received {
  response: Response;
  text: string;
}

const TIMED_OUT = Symbol('timed out');

/** A call answered "rate limited" this many times in a row gives up: someone else is spending the budget. */
const MAX_RATE_LIMIT_ANSWERS = 5;

/** FNV-1a: a short fingerprint so stores never see the key itself. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * The HTTP core both clients build on: authentication, the shared rate limiter, retries with back-off, timeouts and
 * abort, error classification, response validation and logging. Resource classes describe calls with
 * {@link request} / {@link requestPage}; everything else happens here.
 */
export class APIClient {
  /** The base URL requests go to, without a trailing slash. */
  readonly baseUrl: string;
  /** Default per-attempt timeout in ms. */
  readonly timeout: number;
  /** Default retries after transient failures. */
  readonly maxRetries: number;
  readonly #apiKey: string;
  readonly #profile: ClientProfile;
  readonly #fetch: Fetch | undefined;
  readonly #headers: Record<string, string>;
  readonly #clock: Clock;
  readonly #retry: RetryPolicy;
  readonly #log: LevelledLogger;
  readonly #limiter: RateLimiter | null;
  readonly #rateLimitMode: 'wait' | 'throw' | false;
  readonly #maxRateLimitWait: number;
  readonly #onRateLimit: ((event: RateLimitEvent) => void) | undefined;
  #lastRateLimit: RateLimitInfo | null = null;

  constructor(options: ClientOptions, profile: ClientProfile) {
    assertServerSide(profile.name, options.dangerouslyAllowBrowser);
    this.#profile = profile;
    const apiKey = options.apiKey ?? readEnv(profile.apiKeyEnv);
    if (!apiKey) {
      throw new LinkgateError(
        `${profile.name}: no API key. Pass { apiKey } or set the ${profile.apiKeyEnv} environment variable.`,
      );
    }
    this.#apiKey = apiKey;
    this.baseUrl = normaliseBaseUrl(options.baseUrl ?? readEnv(profile.baseUrlEnv), profile);
    this.timeout = checkNumber(options.timeout ?? 30_000, 'timeout', profile, 1);
    this.maxRetries = checkNumber(options.maxRetries ?? 2, 'maxRetries', profile, 0);
    this.#fetch = options.fetch;
    this.#headers = { ...options.headers };
    this.#clock = options.clock ?? systemClock;
    this.#retry = new RetryPolicy(options.random ? { random: options.random } : {});
    const logLevel = options.logLevel ?? (options.logger ? 'info' : 'off');
    const logger = options.logger ?? (options.logLevel && options.logLevel !== 'off' ? globalThis.console : undefined);
    this.#log = levelledLogger(logger, logLevel, (line) => this.#scrub(line));
    this.#maxRateLimitWait = checkNumber(options.maxRateLimitWait ?? 120_000, 'maxRateLimitWait', profile, 0);
    this.#onRateLimit = options.onRateLimit;
    this.#rateLimitMode = options.rateLimit ?? (profile.rateLimitByDefault ? 'wait' : false);
    this.#limiter =
      options.rateLimit === false || (options.rateLimit === undefined && !profile.rateLimitByDefault)
        ? null
        : new RateLimiter({
            clock: this.#clock,
            key: `linkgate:${fingerprint(`${apiKey}@${new URL(this.baseUrl).origin}`)}`,
            mode: this.#rateLimitMode || 'wait',
            maxWaitMs: this.#maxRateLimitWait,
            ...(options.rateLimitStore ? { store: options.rateLimitStore } : {}),
            ...(options.onRateLimit ? { onRateLimit: options.onRateLimit } : {}),
          });
  }

  /** The rate-limit figures of the last answer that carried them, or null before any. */
  get rateLimit(): RateLimitInfo | null {
    return this.#lastRateLimit;
  }

  /** Sends one call and parses its answer. Validation in `build` runs inside the promise, so it rejects rather than throws. */
  request<S extends z.core.$ZodType, T>(build: () => RequestSpec<S, T>): APIPromise<T> {
    return new APIPromise(
      (async () => {
        const spec = build();
        return this.#execute(spec);
      })(),
    );
  }

  /**
   * Sends a paged list call. `build(page)` describes the call for one page number; errors of a page carry `page` so
   * the caller can resume with `list({ page })`.
   */
  requestPage<S extends z.core.$ZodType, T>(
    build: (page: number | undefined) => RequestSpec<S, PageData<T>>,
    firstPage: number | undefined,
  ): PagePromise<T> {
    const fetchPage = (page: number | undefined): APIPromise<Page<T>> =>
      new APIPromise(
        (async () => {
          try {
            const spec = build(page);
            const { data, response } = await this.#execute(spec);
            return { data: new Page<T>(data, fetchPage), response };
          } catch (error) {
            if (error instanceof LinkgateError) error.page = page ?? 1;
            throw error;
          }
        })(),
      );
    return new PagePromise<T>(fetchPage(firstPage).withResponse());
  }

  /** Names the client and its base URL; never the key. */
  toString(): string {
    return `${this.#profile.name} { baseUrl: '${this.baseUrl}' }`;
  }

  /** Replaces any occurrence of the API key in `text` (server messages, log lines) with `***`. */
  #scrub(text: string): string {
    return this.#apiKey.length >= 4 && text.includes(this.#apiKey) ? text.split(this.#apiKey).join('***') : text;
  }

  async #execute<S extends z.core.$ZodType, T>(spec: RequestSpec<S, T>): Promise<WithResponse<T>> {
    const options = spec.options ?? {};
    const { signal } = options;
    const maxRetries = options.maxRetries ?? this.maxRetries;
    const timeout = options.timeout ?? this.timeout;
    const url = this.#url(spec.path, spec.query);
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.#apiKey}`,
      'Content-Type': 'application/json',
      Accept: 'application/json',
      ...this.#headers,
      ...options.headers,
    };
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    let retries = 0;
    let rateLimitAnswers = 0;

    for (;;) {
      if (signal?.aborted) throw userAbort(spec);
      if (this.#limiter) {
        const wait = this.#limiter.acquire(signal);
        if (wait) await wait;
      }
      const started = this.#clock.now();
      this.#log.debug?.(`${spec.method} ${url} sending (${redactHeaders(headers)})`);
      let received: Received;
      try {
        received = await this.#send(spec, url, headers, body, timeout, signal);
      } catch (error) {
        this.#limiter?.release();
        const kind = error instanceof APIConnectionTimeoutError ? 'timeout' : 'connection';
        if (error instanceof APIConnectionError && retries < maxRetries && this.#retry.allows(spec.method, kind)) {
          retries++;
          await this.#backOff(spec, retries, maxRetries, error.message, signal);
          continue;
        }
        this.#log.error?.(`${spec.method} ${spec.path} failed: ${(error as Error).message}`);
        throw error;
      }
      this.#limiter?.release();
      const { response, text } = received;
      const now = this.#clock.now();
      const seen = readRateLimitHeaders(response.headers, now);
      if (seen) {
        this.#lastRateLimit = { limit: seen.limit, remaining: seen.remaining, resetAt: new Date(seen.resetAt) };
        const observed = this.#limiter?.observe(seen);
        if (observed) await observed;
      }
      this.#log.info?.(`${spec.method} ${spec.path} ${response.status} in ${now - started} ms`);

      const answer = this.#answer(spec, response, text, now);
      const failure = this.#failureOf(answer);
      if (!failure) return { data: this.#parse(spec, answer), response };

      if (failure instanceof RateLimitError) {
        rateLimitAnswers++;
        await this.#waitOutRateLimit(spec, failure, rateLimitAnswers, signal);
        continue;
      }
      if (retries < maxRetries && this.#retry.allows(spec.method, 'status', failure.status)) {
        retries++;
        await this.#backOff(spec, retries, maxRetries, `HTTP ${failure.status}`, signal);
        continue;
      }
      throw failure;
    }
  }

  /** One attempt through ky with our own timeout (on the injected clock) and no ky retries. */
  async #send(
    spec: RequestSpec<z.core.$ZodType, unknown>,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeout: number,
    signal: AbortSignal | undefined,
  ): Promise<Received> {
    const timer = new AbortController();
    const handle = this.#clock.setTimeout(() => timer.abort(TIMED_OUT), timeout);
    try {
      const abort = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;
      const send = this.#fetch ?? globalThis.fetch;
      // The signal goes to fetch rather than to ky: ky would merge it with its own through AbortSignal.any on every call.
      const response = await ky(url, {
        method: spec.method,
        headers,
        body,
        timeout: false,
        retry: 0,
        throwHttpErrors: false,
        fetch: (request, init) => send(request, { ...init, signal: abort }),
      });
      const text = await response.text();
      return { response, text };
    } catch (error) {
      if (signal?.aborted) throw userAbort(spec);
      if (timer.signal.aborted) {
        throw new APIConnectionTimeoutError(
          `${spec.method} ${spec.path} got no answer within ${timeout} ms. Raise the timeout option or retry later.`,
        );
      }
      // ky's errors hold the Request (with its Authorization header); keep only the underlying cause.
      const cause = (error as { cause?: unknown }).cause ?? error;
      const reason = cause instanceof Error ? cause.message : String(cause);
      const detail = (cause as { cause?: { code?: string } }).cause?.code;
      throw new APIConnectionError(
        this.#scrub(
          `${spec.method} ${url} could not connect: ${reason}${detail ? ` (${detail})` : ''}. Check baseUrl and the network.`,
        ),
        { cause },
      );
    } finally {
      handle.cancel();
    }
  }

  #answer(spec: RequestSpec<z.core.$ZodType, unknown>, response: Response, text: string, now: number): Answer {
    let body: unknown;
    let isJson = false;
    if (text !== '') {
      try {
        body = JSON.parse(text);
        isJson = true;
      } catch {
        body = undefined;
      }
    }
    return {
      method: spec.method,
      path: spec.path,
      status: response.status,
      headers: response.headers,
      body,
      text,
      isJson,
      now,
    };
  }

  /** The failure an answer represents, or null for success. */
  #failureOf(answer: Answer): APIError | null {
    const failure = answer.isJson ? this.#profile.classify(answer) : null;
    if (failure) return this.#scrubbed(failure);
    if (answer.status >= 300) return this.#scrubbed(errorForStatus(answer));
    if (!answer.isJson) return unreadableBodyError(answer);
    return null;
  }

  #scrubbed<E extends APIError>(error: E): E {
    const clean = this.#scrub(error.message);
    if (clean !== error.message) error.message = clean;
    return error;
  }

  #parse<S extends z.core.$ZodType, T>(spec: RequestSpec<S, T>, answer: Answer): T {
    const result = (spec.schema as unknown as z.ZodMiniType).safeParse(answer.body);
    if (!result.success) {
      const issues = toIssues(result.error.issues, answer.body);
      const list = issues
        .slice(0, 5)
        .map((i) => `${pathToString('', i.path)} ${i.message}`)
        .join('; ');
      throw new ResponseValidationError(
        `${spec.operation}: the answer of ${spec.method} ${spec.path} does not match the documented shape: ${list}. ` +
          'The service may have changed; error.body holds the raw answer.',
        answer.body,
        issues,
      );
    }
    return spec.select(result.data as z.output<S>);
  }

  async #waitOutRateLimit(
    spec: RequestSpec<z.core.$ZodType, unknown>,
    failure: RateLimitError,
    answers: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const now = this.#clock.now();
    // Never spin: a rate-limit answer always waits at least a second.
    const resetAt = Math.max(failure.resetAt.getTime(), now + 1000);
    const waitMs = resetAt - now;
    if (this.#rateLimitMode === 'throw' || waitMs > this.#maxRateLimitWait || answers > MAX_RATE_LIMIT_ANSWERS) {
      throw failure;
    }
    const event: RateLimitEvent = {
      reason: 'answer',
      limit: this.#lastRateLimit?.limit ?? 0,
      remaining: 0,
      resetAt: new Date(resetAt),
      waitMs,
    };
    this.#log.warn?.(`${spec.method} ${spec.path} rate limited; retrying in ${waitMs} ms`);
    if (this.#limiter) {
      this.#limiter.notify(event);
      // Blocking the shared budget holds every other call too; acquire() then waits for the reset.
      await this.#limiter.block(resetAt);
      return;
    }
    this.#onRateLimit?.(event);
    await this.#sleep(spec, waitMs, signal);
  }

  async #backOff(
    spec: RequestSpec<z.core.$ZodType, unknown>,
    retry: number,
    maxRetries: number,
    reason: string,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const delay = this.#retry.delay(retry);
    this.#log.warn?.(`${spec.method} ${spec.path} failed (${reason}); retry ${retry} of ${maxRetries} in ${delay} ms`);
    await this.#sleep(spec, delay, signal);
  }

  async #sleep(spec: RequestSpec<z.core.$ZodType, unknown>, ms: number, signal: AbortSignal | undefined) {
    try {
      await sleep(this.#clock, ms, signal);
    } catch {
      throw userAbort(spec);
    }
  }

  #url(path: string, query: RequestSpec<z.core.$ZodType, unknown>['query']): string {
    if (!query) return this.baseUrl + path;
    let search = '';
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined) continue;
      search += `${search ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`;
    }
    return this.baseUrl + path + search;
  }
}

function userAbort(spec: RequestSpec<z.core.$ZodType, unknown>): APIUserAbortError {
  return new APIUserAbortError(`${spec.operation} (${spec.method} ${spec.path}) was aborted by its signal.`);
}

function normaliseBaseUrl(value: string | undefined, profile: ClientProfile): string {
  if (!value) {
    throw new LinkgateError(
      `${profile.name}: no base URL. Pass { baseUrl: 'https://your-service.example' } or set ${profile.baseUrlEnv}.`,
    );
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new LinkgateError(`${profile.name}: baseUrl must be an absolute http(s) URL (got ${JSON.stringify(value)}).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LinkgateError(`${profile.name}: baseUrl must use http or https (got ${url.protocol}).`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function checkNumber(value: number, name: string, profile: ClientProfile, min: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    throw new LinkgateError(`${profile.name}: ${name} must be a number >= ${min} (got ${String(value)}).`);
  }
  return value;
}
