import ky, { type Input, type KyInstance } from 'ky';
import type * as z from 'zod/mini';
import { awaitedTimeout, type Clock, sleep, systemClock } from '../shared/clock.js';
import { withoutTrailingSlashes } from '../shared/trailing-slashes.js';
import { APIPromise, type WithResponse } from './api-promise.js';
import type { ClientOptions, ClientProfile, Fetch, RequestSpec } from './client-options.js';
import { type Answer, errorForStatus, unreadableBodyError } from './error-mapping.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  CrossOriginRedirectError,
  LinkgateError,
  RateLimitError,
  ResponseValidationError,
} from './errors.js';
import { fetchFailure, safely } from './fetch-failure.js';
import {
  activeHooks,
  type HookContext,
  HookFailure,
  type HookKind,
  HookOverrun,
  type Hooks,
  settleWithin,
} from './hooks.js';
import { withoutKey } from './key-scrubbing.js';
import { type LevelledLogger, levelledLogger, redactHeaders } from './logger.js';
import { raceSignals } from './race-signals.js';
import type { RateLimitObservation } from './rate-limit-store.js';
import {
  DEFAULT_MAX_WAIT_MS,
  RateLimiter,
  type RateLimitInfo,
  rateLimitInfo,
  readRateLimitHeaders,
} from './rate-limiter.js';
import { DEFAULT_MAX_RESPONSE_BYTES, discard, readBoundedText } from './response-body.js';
import { assertServerSide, readEnv } from './runtime.js';
import { callNames, type RequestTrace, startTrace, type Traces, traceAttempt, tracingChannels } from './traces.js';
import { describe, toIssues } from './validation.js';

// The options and call descriptions live in their own file; resources and clients import them from here too.
export type { ClientOptions, ClientProfile, Fetch, RequestOptions, RequestSpec } from './client-options.js';

/** Visible ASCII only: what an `Authorization: Bearer <key>` header can carry. */
const HEADER_SAFE_KEY = /^[\x21-\x7e]+$/;

/** One call's fixed parts, worked out once before its first attempt. */
interface PreparedCall<S extends z.core.$ZodType, T> {
  /** The call as its resource described it. */
  request: RequestSpec<S, T>;
  /** e.g. `GET /api/domains`, for messages. */
  name: string;
  /** The full URL: base URL, path and query. */
  url: string;
  /** This call's extra headers. */
  headers: Record<string, string> | undefined;
  timeout: number;
  maxRetries: number;
  signal: AbortSignal | undefined;
  /** Attempts sent so far. */
  attempt: number;
  /** The call's trace, when anyone listens on the tracing channels. */
  trace: RequestTrace | undefined;
  /** The ms held for rate limits since the last attempt was sent (read only when the call is traced). */
  held: number;
}

/**
 * How one attempt ended: with an answer, or with a failure before any (connection, timeout, redirect, size); and the
 * failure it was judged to be (null for a success).
 */
type Attempt = ({ answer: Answer; response: Response } | { answer?: undefined; response?: undefined }) & {
  failure: Error | null;
};

/** How far an answer's X-RateLimit-Reset may be from the client's clock before the clocks are taken to differ. */
const CLOCK_AGREEMENT_MS = 3_600_000;

/** Same-origin redirects followed per attempt, as browsers cap them. */
const MAX_REDIRECTS = 20;

/** The statuses fetch would follow. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

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
 * abort, error classification, response validation and logging. Resource classes describe calls and hand them to
 * {@link request} (paged lists through `listOf` in ../management/resources/shared.ts); everything else happens here.
 */
export class APIClient {
  /** The base URL requests go to, without a trailing slash. */
  declare readonly baseUrl: string;
  /** The base URL's origin: the only one redirects are followed within. */
  readonly #origin: string;
  /** Default per-attempt timeout in ms. */
  declare readonly timeout: number;
  /** Default retries after transient failures. */
  declare readonly maxRetries: number;
  /** The most bytes one answer's body may have. */
  declare readonly maxResponseBytes: number;
  readonly #apiKey: string;
  readonly #profile: ClientProfile;
  readonly #fetch: Fetch;
  /** Whether `fetch` is the user's, which may not listen to the signal it is given (the runtime's does). */
  readonly #customFetch: boolean;
  /** Every request's headers (authorization, content type, the client's `headers`), merged once. */
  readonly #headers: Record<string, string>;
  /** What sends every attempt: one ky instance with this client's fixed options, made once. */
  readonly #ky: KyInstance;
  readonly #clock: Clock;
  readonly #random: () => number;
  readonly #log: LevelledLogger;
  /** The rate-limit policy and budget; with `rateLimit: false` only its policy for rate-limit answers applies. */
  readonly #limiter: RateLimiter;
  #lastRateLimit: RateLimitObservation | null = null;
  /** The hooks that have functions; undefined when none do. */
  readonly #hooks: Hooks | undefined;
  /** The tracing channels; null where the runtime has none. */
  readonly #traces: Traces | null;
  /** Set when an answer's X-RateLimit-Reset shows the server's clock is not this client's: waits cannot work then. */
  #clockMismatch: string | null = null;

  constructor(options: ClientOptions, profile: ClientProfile) {
    assertServerSide(profile.name, options.dangerouslyAllowBrowser);
    this.#profile = profile;
    const apiKey = options.apiKey ?? readEnv(profile.apiKeyEnv);
    if (!apiKey) {
      throw new LinkgateError(
        `${profile.name}: no API key. Pass { apiKey } or set the ${profile.apiKeyEnv} environment variable.`,
      );
    }
    profile.checkKey?.(apiKey);
    // A stray newline or space (from a file or a shell) would fail later inside fetch, with the key in the cause.
    if (!HEADER_SAFE_KEY.test(apiKey)) {
      throw new LinkgateError(
        `${profile.name}: apiKey holds a space, line break or other character an HTTP header cannot carry. Trim it; the key is not shown.`,
      );
    }
    this.#apiKey = apiKey;
    const base = normaliseBaseUrl(options.baseUrl ?? readEnv(profile.baseUrlEnv), profile);
    this.baseUrl = withoutTrailingSlashes(`${base.origin}${base.pathname}`);
    this.#origin = base.origin;
    this.timeout = numberOption(options, 'timeout', 30_000, 1, profile);
    this.maxRetries = numberOption(options, 'maxRetries', 2, 0, profile);
    this.maxResponseBytes = numberOption(options, 'maxResponseBytes', DEFAULT_MAX_RESPONSE_BYTES, 1, profile);
    this.#headers = {
      Authorization: `Bearer ${apiKey}`,
      'Content-Type': 'application/json',
      Accept: 'application/json',
      ...options.headers,
    };
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#customFetch = options.fetch !== undefined;
    // Our own timeout (on the injected clock), retries, redirect rule and error mapping stand in for ky's; its
    // defaults merge into each call's options as the same options given per call would.
    this.#ky = ky.create({
      timeout: false,
      retry: 0,
      throwHttpErrors: false,
      redirect: 'manual',
      // ky spreads a call's header record over these by name as written: with both lower-cased, a call's
      // `content-type` replaces `Content-Type` instead of being sent beside it.
      headers: lowerCased(this.#headers),
    });
    this.#hooks = activeHooks(options.hooks, profile.name);
    this.#traces = tracingChannels();
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
    // At level 'off' (the default without a logger) no level is enabled, so console is never written to then.
    this.#log = levelledLogger(
      options.logger ?? globalThis.console,
      options.logLevel ?? (options.logger ? 'info' : 'off'),
      (line) => this.#scrub(line),
    );
    const rateLimit = options.rateLimit ?? profile.rateLimit;
    this.#limiter = new RateLimiter({
      clock: this.#clock,
      key: `linkgate:${fingerprint(`${apiKey}@${base.origin}`)}`,
      mode: rateLimit,
      // Left undefined, the limiter keeps a store of its own.
      maxWaitMs: numberOption(options, 'maxRateLimitWait', DEFAULT_MAX_WAIT_MS, 0, profile),
      store: options.rateLimitStore,
      onRateLimit: options.onRateLimit,
    });
  }

  /** The rate-limit figures of the last answer that carried them, or null before any. */
  get rateLimit(): RateLimitInfo | null {
    return rateLimitInfo(this.#lastRateLimit);
  }

  /**
   * Sends one call and parses its answer. Validation in `build` runs inside the promise, so it rejects rather than
   * throws. The resources' way in, not an API of its own.
   * @internal
   */
  request<S extends z.core.$ZodType, T>(build: () => RequestSpec<S, T>): APIPromise<T> {
    let result: Promise<WithResponse<T>>;
    try {
      result = this.#run(build());
    } catch (error) {
      // An argument check quotes what it got, which could be the key passed by mistake (e.g. as an id).
      if (error instanceof LinkgateError) error.message = this.#scrub(error.message);
      result = Promise.reject(error);
    }
    return new APIPromise(result);
  }

  /** Names the client and its base URL; never the key. */
  toString(): string {
    return `${this.#profile.name} { baseUrl: '${this.baseUrl}' }`;
  }

  /** `text` (a server message, a log line) with any occurrence of the API key replaced by `***`. */
  #scrub(text: string): string {
    const key = this.#apiKey;
    return key.length >= 4 && text.includes(key) ? text.split(key).join('***') : text;
  }

  /**
   * What `call` may fail with: `value` (an error, or whatever a hook threw) without the key anywhere in it (see
   * withoutKey); when the key cannot be taken out, a LinkgateError saying so in its place.
   */
  #clean(value: unknown, call: PreparedCall<z.core.$ZodType, unknown>): unknown {
    if (this.#apiKey.length < 4) return value;
    try {
      return withoutKey(value, this.#apiKey);
    } catch {
      return new LinkgateError(
        `${call.name} failed with a value holding the API key where it cannot be removed; this error replaces it.`,
      );
    }
  }

  /**
   * The error for a hook that `call`'s signal or timeout cut short: the user's abort, or a timeout as for a server
   * that slow (retried alike when it cut an attempt short); `cause` is the error the call was about to fail with.
   */
  #overrun(call: PreparedCall<z.core.$ZodType, unknown>, { kind }: HookOverrun, cause?: unknown): LinkgateError {
    if (call.signal?.aborted) return userAbort(call);
    return new APIConnectionTimeoutError(
      `${call.name}: ${kind} hook still running after ${call.timeout} ms. Make it settle sooner or raise the timeout option.`,
      { cause },
    );
  }

  /**
   * Runs the `kind` hooks for `call`'s `attempt`, each told `extra()`, and hands each result to `use`: all within the
   * call's signal and a timeout as long as an attempt's, so one that never settles ends as a HookOverrun.
   */
  async #runHooks(
    kind: HookKind,
    call: PreparedCall<z.core.$ZodType, unknown>,
    attempt: number,
    extra: () => object,
    use?: (value: unknown, signals: (AbortSignal | undefined)[]) => unknown,
  ): Promise<void> {
    const hooks = this.#hooks?.[kind] as ((state: never) => unknown)[] | undefined;
    if (!hooks) return;
    const timer = new AbortController();
    const handle = awaitedTimeout(this.#clock, () => timer.abort(), call.timeout);
    const bound = [call.signal, timer.signal];
    try {
      for (const hook of hooks) {
        const value = await this.#hook(kind, hook, call, attempt, extra(), bound);
        await use?.(value, bound);
      }
    } finally {
      handle.cancel();
    }
  }

  /**
   * Runs one hook of `kind` with this client's context for `call`'s `attempt` and `extra`, until one of `signals`
   * aborts at the latest (then a HookOverrun comes out); what it throws comes out as a HookFailure holding it without
   * the key, which fails the call as it is.
   */
  async #hook<S, R>(
    kind: HookKind,
    hook: (state: S) => R,
    call: PreparedCall<z.core.$ZodType, unknown>,
    attempt: number,
    extra: object,
    signals: (AbortSignal | undefined)[],
  ): Promise<Awaited<R>> {
    const state: HookContext = {
      ...callNames(call.request),
      attempt,
      retryCount: attempt - 1,
      rateLimit: this.rateLimit,
      ...extra,
    };
    try {
      return await settleWithin(hook(state as S), signals, kind);
    } catch (thrown) {
      if (thrown instanceof HookOverrun) throw thrown;
      throw new HookFailure(this.#clean(thrown, call));
    }
  }

  /**
   * Runs a call, on the request tracing channel when anyone listens there. The trace gets no `result`: answers may
   * hold keys (users' records), and traces hold none.
   */
  #run<S extends z.core.$ZodType, T>(spec: RequestSpec<S, T>): Promise<WithResponse<T>> {
    const trace = startTrace(this.#traces, this.baseUrl, spec);
    if (!trace) return this.#execute(spec);
    let result: WithResponse<T>;
    return (this.#traces as Traces).request
      .tracePromise(async () => {
        result = await this.#execute(spec, trace);
      }, trace)
      .then(() => result);
  }

  /**
   * One call from its first attempt to its result, in the steps each attempt takes: {@link #sendOnce} →
   * {@link #classify} → {@link #shouldRetry} → {@link #retryDelay} → {@link #waitToRetry}, until an answer is a
   * success (parsed by {@link #parse}) or a failure that is not retried.
   */
  async #execute<S extends z.core.$ZodType, T>(
    spec: RequestSpec<S, T>,
    trace?: RequestTrace,
  ): Promise<WithResponse<T>> {
    const call = this.#prepare(spec, trace);
    let retries = 0;
    let rateLimitAnswers = 0;
    // After a rate-limit answer the wait was announced already; holding the retry for the same reset is not news.
    let announced = false;
    try {
      for (;;) {
        const attempt = await this.#sendOnce(call, !announced);
        // Hooks see the failure as users will: without the key in its headers or body either.
        const failure = attempt.failure && (this.#clean(attempt.failure, call) as Error);
        // Only an answer can be a success: a send's own failure (no answer) is its failure as it stands.
        if (!failure) {
          return { data: this.#parse(spec, attempt.answer as Answer), response: attempt.response as Response };
        }
        // Rate-limit answers are counted apart from retries: the 1st, 2nd, ... of either kind (a count that ends the
        // call is not read again).
        const rateLimited = failure instanceof RateLimitError;
        const nth = rateLimited ? ++rateLimitAnswers : ++retries;
        if (!this.#shouldRetry(call, failure, nth)) {
          if (!attempt.answer) this.#log.error?.(`${call.name} failed: ${failure.message}`);
          throw failure;
        }
        const delay = this.#retryDelay(failure, nth);
        await this.#runHooks('beforeRetry', call, call.attempt + 1, () => ({ error: failure, delay }));
        await this.#waitToRetry(call, failure, delay, nth);
        announced = rateLimited;
      }
    } catch (error) {
      throw await this.#failed(call, error);
    }
  }

  /**
   * What a call fails with: a hook's throw as it is (the key taken out already); any other error with the attempts
   * counted and the key taken out, then as the `beforeError` hooks leave it (within the call's signal and a timeout).
   */
  async #failed(call: PreparedCall<z.core.$ZodType, unknown>, error: unknown): Promise<unknown> {
    if (error instanceof HookFailure) return error.thrown;
    if (error instanceof HookOverrun) error = this.#overrun(call, error);
    if (error instanceof APIError || error instanceof APIConnectionError) error.attempts = call.attempt;
    error = this.#clean(error, call);
    try {
      await this.#runHooks(
        'beforeError',
        call,
        Math.max(1, call.attempt),
        () => ({ error }),
        (value) => {
          if (value instanceof Error) error = this.#clean(value, call);
        },
      );
    } catch (thrown) {
      return thrown instanceof HookOverrun ? this.#overrun(call, thrown, error) : (thrown as HookFailure).thrown;
    }
    return error;
  }

  /** The parts of a call that stay the same across its attempts. */
  #prepare<S extends z.core.$ZodType, T>(spec: RequestSpec<S, T>, trace: RequestTrace | undefined): PreparedCall<S, T> {
    const options = spec.options ?? {};
    return {
      request: spec,
      name: `${spec.method} ${spec.path}`,
      url: this.baseUrl + spec.path + queryString(spec.query),
      headers: options.headers,
      timeout: options.timeout ?? this.timeout,
      maxRetries: options.maxRetries ?? this.maxRetries,
      signal: options.signal,
      attempt: 0,
      trace,
      held: 0,
    };
  }

  /**
   * Step 1, send once: waits for rate-limit budget, then makes one attempt ({@link #attempt}), on the attempt tracing
   * channel when the call is traced.
   */
  async #sendOnce(call: PreparedCall<z.core.$ZodType, unknown>, announce: boolean): Promise<Attempt> {
    const { signal, trace } = call;
    if (signal?.aborted) throw userAbort(call);
    const wait = this.#limiter.acquire(signal, announce);
    if (wait) await this.#hold(call, wait);
    call.attempt++;
    if (!trace) return this.#attempt(call);
    const held = call.held;
    call.held = 0;
    return traceAttempt((this.#traces as Traces).attempt, trace, held, () => this.#attempt(call));
  }

  /** Waits for a rate limit (budget, or a rate-limit answer's reset), counting the ms for the attempt's trace. */
  async #hold(call: PreparedCall<z.core.$ZodType, unknown>, wait: Promise<void>): Promise<void> {
    const started = this.#clock.now();
    await wait;
    call.held += this.#clock.now() - started;
  }

  /**
   * One attempt: sends, reads the answer (bounded), feeds its rate-limit headers back to the limiter and judges it
   * ({@link #classify}). A failure before any answer is returned, not thrown, so the same steps judge it.
   */
  async #attempt(call: PreparedCall<z.core.$ZodType, unknown>): Promise<Attempt> {
    const limiter = this.#limiter;
    const started = this.#clock.now();
    this.#log.debug?.(
      `${call.request.method} ${call.url} sending (${redactHeaders({ ...this.#headers, ...call.headers })})`,
    );
    let response: Response;
    let text: string;
    try {
      [response, text] = await this.#send(call);
    } catch (error) {
      limiter.release();
      if (error instanceof HookFailure) throw error;
      return { failure: error as Error };
    }
    limiter.release();
    const now = this.#clock.now();
    const seen = readRateLimitHeaders(response.headers, now);
    if (seen) this.#lastRateLimit = seen;
    if (seen && this.#clocksAgree(seen, now)) {
      const observed = limiter.observe(seen);
      if (observed) await observed;
    } else if (seen || response.ok) {
      // A window on another clock cannot be planned by: send freely, and fail (not hang) if told to wait. A success
      // that states no limit says the API advertises none: stop holding requests until it does.
      limiter.observeUnlimited();
    }
    this.#log.info?.(`${call.name} ${response.status} in ${now - started} ms`);
    // The afterResponse hooks get copies of the answer (a Response is a ResponseInit too: its status, status text and
    // headers); a Response one returns becomes the answer.
    // One that outlives its timeout fails the attempt as a slow server would, retried alike. Without hooks, nothing
    // is allocated or awaited here.
    if (this.#hooks?.afterResponse) {
      try {
        await this.#runHooks(
          'afterResponse',
          call,
          call.attempt,
          () => ({ response: new Response(text === '' ? null : text, response) }),
          async (value, signals) => {
            if (value instanceof Response) {
              response = value;
              text = await settleWithin(
                readBoundedText(value, this.maxResponseBytes, call.name),
                signals,
                'afterResponse',
              );
            }
          },
        );
      } catch (error) {
        if (error instanceof HookOverrun) return { failure: this.#overrun(call, error) };
        throw error;
      }
    }
    let body: unknown;
    let isJson = false;
    try {
      if (text !== '') {
        body = JSON.parse(text);
        isJson = true;
      }
    } catch {
      // Not JSON: a failure status or an unreadable answer, decided by #classify.
    }
    const answer: Answer = {
      name: call.name,
      status: response.status,
      headers: response.headers,
      body,
      text,
      isJson,
      now,
    };
    const failure = this.#classify(answer);
    if (failure instanceof APIError) failure.rateLimit = rateLimitInfo(seen);
    return { answer, response, failure };
  }

  /**
   * Step 2, classify: the failure an answer is, or null for a success. The API family's rules speak first
   * (see {@link ClientProfile.classify}), then the HTTP status, then whether the body is JSON at all.
   */
  #classify(answer: Answer): APIError | null {
    const failure =
      (answer.isJson && this.#profile.classify(answer)) ||
      (answer.status >= 300 ? errorForStatus(answer) : answer.isJson ? null : unreadableBodyError(answer));
    if (!failure) return null;
    failure.message = this.#scrub(failure.message);
    if (failure instanceof RateLimitError && this.#clockMismatch) failure.message += ` ${this.#clockMismatch}`;
    return failure;
  }

  /**
   * Step 3, should it retry (the `nth` time): a rate-limit answer as the limiter's policy says (never while the
   * clocks differ);
   * a connection failure, timeout, 408 or 5xx while retries are left, except for POST, which creates records and
   * may have been applied already.
   */
  #shouldRetry(call: PreparedCall<z.core.$ZodType, unknown>, failure: Error, nth: number): boolean {
    if (failure instanceof RateLimitError) {
      return this.#clockMismatch === null && this.#limiter.waitsOut(failure, nth);
    }
    if (nth > call.maxRetries || call.request.method === 'POST') return false;
    if (failure instanceof APIError) return failure.status === 408 || failure.status >= 500;
    return failure instanceof APIConnectionError;
  }

  /**
   * Step 4, how long to wait before the `nth` retry: until a rate-limit answer's reset (the limiter's word);
   * otherwise 0.5 s doubling per retry, capped at 8 s, minus up to 25% jitter so clients that failed together do not retry together.
   */
  #retryDelay(failure: Error, nth: number): number {
    if (failure instanceof RateLimitError) return this.#limiter.answerDelay(failure);
    return Math.round(Math.min(8000, 500 * 2 ** (nth - 1)) * (1 - 0.25 * this.#random()));
  }

  /**
   * Step 5, wait: says why and how long, then waits `delay` ms before the `nth` retry; a rate-limit answer's wait is
   * the limiter's (with the budget on, it holds every call of the key).
   */
  async #waitToRetry(call: PreparedCall<z.core.$ZodType, unknown>, failure: Error, delay: number, nth: number) {
    try {
      if (failure instanceof RateLimitError) {
        this.#log.warn?.(`${call.name} rate limited; retrying in ${delay} ms`);
        await this.#hold(call, this.#limiter.waitOut(failure, this.#lastRateLimit?.limit ?? 0, call.signal));
        return;
      }
      const reason = failure instanceof APIError ? `HTTP ${failure.status}` : failure.message;
      this.#log.warn?.(`${call.name} failed (${reason}); retry ${nth} of ${call.maxRetries} in ${delay} ms`);
      await sleep(this.#clock, delay, call.signal);
    } catch (error) {
      if (call.signal?.aborted) throw userAbort(call);
      throw error;
    }
  }

  /**
   * One attempt through ky with our own timeout (on the injected clock) and no ky retries. Redirects are followed
   * here, within the base URL's origin only; the body is read with the `maxResponseBytes` bound. The attempt ends
   * with its signal and timeout whether or not the fetch it was given listens to them.
   */
  async #send(call: PreparedCall<z.core.$ZodType, unknown>): Promise<[response: Response, text: string]> {
    const { signal, timeout } = call;
    const timer = new AbortController();
    // Awaited by the caller, so it may keep the process alive; cancelled below whatever happens.
    const handle = awaitedTimeout(this.#clock, () => timer.abort(), timeout);
    const bounds = [signal, timer.signal];
    const abort = signal ? AbortSignal.any(bounds as AbortSignal[]) : timer.signal;
    const send = this.#fetch;
    // The signal goes to fetch rather than to ky (which would merge it with its own through AbortSignal.any on
    // every call). A custom fetch may drop it (`(request) => fetch(request)`): then it goes to ky too, so the Request
    // it builds carries it (such a fetch still aborts, its connection released), and the fetch and its body are
    // raced against it, an answer that comes after the attempt ended discarded. Every Request ky sends passes here:
    // the origin rule is held here.
    const custom = this.#customFetch;
    const fetch = (input: Input) => {
      // ky always sends a Request it built, or the one a hook returned.
      const request = input as Request;
      this.#checkOrigin(call, request.url);
      const answer = send(request, { signal: abort });
      return custom ? raceSignals(answer, bounds, ended, discard) : answer;
    };
    // The query and the base URL are joined by hand (call.url): ky's searchParams would parse the URL and build the
    // Request a second time per call, and its `prefix` would also prefix a redirect's absolute target.
    let target = call.url;
    let method: string = call.request.method;
    let json = call.request.body;
    const before = this.#hooks?.beforeRequest;
    // What the last beforeRequest hook returned: a Response among it is the answer, and its body the hook's own.
    let returned: unknown;
    // Run by ky on the Request it built, so what the hooks change or return is what is sent: ky sends a Request one
    // returns (later hooks see it), and a Response one returns is the answer (later hooks are skipped).
    const hooks = before && {
      hooks: {
        beforeRequest: before.map((hook) => async ({ request }: { request: Request }) => {
          returned = await this.#hook('beforeRequest', hook, call, call.attempt, { request }, bounds);
          return returned as Request | Response | undefined;
        }),
      },
    };
    try {
      for (let redirects = 0; ; redirects++) {
        const response = await this.#ky(target, {
          method,
          fetch,
          ...(json !== undefined && { json }),
          ...(custom && { signal: abort }),
          ...(call.headers && { headers: lowerCased(call.headers) }),
          ...hooks,
        });
        const next = this.#redirectTarget(call.name, response, target, redirects);
        if (next === null) {
          // A hook's made-up body is the hook's; fetch's own stops with the attempt's signal (a custom fetch's is
          // raced against it).
          const body = readBoundedText(response, this.maxResponseBytes, call.name);
          const text =
            response === returned
              ? settleWithin(body, bounds, 'beforeRequest')
              : custom
                ? raceSignals(body, bounds, () => {
                    discard(response);
                    return ended();
                  })
                : body;
          return [response, await text];
        }
        discard(response);
        // As fetch does: 303, and 301/302 after a POST, become a GET without a body (307 and 308 keep both).
        if (response.status === 303 || (response.status < 303 && method === 'POST')) {
          method = 'GET';
          json = undefined;
        }
        target = next;
      }
    } catch (error) {
      if (call.signal?.aborted) throw userAbort(call);
      // What a custom fetch threw may be anything (a Proxy whose traps throw): asked of it without letting it throw.
      if (isA(error, HookOverrun)) throw this.#overrun(call, error);
      if (timer.signal.aborted) {
        throw new APIConnectionTimeoutError(
          `${call.name} got no answer within ${timeout} ms. Raise the timeout option.`,
        );
      }
      // Our own verdicts (too large, cross-origin redirect) and hooks' throws are not connection failures.
      if (isA(error, LinkgateError) || isA(error, HookFailure)) throw error;
      throw this.#connectionError(call, error);
    } finally {
      handle.cancel();
    }
  }

  /**
   * The APIConnectionError for a fetch that threw `thrown` (ky's NetworkError, or anything a custom fetch threw):
   * built from text only, the key taken out before anything is cut, so no part of the thrown value reaches the user.
   */
  #connectionError(call: PreparedCall<z.core.$ZodType, unknown>, thrown: unknown): APIConnectionError {
    const { reason, detail, inProcess } = fetchFailure(thrown);
    const what = this.#scrub(reason).slice(0, 500);
    const why = detail === undefined ? '' : ` (${this.#scrub(detail).slice(0, 200)})`;
    const where = `${call.request.method} ${call.url}`;
    return new APIConnectionError(
      inProcess
        ? `${where} failed inside this process, not on the network (msw, a custom fetch or a missing runtime feature: linkgate/mock needs Node >= 22): ${what}${why}.`
        : `${where} could not connect: ${what}${why}. Check baseUrl and the network.`,
      { cause: new Error(what + why) },
    );
  }

  /** Refuses a request for another origin than the base URL's (one a beforeRequest hook made): the key stays home. */
  #checkOrigin(call: PreparedCall<z.core.$ZodType, unknown>, url: string): void {
    // Every request passes here: one under the base URL's origin is told by its prefix, without parsing it.
    if (url.startsWith(`${this.#origin}/`)) return;
    const origin = new URL(url).origin;
    if (origin === this.#origin) return;
    throw new CrossOriginRedirectError(
      `${call.name}: a beforeRequest hook returned a Request for another origin, ${origin}; only requests within ${this.#origin} are sent, so the body and headers stay there.`,
      { status: 0, targetOrigin: origin },
    );
  }

  /**
   * Where a redirect answer points, when it is to be followed (same origin); null when the answer is not a redirect
   * (a 3xx without Location is an answer like any other). Throws for another origin, or past {@link MAX_REDIRECTS}.
   */
  #redirectTarget(call: string, response: Response, from: string, redirects: number): string | null {
    const { status } = response;
    // Browsers hide a manual redirect's target (an "opaqueredirect" with status 0).
    const hidden = response.type === 'opaqueredirect';
    const location = hidden ? null : response.headers.get('location');
    if (!hidden && (!REDIRECT_STATUSES.has(status) || location === null)) return null;
    let next: URL | null = null;
    try {
      next = location === null ? null : new URL(location, from);
    } catch {
      // An unparsable Location is treated like a hidden one: not followed.
    }
    const base = this.#origin;
    if (next === null || next.origin !== base) {
      discard(response);
      const to = next === null ? 'a target this runtime does not reveal' : `another origin, ${next.origin}`;
      throw new CrossOriginRedirectError(
        `${call} was redirected (HTTP ${status}) to ${to}; only redirects within ${base} are followed, so the body and headers stay there. If the service moved, change baseUrl.`,
        { status, targetOrigin: next?.origin ?? null },
      );
    }
    if (redirects >= MAX_REDIRECTS) {
      throw new APIConnectionError(
        `${call} was redirected more than ${MAX_REDIRECTS} times within ${base}: a redirect loop. Check baseUrl.`,
      );
    }
    return next.href;
  }

  #parse<S extends z.core.$ZodType, T>(spec: RequestSpec<S, T>, answer: Answer): T {
    const result = (spec.schema as unknown as z.ZodMiniType).safeParse(answer.body);
    if (result.success) return spec.select(result.data as z.output<S>);
    const issues = toIssues(result.error.issues, answer.body);
    throw new ResponseValidationError(
      `${spec.operation}: the answer of ${answer.name} does not match the documented shape: ${describe('', issues.slice(0, 5))}. ` +
        'The service may have changed (error.body holds the answer).',
      answer.body,
      issues,
    );
  }

  /**
   * Whether an answer's window end is plausible on this client's clock. Windows last a minute, so a reset more than an
   * hour away means two clocks (typically a ManualClock given to the mock but not to the client); remembered, logged
   * once, and named in the error of any wait that follows, instead of a wait that never ends.
   */
  #clocksAgree(seen: RateLimitObservation, now: number): boolean {
    const offMs = seen.resetAt - now;
    if (Math.abs(offMs) <= CLOCK_AGREEMENT_MS) {
      this.#clockMismatch = null;
      return true;
    }
    if (this.#clockMismatch === null) {
      const hours = Math.round(Math.abs(offMs) / 3_600_000);
      this.#clockMismatch =
        `Server and client clocks differ by about ${hours} h (X-RateLimit-Reset ${new Date(seen.resetAt).toISOString()}). ` +
        `If the mock has a ManualClock, pass the same clock to the client: new ${this.#profile.name}({ clock }).`;
      this.#log.warn?.(this.#clockMismatch);
    }
    return false;
  }
}

/** `?a=1&b=2` from the defined values of `query`, or '' when there are none. */
function queryString(query: RequestSpec<z.core.$ZodType, unknown>['query']): string {
  let search = '';
  for (const key in query) {
    const value = query[key];
    if (value !== undefined) search += `${search ? '&' : '?'}${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
  }
  return search;
}

/** `headers` with their names lower-cased (the last of two that differ only in case wins). */
function lowerCased(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) out[name.toLowerCase()] = headers[name] as string;
  return out;
}

/** `value instanceof type`, false where asking throws (a Proxy whose getPrototypeOf trap throws). */
// biome-ignore lint/suspicious/noExplicitAny: any class.
const isA = <T>(value: unknown, type: new (...args: any[]) => T): value is T =>
  safely(() => value instanceof type) === true;

/** What a fetch or body read that its attempt's signal or timeout cut short rejects with: judged by the signals. */
const ended = () => new DOMException('The attempt ended', 'AbortError');

/** What `call` fails with once its signal aborted. */
function userAbort(call: PreparedCall<z.core.$ZodType, unknown>): APIUserAbortError {
  return new APIUserAbortError(`${call.request.operation} (${call.name}) was aborted by its signal.`);
}

/** The base URL parsed, after checking it is an absolute http(s) URL. */
function normaliseBaseUrl(value: string | undefined, profile: ClientProfile): URL {
  if (!value) {
    throw new LinkgateError(`${profile.name}: no base URL. Pass { baseUrl } or set ${profile.baseUrlEnv}.`);
  }
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // Not a URL at all: said below, with what was given.
  }
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    // A URL of another scheme is named by its scheme only: the rest may hold credentials.
    throw new LinkgateError(
      `${profile.name}: baseUrl must be an absolute http(s) URL (got ${url ? url.protocol : JSON.stringify(value)}).`,
    );
  }
  return url;
}

/** Option `name` of `options`, or `fallback` when it is not given, after checking it is a number >= `min`. */
function numberOption(
  options: ClientOptions,
  name: 'timeout' | 'maxRetries' | 'maxResponseBytes' | 'maxRateLimitWait',
  fallback: number,
  min: number,
  profile: ClientProfile,
): number {
  const value = options[name] ?? fallback;
  // Number.isFinite is false for anything but a finite number.
  if (!Number.isFinite(value) || value < min) {
    throw new LinkgateError(`${profile.name}: ${name} must be a number >= ${min} (got ${String(value)}).`);
  }
  return value;
}
