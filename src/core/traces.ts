// Each call published on diagnostics_channel tracing channels, where the runtime has them (Node >= 22.3, Bun, Deno):
// `linkgate:request` for the call from start to result, `linkgate:attempt` for each HTTP attempt. The module is asked
// for at run time, never imported, so browsers load nothing; with no subscriber nothing is built or published.
import { HookFailure } from './hooks.js';

/**
 * What subscribers of `linkgate:request` see of one call: the same object at its `start`, `end`, `asyncStart`,
 * `asyncEnd` and `error` events, filled in as the call goes. It never holds the API key, headers or filled-in path.
 */
export interface RequestTrace {
  /** The call, as the SDK names it: `domains.update`. */
  operation: string;
  /** HTTP method. */
  method: string;
  /** The path template below the base URL: `/api/domain/{id}/update`. */
  route: string;
  /** The client's base URL (origin and any path prefix). */
  baseUrl: string;
  /** Attempts sent so far; at `asyncEnd`, in all (0 when the call failed before sending, e.g. refused for budget). */
  attempts: number;
  /** The HTTP status of the latest attempt's answer; undefined before any, or when that attempt got none. */
  status?: number;
  /** The ms the call was held for rate limits: waiting for budget, and for rate-limit answers' resets. */
  rateLimitWait: number;
  /** Set by the channel when the call resolves: undefined, as answers may hold keys (users' records) and traces never do. */
  result?: unknown;
  /** Set by the channel when the call fails: the error it rejects with. */
  error?: unknown;
}

/**
 * What subscribers of `linkgate:attempt` see of one HTTP attempt, from sending to its judged answer (the waits before
 * it are not inside it; `rateLimitWait` says how long it was held). `error` is set, and the `error` event published,
 * when the attempt failed: no answer, or an answer judged a failure (even one the client then retries).
 */
export interface AttemptTrace {
  /** The call it belongs to: the object `linkgate:request` subscribers get. */
  call: RequestTrace;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  attempt: number;
  /** The ms this attempt was held for rate limits just before it was sent. */
  rateLimitWait: number;
  /** The HTTP status of its answer; undefined when none came. */
  status?: number;
  /** Set by the channel: undefined (the attempt's answer is the call's business). */
  result?: unknown;
  /** Why the attempt failed: the classified error (an APIError, RateLimitError, APIConnectionError...). */
  error?: unknown;
}

/** The five channels of a TracingChannel. */
const EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;

/** The part of Node's TracingChannel linkgate uses. */
interface TracingChannel<C extends object>
  extends Record<(typeof EVENTS)[number], { readonly hasSubscribers: boolean }> {
  /** Missing on Bun's TracingChannel, whose five channels have their own flags only. */
  readonly hasSubscribers?: boolean;
  tracePromise<T>(fn: () => Promise<T>, context: C): Promise<T>;
}

/** Whether anyone listens on `channel`: its own flag, or (Bun) any of its five channels'. */
const listened = (channel: TracingChannel<object>): boolean =>
  channel.hasSubscribers ?? EVENTS.some((event) => channel[event].hasSubscribers);

/** The two channels, once the runtime has handed them out. */
export interface Traces {
  /** `linkgate:request` */
  request: TracingChannel<RequestTrace>;
  /** `linkgate:attempt` */
  attempt: TracingChannel<AttemptTrace>;
}

let channels: Traces | null | undefined;

/** The channels, or null where the runtime has no `diagnostics_channel` to hand out without an import (browsers). */
export function tracingChannels(): Traces | null {
  if (channels === undefined) channels = channelsOf((globalThis as { process?: Runtime }).process);
  return channels;
}

/** What linkgate asks of a runtime's `process`, when there is one. */
interface Runtime {
  getBuiltinModule?: (id: string) => unknown;
}

/** The channels `runtime` hands out, or null when it hands out none (no `process`, Node < 22.3). */
export function channelsOf(runtime: Runtime | undefined): Traces | null {
  const dc = runtime?.getBuiltinModule?.('node:diagnostics_channel') as
    | { tracingChannel?: <C extends object>(name: string) => TracingChannel<C> }
    | undefined;
  return dc?.tracingChannel
    ? { request: dc.tracingChannel('linkgate:request'), attempt: dc.tracingChannel('linkgate:attempt') }
    : null;
}

/** What a call is, as traces and hooks name it: its operation, method and route (the path template). */
export const callNames = (spec: { operation: string; method: string; path: string; route?: string | undefined }) => ({
  operation: spec.operation,
  method: spec.method,
  route: spec.route ?? spec.path,
});

/** The trace of a call about to start, or undefined when nobody listens on either channel (then nothing is built). */
export function startTrace(
  traces: Traces | null,
  baseUrl: string,
  spec: { operation: string; method: string; path: string; route?: string | undefined },
): RequestTrace | undefined {
  if (!traces || !(listened(traces.request) || listened(traces.attempt))) return undefined;
  return {
    ...callNames(spec),
    baseUrl,
    attempts: 0,
    rateLimitWait: 0,
  };
}

/**
 * Runs one attempt (`send`) on the attempt channel and returns its outcome. An outcome judged a failure is published as
 * the attempt's error but returned, not thrown: whether to retry is the caller's decision. The call's trace follows:
 * its attempt count, latest status and rate-limit wait.
 */
export async function traceAttempt<A extends { failure: Error | null; response?: Response | undefined }>(
  channel: TracingChannel<AttemptTrace>,
  call: RequestTrace,
  rateLimitWait: number,
  send: () => Promise<A>,
): Promise<A> {
  const context: AttemptTrace = { call, attempt: ++call.attempts, rateLimitWait };
  call.rateLimitWait += rateLimitWait;
  let outcome: A | undefined;
  let thrown: unknown;
  await channel
    .tracePromise(async () => {
      try {
        outcome = await send();
      } catch (error) {
        thrown = error;
        // Subscribers see what the call will fail with, not the request path's wrapper around a hook's throw.
        throw error instanceof HookFailure ? error.thrown : error;
      }
      call.status = context.status = outcome.response?.status;
      if (outcome.failure) throw outcome.failure;
    }, context)
    .catch(() => {
      if (!outcome) throw thrown;
    });
  return outcome as A;
}
