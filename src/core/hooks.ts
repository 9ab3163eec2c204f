// The `hooks` option: ky's hook names and shapes (beforeRequest, afterResponse, beforeRetry, beforeError), each told
// linkgate's view of the call. The request path in api-client.ts decides when each runs; this file says what they get.
import { LinkgateError } from './errors.js';
import { raceSignals } from './race-signals.js';
import type { MaybePromise } from './rate-limit-info.js';
import type { RateLimitInfo } from './rate-limiter.js';

/** What every hook is told about the call it runs for. */
export interface HookContext {
  /** The call, as the SDK names it: `domains.update`, `messages.send`. */
  operation: string;
  /** HTTP method, e.g. `PUT`. */
  method: string;
  /** The path template below the base URL, e.g. `/api/domain/{id}/update`: ids and query are not filled in. */
  route: string;
  /** Which attempt of the call this is about: 1 for the first, 2 for the first retry, and so on. */
  attempt: number;
  /** The retries made before this attempt (`attempt - 1`), as ky counts them. */
  retryCount: number;
  /**
   * The client's rate-limit figures from the latest answer that stated them (in `afterResponse`, this answer's own
   * when it carries any), as `client.rateLimit` gives them; null before any answer stated a limit.
   */
  rateLimit: RateLimitInfo | null;
}

/** What a {@link BeforeRequestHook} gets. */
export interface BeforeRequestState extends HookContext {
  /** The request about to be sent: set headers on `request.headers`, or return a new Request. */
  request: Request;
}

/**
 * Runs before every request the call sends (each attempt, and each redirect followed within the base URL's origin).
 * Change `request.headers` in place, return a `Request` to send that instead (later hooks see it), or return a
 * `Response` to answer without sending (later hooks are skipped; the answer is judged like any other). A Request for
 * another origin than the base URL's is refused with CrossOriginRedirectError (`status: 0`), nothing sent. Runs within
 * the attempt's `timeout`.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: as ky's, so `({ request }) => request.headers.set(...)` fits.
export type BeforeRequestHook = (state: BeforeRequestState) => MaybePromise<Request | Response | void>;

/** What an {@link AfterResponseHook} gets. */
export interface AfterResponseState extends HookContext {
  /** The answer: a copy with the server's status, headers and body, so a hook may read it. */
  response: Response;
}

/**
 * Runs for every answer, after its body was read (within `maxResponseBytes`) and its rate-limit headers counted,
 * before it is judged. Return a `Response` to have that judged instead (its body is read with the same bound; its
 * rate-limit headers are not counted, so the budget follows what the server said).
 */
// biome-ignore lint/suspicious/noConfusingVoidType: as ky's, so a hook that only looks returns nothing.
export type AfterResponseHook = (state: AfterResponseState) => MaybePromise<Response | void>;

/** What a {@link BeforeRetryHook} gets. */
export interface BeforeRetryState extends HookContext {
  /** Why the previous attempt failed: an APIError (5xx, 408, a RateLimitError) or an APIConnectionError. */
  error: Error;
  /** The ms the client waits before this retry: the back-off, or until a rate-limit answer's reset. */
  delay: number;
}

/**
 * Runs when a failed attempt will be retried, before the wait (`attempt` is the retry's number, `delay` the wait), so
 * a log line appears as the wait begins. Throw to stop retrying: the call fails with what you threw.
 */
export type BeforeRetryHook = (state: BeforeRetryState) => MaybePromise<void>;

/** What a {@link BeforeErrorHook} gets. */
export interface BeforeErrorState extends HookContext {
  /** The error the call is about to fail with (the key scrubbed from its message, as always). */
  error: Error;
}

/**
 * Runs once when a call fails for good, with the error it is about to reject with; not for errors thrown by hooks,
 * nor for arguments refused before anything was sent. Return an Error to have the call fail with that instead.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a hook that only reports the error returns nothing.
export type BeforeErrorHook = (state: BeforeErrorState) => MaybePromise<Error | void>;

/**
 * Functions called along each call's way, in the order given, with ky's names and shapes plus linkgate's context.
 * A hook that throws fails the call with what it threw (the API key taken out of it, cause chain and properties
 * included, or a LinkgateError in its place where that cannot be done); the call is not retried then. Hooks run
 * within the call's `signal` and `timeout`: one still running when either ends fails the call with
 * APIUserAbortError or an APIConnectionTimeoutError naming the hook. `beforeRequest` counts towards its attempt's
 * timeout; the `afterResponse`, `beforeRetry` and `beforeError` hooks of one step get a timeout as long again.
 *
 * @example
 * const client = new Linkgate({
 *   hooks: {
 *     beforeRequest: [({ request }) => request.headers.set('X-Request-Id', crypto.randomUUID())],
 *     beforeRetry: [({ operation, attempt, delay, error }) => console.warn(`${operation}: attempt ${attempt} in ${delay} ms after ${error.message}`)],
 *   },
 * });
 */
export interface Hooks {
  /** Before every request sent. @default [] */
  beforeRequest?: BeforeRequestHook[];
  /** After every answer, before it is judged. @default [] */
  afterResponse?: AfterResponseHook[];
  /** Before the wait of every retry. @default [] */
  beforeRetry?: BeforeRetryHook[];
  /** Before a call fails for good. @default [] */
  beforeError?: BeforeErrorHook[];
}

/** A hook's own throw on its way out of the request path: it fails the call as it is, judged by nothing else. */
export class HookFailure {
  // Assigned in the constructor rather than a parameter property, which would also emit a class field in every app.
  declare readonly thrown: unknown;
  constructor(thrown: unknown) {
    this.thrown = thrown;
  }
}

/** The names of the hook lists. */
export type HookKind = keyof Hooks;

/** A hook still running when its call's signal or timeout ended: the call fails as if the server were that slow. */
export class HookOverrun {
  // Assigned in the constructor, as HookFailure's.
  declare readonly kind: HookKind;
  constructor(kind: HookKind) {
    this.kind = kind;
  }
}

/**
 * What `work` (a hook's result) settles with, unless one of `signals` aborts first: then a {@link HookOverrun} of
 * `kind`, so a hook that never settles cannot hold its call past the call's signal and timeout.
 */
export function settleWithin<T>(work: T, signals: (AbortSignal | undefined)[], kind: HookKind): Promise<Awaited<T>> {
  return raceSignals(work, signals, () => new HookOverrun(kind));
}

/**
 * The hooks that have functions, copied (adding to the caller's arrays later changes nothing), or undefined when none
 * do, so the request path checks one field. Throws a LinkgateError naming a list that is not an array of functions.
 */
export function activeHooks(hooks: Hooks | undefined, client: string): Hooks | undefined {
  let active: Hooks | undefined;
  for (const name of ['beforeRequest', 'afterResponse', 'beforeRetry', 'beforeError'] as const) {
    const list: unknown = hooks?.[name];
    if (list === undefined) continue;
    if (!Array.isArray(list) || !list.every((hook) => typeof hook === 'function')) {
      throw new LinkgateError(`${client}: hooks.${name} must be an array of functions, e.g. [(state) => {}].`);
    }
    if (list.length) active = { ...active, [name]: [...list] };
  }
  return active;
}
