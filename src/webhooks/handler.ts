import type { EventMap, EventName } from '../schemas/events.js';
import { type Clock, systemClock } from '../shared/clock.js';
import { EVENT_NAMES } from '../shared/event-names.js';
import { DEFAULT_DEDUPE_CLAIM_TTL_MS, DeliveryClaims } from './delivery-claims.js';
import type { UnknownWebhookEvent } from './parse.js';
import {
  type CompiledVerifier,
  compile,
  type UnrecordedDelivery,
  verifyRequestUnrecorded,
  type WebhookVerifierOptions,
} from './verify.js';
import { WebhookVerificationError } from './webhook-errors.js';

/** What a handler gets besides the event. */
export interface DeliveryContext {
  /** The `X-Service-Delivery-ID` header (the same across the gateway's retries of one event). */
  deliveryId: string | undefined;
  /** The request as received (its body has been read). */
  request: Request;
}

/** A handler for one event; it may be async. Throwing (or rejecting) answers 500, so the gateway retries. */
export type EventHandler<E> = (event: E, context: DeliveryContext) => unknown;

/** Handlers keyed by event name, each typed with its event's payload. */
export type WebhookHandlers = { [E in EventName]?: EventHandler<EventMap[E] & { known: true }> };

/** Where a handler failure happened, for {@link WebhookHandlerOptions.onError}. */
export interface HandlerFailureContext {
  /** The event being handled, when verification got that far. */
  event?: EventName | string;
  /** The delivery id, when present. */
  deliveryId?: string;
  /** True when the gateway was already answered 200 (the handler outlived `ackTimeoutMs`), so it will not retry. */
  acknowledged: boolean;
  /**
   * True for a mistake in how the receiver is mounted or configured (e.g. `raw_body_required`: a body parser read the
   * body first). Every delivery fails the same way until it is fixed, so it is reported once per cause (error code)
   * per handler, not once per delivery; each delivery is still answered 500 and passed to `onRejected`.
   */
  setup?: boolean;
  /**
   * Set when the dedupe store failed, not the handler: which of its steps (`claim`: before the handler ran, so it did
   * not; `markDone`: after it succeeded; `release`: after it failed).
   */
  dedupeStep?: 'claim' | 'markDone' | 'release';
}

/** Options of {@link createWebhookHandler}: the verification options plus the routing. */
export interface WebhookHandlerOptions extends WebhookVerifierOptions {
  /** Handlers per event name; events without one are acknowledged and ignored. */
  on?: WebhookHandlers;
  /** Handler for events the catalog does not list; without it they are acknowledged and ignored. */
  onUnknown?: EventHandler<UnknownWebhookEvent>;
  /**
   * Told about every handler failure, including those after the delivery was already acknowledged, and about set-up
   * mistakes that make the receiver answer 500 (`context.setup`, once per cause per handler).
   * @default logs to console.error
   */
  onError?: (error: unknown, context: HandlerFailureContext) => void;
  /** Told about every refused delivery (bad secret, stale timestamp, bad payload...), e.g. to log or count them. */
  onRejected?: (error: WebhookVerificationError, request: Request) => void;
  /**
   * How long to wait for a handler before acknowledging anyway (the gateway gives up after 8 s); the handler keeps
   * running and a later failure goes to `onError`. `false` waits for the handler however long it takes.
   * @default 7000
   */
  ackTimeoutMs?: number | false;
  /**
   * Where time and timers come from (timestamp window and ack timeout).
   * @default systemClock
   */
  clock?: Clock;
  /**
   * With a `dedupe` store that has `claim` and `markDone` (the in-memory and Redis ones): how long a delivery is
   * claimed while its handler runs, in ms, before the done mark (`dedupeTtlMs`) replaces the claim. A copy arriving
   * meanwhile is answered 503 `in_progress`, so the gateway tries again later; if this receiver dies mid-handler, the
   * claim expires and a later retry is handled. Must be longer than `ackTimeoutMs`.
   * @default 30_000
   */
  dedupeClaimTtlMs?: number;
}

/** A fetch-style webhook endpoint: Next.js route handlers, Hono, Deno, Bun and Workers take it as is. */
export type WebhookRequestHandler = ((request: Request) => Promise<Response>) & {
  /** The largest body accepted, in bytes (read by {@link toNodeHandler}). */
  readonly maxBodyBytes: number;
  /** How long a body may take to arrive, in ms (read by {@link toNodeHandler}). */
  readonly bodyTimeoutMs: number;
};

const JSON_HEADERS = { 'content-type': 'application/json' };
const ACK_BODY = '{"status":"success"}';

/**
 * Builds a webhook endpoint that verifies each delivery, routes it to the handler for its event and answers the
 * gateway: 200 `{"status":"success"}` once the handler resolves (or after `ackTimeoutMs`), 401/400/413 with
 * `{ status: 'error', code, message }` when verification fails (the body is read only after the secret matched),
 * 408 when the body does not arrive within `bodyTimeoutMs`, 500 when the handler throws (so the gateway retries),
 * 500 `raw_body_required` when the receiver is mounted wrongly (told to `onError` once), and, with `dedupe`, 200
 * without calling the handler for a duplicate, 503 `in_progress` while another copy is being handled, and 500 when
 * the dedupe store fails (e.g. Redis is down), so the gateway retries later: never dropped, never handled twice.
 *
 * @example
 * // app/api/webhooks/route.ts (Next.js)
 * export const POST = createWebhookHandler({
 *   secret: process.env.WEBHOOK_SECRET!,
 *   dedupe: new MemoryDedupeStore(),
 *   on: {
 *     'message.received': async (event) => saveMessage(event.data),
 *     'device.status': (event) => console.log(event.device_id, event.data.status),
 *   },
 * });
 */
export function createWebhookHandler(options: WebhookHandlerOptions): WebhookRequestHandler {
  const checked = compile(options);
  const on = options.on ?? {};
  checkHandlers(on, options);
  const ackTimeoutMs = options.ackTimeoutMs ?? 7000;
  if (ackTimeoutMs !== false && !(typeof ackTimeoutMs === 'number' && ackTimeoutMs >= 0)) {
    throw new TypeError(
      'options.ackTimeoutMs must be a number of milliseconds >= 0, or false to wait for the handler.',
    );
  }
  const clock = options.clock ?? systemClock;
  const claims = deliveryClaims(checked, options.dedupeClaimTtlMs, ackTimeoutMs);
  const onError = options.onError ?? defaultOnError;
  const report = (error: unknown, context: HandlerFailureContext) => {
    try {
      onError(error, context);
    } catch {
      // A failing reporter must not turn an answered delivery into a crash.
    }
  };
  // Per handler: a set-up mistake fails every delivery alike, and one report says all there is to say.
  const reportedSetup = new Set<string>();
  const reportSetup = (error: WebhookVerificationError) => {
    if (reportedSetup.has(error.code)) return;
    reportedSetup.add(error.code);
    report(error, { acknowledged: false, setup: true });
  };

  const handle = async (request: Request): Promise<Response> => {
    if (request.method !== 'POST') {
      return answer(405, {
        status: 'error',
        code: 'method_not_allowed',
        message: `The gateway delivers webhooks with POST; this request used ${request.method}.`,
      });
    }
    let delivery: UnrecordedDelivery;
    try {
      delivery = await verifyRequestUnrecorded(checked, request);
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        try {
          options.onRejected?.(error, request);
        } catch {
          // Reporting is best effort; the answer still goes out.
        }
        // A 5xx refusal is the receiver's own fault (how it is mounted), which only its team can fix.
        if (error.status >= 500) reportSetup(error);
        return answer(error.status, error.toJSON());
      }
      // E.g. a dedupeKey function that throws: 500 lets the gateway retry later.
      report(error, { acknowledged: false });
      return internalError();
    }
    const { event, deliveryId } = delivery;
    const fn = (event.known ? on[event.event] : options.onUnknown) as EventHandler<typeof event> | undefined;
    // An event nobody handles is acknowledged without asking the dedupe store.
    if (!fn) return acknowledged();

    const context: DeliveryContext = { deliveryId, request };
    const failure: HandlerFailureContext = { event: event.event, acknowledged: false };
    if (deliveryId !== undefined) failure.deliveryId = deliveryId;
    const key = claims ? delivery.dedupeKey : undefined;
    if (claims && key !== undefined) {
      let found: Awaited<ReturnType<DeliveryClaims['claim']>>;
      try {
        // Claimed before handling, so a copy that arrives while the handler runs is not handled at the same time.
        found = await claims.claim(key);
      } catch (error) {
        // The dedupe store is down or slow: 500 lets the gateway retry later, when it may be back.
        report(error, { ...failure, dedupeStep: 'claim' });
        return internalError();
      }
      if (found === 'done') return acknowledged();
      if (found === 'in_progress') return answer(503, IN_PROGRESS.toJSON());
    }
    const outcome = await runWithAckTimeout(
      () => fn(event, context),
      clock,
      ackTimeoutMs,
      (lateError) => report(lateError, { ...failure, acknowledged: true }),
    );
    if (outcome.status === 'failed') {
      try {
        if (claims && key !== undefined) await claims.release(key);
      } catch (releaseError) {
        // The claim then expires after dedupeClaimTtlMs, and a retry after that is handled.
        report(releaseError, { ...failure, dedupeStep: 'release' });
      }
      report(outcome.error, failure);
      return answer(500, {
        status: 'error',
        code: 'handler_error',
        message: 'The webhook handler failed; answering 500 so the gateway retries.',
      });
    }
    if (claims && key !== undefined) {
      try {
        await claims.done(key);
      } catch (doneError) {
        // Handled all the same, so 200; only a copy arriving after the claim expires could be handled again.
        report(doneError, { ...failure, acknowledged: true, dedupeStep: 'markDone' });
      }
    }
    return acknowledged();
  };
  return Object.assign(handle, { maxBodyBytes: checked.maxBodyBytes, bodyTimeoutMs: checked.body.timeoutMs });
}

const IN_PROGRESS = new WebhookVerificationError(
  'in_progress',
  'Another copy of this delivery is being handled; answering 503 so the gateway retries it later.',
);

/** 200 `{"status":"success"}`: handled, or nothing to handle (a duplicate, an event without a handler). */
function acknowledged(): Response {
  return new Response(ACK_BODY, { status: 200, headers: JSON_HEADERS });
}

function internalError(): Response {
  return answer(500, {
    status: 'error',
    code: 'internal_error',
    message: 'The receiver failed before handling the delivery; answering 500 so the gateway retries.',
  });
}

/** The handler's dedupe steps, or undefined without `dedupe`; checks `dedupeClaimTtlMs` against the ack timeout. */
function deliveryClaims(
  checked: CompiledVerifier,
  claimTtlMs: number | undefined,
  ackTimeoutMs: number | false,
): DeliveryClaims | undefined {
  const ttl = claimTtlMs ?? DEFAULT_DEDUPE_CLAIM_TTL_MS;
  if (!(typeof ttl === 'number' && Number.isFinite(ttl) && ttl > (ackTimeoutMs || 0))) {
    throw new TypeError(
      `options.dedupeClaimTtlMs must be a number of ms above ackTimeoutMs (a claim expiring mid-handler lets a copy run too); got ${String(claimTtlMs)}.`,
    );
  }
  return checked.dedupe ? new DeliveryClaims(checked.dedupe, checked.dedupeTtlMs, ttl) : undefined;
}

type Outcome = { status: 'done' } | { status: 'timed_out' } | { status: 'failed'; error: unknown };

/** Runs the handler; settles at its end or at the ack timeout, whichever is first. Later failures go to `onLate`. */
function runWithAckTimeout(
  run: () => unknown,
  clock: Clock,
  ackTimeoutMs: number | false,
  onLate: (error: unknown) => void,
): Promise<Outcome> {
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    const timer =
      ackTimeoutMs === false
        ? undefined
        : clock.setTimeout(() => {
            settled = true;
            resolve({ status: 'timed_out' });
          }, ackTimeoutMs);
    // A synchronous throw becomes a rejection, so both kinds of failure take the same path.
    Promise.resolve()
      .then(run)
      .then(
        () => {
          timer?.cancel();
          if (!settled) resolve({ status: 'done' });
        },
        (error: unknown) => {
          timer?.cancel();
          if (settled) onLate(error);
          else resolve({ status: 'failed', error });
        },
      );
  });
}

function checkHandlers(on: WebhookHandlers, options: WebhookHandlerOptions): void {
  if (typeof on !== 'object' || on === null)
    throw new TypeError('options.on must be an object of event name to handler.');
  for (const [name, fn] of Object.entries(on)) {
    if (!(EVENT_NAMES as readonly string[]).includes(name)) {
      throw new TypeError(
        `options.on[${JSON.stringify(name)}] is not an event in the catalog; expected one of ${EVENT_NAMES.join(', ')} (use onUnknown for others).`,
      );
    }
    if (typeof fn !== 'function') throw new TypeError(`options.on[${JSON.stringify(name)}] must be a function.`);
  }
  if (options.onUnknown !== undefined && typeof options.onUnknown !== 'function') {
    throw new TypeError('options.onUnknown must be a function.');
  }
}

function answer(status: number, body: object): Response {
  return new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });
}

function defaultOnError(error: unknown, context: HandlerFailureContext): void {
  if (context.setup && error instanceof WebhookVerificationError) {
    // The message alone: it says what to change, and a stack trace would bury it.
    console.error(
      `linkgate/webhooks: the webhook receiver is set up wrongly and answers 500 to every delivery until this is fixed (${error.code}): ${error.message} (Reported once per handler; pass onError to handle this.)`,
    );
    return;
  }
  if (context.dedupeStep) {
    const what = DEDUPE_FAILURES[context.dedupeStep].replace('%', context.event ?? 'webhook');
    console.error(
      `linkgate/webhooks: the dedupe store (options.dedupe) could not ${what}; pass onError to handle this.`,
      error,
    );
    return;
  }
  console.error(
    `linkgate/webhooks: the ${context.event ?? 'webhook'} handler failed${context.acknowledged ? ' after the delivery was acknowledged (the gateway will not retry)' : ''}; pass onError to handle this.`,
    error,
  );
}

/** What the default onError says the dedupe store (options.dedupe), not the handler, could not do at each step. */
const DEDUPE_FAILURES: Record<NonNullable<HandlerFailureContext['dedupeStep']>, string> = {
  claim: 'claim the % delivery, so its handler did not run (answered 500)',
  markDone: 'mark the % delivery done after its handler succeeded (answered 200)',
  release: 'release its claim on the % delivery after its handler failed',
};
