import type { EventName } from '../../src/schemas/events.js';
import { type Clock, systemClock, type Timer } from '../../src/shared/clock.js';
import { deliveryHeaders } from '../../src/webhooks/delivery-headers.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';
import { cryptoRandom, randomHex } from '../shared/random-text.js';
import {
  type Admission,
  CircuitBreaker,
  type CircuitOutcome,
  type CircuitSnapshot,
  type CircuitTransition,
} from './circuit-breaker.js';
import { type DeadLetter, DeadLetterQueue } from './dead-letter-queue.js';
import { ACK_TIMEOUT_MS, type AttemptRecord, classify, type ExchangeResult, exchange } from './delivery-attempt.js';
import { decideDelivery } from './delivery-decision.js';
import { createDeliveryIdFactory } from './delivery-id.js';
import { FaultInjector, type Faults, STALE_TIMESTAMP_SECONDS } from './fault-injector.js';
import { type Flight, graceLeft, type InFlightAttempt, viewFlight } from './in-flight-attempt.js';
import { LifecycleEmitter, type Unsubscribe } from './lifecycle-emitter.js';
import { redactSecret } from './redact-secret.js';
import { RetrySchedule } from './retry-schedule.js';
import type { WebhookEndpoint } from './webhook-endpoint.js';
import type { WebhookRouting } from './webhook-routing.js';

/** An event ready to leave the gateway: who it belongs to and its envelope. */
export interface OutboundEvent {
  tenant: string;
  deviceId: string;
  event: EventName;
  /** The full envelope `{ event, device_id, timestamp, data }`, serialised as the request body. */
  payload: Record<string, unknown>;
}

/** An event that was not delivered at all, and why. */
export interface DroppedEvent {
  tenant: string;
  deviceId: string;
  event: string;
  /** `group`/`story`/`channel`: not one-to-one (spec, Delivery rules 3); `no_endpoint`; `not_selected`. */
  reason: 'group' | 'story' | 'channel' | 'no_endpoint' | 'not_selected';
  at: number;
}

/** What the delivery engine did with an event handed to it (the simulators answer with it). */
export type PublishResult =
  | { queued: true; deliveryId: string; url: string }
  | { queued: false; dropped: DroppedEvent };

/** Lifecycle events, for `gateway.on(name, listener)`. */
export interface GatewayLifecycle extends Record<string, unknown> {
  /** Every attempt, including circuit drops, once it has ended. */
  attempt: AttemptRecord;
  /** An event was acknowledged with HTTP 200. */
  delivered: { deliveryId: string; url: string; attempt: number };
  /** An event failed its 6th attempt (the first + 5 retries). */
  exhausted: { deliveryId: string; tenant: string; url: string; attempts: number };
  /** An event entered the dead-letter queue. */
  'dead-lettered': DeadLetter;
  /** The oldest dead letter was pushed out of a full queue (200 per tenant). */
  evicted: DeadLetter;
  /** A circuit changed state. */
  circuit: CircuitTransition;
  /** An event was not delivered at all (group/story/channel, no endpoint, not selected). */
  dropped: DroppedEvent;
  /** An event was handed to the engine, before routing: pairing frames, receipts, statuses, messages (the inspector's feed). */
  published: OutboundEvent;
  /** The gateway was reset (`POST /__mock/reset`, `reset()`): what a listener kept of earlier events is stale. */
  reset: Record<string, never>;
}

/** Options of the delivery engine, given through the gateway's options. */
export interface GatewayEngineOptions {
  /** Where time comes from; a ManualClock in tests. @default systemClock */
  clock?: Clock;
  /** The HTTP client used to call receivers. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Seedable randomness for delivery ids, jitter and generated secrets. @default cryptographic (`crypto.getRandomValues`) */
  random?: () => number;
  /** Upper bound of the jitter added to each retry wait, in ms. @default 1000 with the system clock, 0 otherwise */
  jitterMs?: number;
  /** Attempts in flight at once, across all endpoints. @default 16 */
  concurrency?: number;
  /** Receiver acknowledgement deadline in ms. @default 8000 */
  timeoutMs?: number;
  /** Attempt records kept for inspection (oldest dropped first). @default 10000 */
  maxRecordedAttempts?: number;
  /** Dead-letter items per tenant. @default 200 */
  deadLetterCapacity?: number;
  /**
   * Where `X-Service-Timestamp` comes from. The real time by default, so a receiver with default settings accepts
   * deliveries however far a test moves a manual clock (the payload's `timestamp` keeps the mock's time). Pass the
   * mock's ManualClock to stamp simulated time, e.g. for a receiver in the same process that checks against it.
   * @default systemClock
   */
  timestampClock?: Clock;
  /**
   * Real time, in ms, an attempt in flight gets to be answered before `gateway.advance()` moves a manual
   * clock past it (or the control API's drain stops waiting for it). A receiver that answers within it is never
   * timed out by a jump in time; one that hangs is timed out once the clock passes its 8 s deadline.
   * @default 2000
   */
  answerGraceMs?: number;
  /**
   * Send every retry, replay and duplicate copy of an event with a new `X-Service-Delivery-ID`, as some gateway
   * versions do (the `perAttemptDeliveryIds` production variant); the first attempt carries the event's id.
   * @default false
   */
  perAttemptDeliveryIds?: boolean;
}

/** A clock that can be stepped from timer to timer, such as a ManualClock. */
export interface SteppableClock extends Clock {
  /** The time of the earliest waiting callback, or null. */
  nextAt(): number | null;
  /** Moves time forward to `time`, running the callbacks due on the way. */
  advanceTo(time: number): Promise<void>;
}

/** Where the engine's events are: every event published (or replayed) is delivered, dead-lettered or pending. */
export interface GatewayStats {
  /** Events routed to a receiver (not counting drops). */
  published: number;
  /** Dead letters sent again. */
  replayed: number;
  /** Events acknowledged with HTTP 200. */
  delivered: number;
  /** Events that entered the dead-letter queue. */
  deadLettered: number;
  /** Events not delivered at all (group/story/channel, no endpoint, not selected). */
  dropped: number;
  /** Events still on their way: out at a receiver, waiting for a slot, for a retry or the circuit, or for a probe. */
  pending: { inFlight: number; waitingForSlot: number; scheduled: number; waitingForProbe: number };
}

/** An event waiting to go out again: when, and what it waits for. */
export interface ScheduledAttempt {
  deliveryId: string;
  url: string;
  /** The number of the attempt it waits to make. */
  attempt: number;
  /**
   * When it goes (ms since the epoch). For `probe`, the latest time the probe's answer is due: it goes at once if
   * the probe closes the circuit, and when the circuit half-opens again if the probe fails.
   */
  at: number;
  /** `time`: a retry or the end of an open circuit; `probe`: the answer of the circuit's probe. */
  waitingFor: 'time' | 'probe';
}

interface Job {
  deliveryId: string;
  tenant: string;
  deviceId: string;
  event: EventName;
  body: string;
  endpoint: WebhookEndpoint;
  /** The number of the next real attempt (1-based). */
  attempt: number;
  /** Attempts sent so far, replays included: with perAttemptDeliveryIds, every send after the first gets a new id. */
  sends: number;
}

const CIRCUIT_OPEN_BODY = JSON.stringify({ error: 'circuit_open', message: 'The circuit for this endpoint is open.' });

/**
 * The webhook delivery engine: takes events, routes them, sends attempts with the documented headers, retries failures
 * on the 3/6/12/24/48 s schedule, keeps a circuit per receiver URL, and dead-letters what cannot be delivered.
 * Time comes only from the injected clock; every attempt is recorded.
 */
export class GatewayEngine {
  /** The clock every wait and timestamp comes from (the backend's). */
  readonly clock: Clock;
  /** Faults to inject into the next attempts. */
  readonly faults = new FaultInjector();
  /** The dead-letter queue (200 items per tenant). */
  readonly deadLetters: DeadLetterQueue;
  readonly #routing: WebhookRouting;
  readonly #fetch: typeof fetch;
  readonly #random: () => number;
  readonly #retries: RetrySchedule;
  readonly #concurrency: number;
  readonly #timeoutMs: number;
  readonly #maxRecords: number;
  readonly #nextDeliveryId: () => string;
  readonly #timestampClock: Clock;
  readonly #answerGraceMs: number;
  readonly #perAttemptDeliveryIds: boolean;
  readonly #emitter = new LifecycleEmitter<GatewayLifecycle>();
  readonly #circuits = new Map<string, CircuitBreaker<Job>>();
  readonly #scheduled = new Map<Job, { at: number; timer: Timer }>();
  readonly #waiting: Job[] = [];
  readonly #runs = new Map<Promise<unknown>, Job>();
  readonly #flights = new Map<Job, Flight>();
  readonly #tracked = new Set<Promise<unknown>>();
  #running = 0;
  #records: AttemptRecord[] = [];
  #seq = 0;
  /** Counts resets: an attempt that comes back into a later generation belongs to a state that was replaced. */
  #generation = 0;
  #dropped: DroppedEvent[] = [];
  #counts = { published: 0, replayed: 0, delivered: 0, deadLettered: 0, dropped: 0 };

  constructor(routing: WebhookRouting, options: GatewayEngineOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.#routing = routing;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#random = options.random ?? cryptoRandom;
    const jitterMs = options.jitterMs ?? (this.clock === systemClock ? 1_000 : 0);
    this.#retries = new RetrySchedule({ jitterMs, random: this.#random });
    this.#concurrency = Math.max(1, options.concurrency ?? 16);
    this.#timeoutMs = options.timeoutMs ?? ACK_TIMEOUT_MS;
    this.#maxRecords = options.maxRecordedAttempts ?? 10_000;
    this.deadLetters = new DeadLetterQueue(options.deadLetterCapacity);
    this.#nextDeliveryId = createDeliveryIdFactory(this.clock, this.#random);
    this.#timestampClock = options.timestampClock ?? systemClock;
    this.#answerGraceMs = Math.max(0, options.answerGraceMs ?? 2_000);
    this.#perAttemptDeliveryIds = options.perAttemptDeliveryIds ?? false;
  }

  /** Listens to a lifecycle event; returns a function that stops listening. */
  on<K extends keyof GatewayLifecycle>(event: K, listener: (payload: GatewayLifecycle[K]) => void): Unsubscribe {
    return this.#emitter.on(event, listener);
  }

  /** Routes an event and, when it has a receiver, sends its first attempt right away. */
  publish(event: OutboundEvent): PublishResult {
    this.#emitter.emit('published', event);
    const route = this.#routing.route(event.tenant, event.deviceId, event.event);
    if (!route.endpoint) return { queued: false, dropped: this.drop(event, route.reason) };
    const job: Job = {
      deliveryId: this.#nextDeliveryId(),
      tenant: event.tenant,
      deviceId: event.deviceId,
      event: event.event,
      body: JSON.stringify(event.payload),
      endpoint: route.endpoint,
      attempt: 1,
      sends: 0,
    };
    this.#counts.published++;
    this.#dispatch(job);
    return { queued: true, deliveryId: job.deliveryId, url: route.endpoint.url };
  }

  /** Records an event that is not delivered (and tells `dropped` listeners). */
  drop(
    event: Omit<OutboundEvent, 'payload' | 'event'> & { event: string },
    reason: DroppedEvent['reason'],
  ): DroppedEvent {
    const dropped: DroppedEvent = {
      tenant: event.tenant,
      deviceId: event.deviceId,
      event: event.event,
      reason,
      at: this.clock.now(),
    };
    this.#dropped.push(dropped);
    this.#counts.dropped++;
    if (this.#dropped.length > this.#maxRecords) this.#dropped.shift();
    this.#emitter.emit('dropped', dropped);
    return dropped;
  }

  /** Events that were not delivered at all, oldest first. */
  dropped(): DroppedEvent[] {
    return [...this.#dropped];
  }

  /**
   * Recorded attempts, oldest first, optionally filtered. With `redact`, `X-Service-Secret` shows only its prefix.
   */
  attempts(filter: { deliveryId?: string; url?: string; tenant?: string; redact?: boolean } = {}): AttemptRecord[] {
    const out = this.#records.filter(
      (r) =>
        (filter.deliveryId === undefined || r.deliveryId === filter.deliveryId) &&
        (filter.url === undefined || r.url === filter.url) &&
        (filter.tenant === undefined || r.tenant === filter.tenant),
    );
    return filter.redact ? out.map(redactRecord) : out;
  }

  /** Every known circuit's state, one per receiver URL. */
  circuits(): CircuitSnapshot[] {
    const now = this.clock.now();
    return [...this.#circuits.values()].map((c) => c.snapshot(now));
  }

  /**
   * When each event waiting to go out again is due (ms since the epoch), soonest first: retries, attempts held by an
   * open circuit, and attempts waiting for the answer of a half-open circuit's probe.
   */
  scheduled(): ScheduledAttempt[] {
    const view = (job: Job, at: number, waitingFor: ScheduledAttempt['waitingFor']): ScheduledAttempt => ({
      deliveryId: job.deliveryId,
      url: job.endpoint.url,
      attempt: job.attempt,
      at,
      waitingFor,
    });
    const timed = [...this.#scheduled].map(([job, s]) => view(job, s.at, 'time'));
    const held = [...this.#circuits.values()].flatMap((c) => c.parked().map((p) => view(p.item, p.at, 'probe')));
    return [...timed, ...held].sort((a, b) => a.at - b.at);
  }

  /** Attempts out at a receiver now, oldest first. */
  inFlight(): InFlightAttempt[] {
    return [...this.#flights.values()].map(viewFlight);
  }

  /** Counts that prove no event is lost: published + replayed = delivered + dead-lettered + pending, at any time. */
  stats(): GatewayStats {
    return {
      ...this.#counts,
      pending: {
        inFlight: this.#runs.size,
        waitingForSlot: this.#waiting.length,
        scheduled: this.#scheduled.size,
        waitingForProbe: [...this.#circuits.values()].reduce((n, c) => n + c.parked().length, 0),
      },
    };
  }

  /**
   * Sends a dead-lettered event again (same delivery id, fresh retries) to the endpoint its device routes to now,
   * whatever the event selection. Throws a {@link GatewayInputError} (404) for an unknown id and (409) when no
   * endpoint is configured any more; the item then stays in the queue.
   */
  replay(deliveryId: string, tenant?: string): { deliveryId: string; url: string } {
    const item = this.deadLetters.list(tenant).find((d) => d.deliveryId === deliveryId);
    if (!item) throw new GatewayInputError('deliveryId', 'does not name an item in the dead-letter queue', 404);
    const endpoint = this.#routing.device(item.deviceId) ?? this.#routing.tenant(item.tenant);
    if (!endpoint) {
      throw new GatewayInputError(
        'deliveryId',
        'cannot be replayed: configure a webhook endpoint for its tenant first',
        409,
      );
    }
    this.deadLetters.take(deliveryId, item.tenant);
    this.#counts.replayed++;
    this.#dispatch({ ...item, endpoint, attempt: 1, sends: 1 });
    return { deliveryId, url: endpoint.url };
  }

  /** Replays every dead letter of a tenant (all tenants when omitted); items without an endpoint stay queued. */
  replayAll(tenant?: string): { replayed: number; skipped: number } {
    let replayed = 0;
    let skipped = 0;
    for (const item of this.deadLetters.list(tenant)) {
      try {
        this.replay(item.deliveryId, item.tenant);
        replayed++;
      } catch {
        skipped++;
      }
    }
    return { replayed, skipped };
  }

  /** Keeps `work` (e.g. a simulator building a QR image) in what {@link drain} waits for. */
  track<T>(work: Promise<T>): Promise<T> {
    const forget = (): void => {
      this.#tracked.delete(p);
    };
    const p: Promise<void> = work.then(forget, forget);
    this.#tracked.add(p);
    return work;
  }

  /**
   * Resolves when no attempt is in flight or waiting for a slot and none is due at the clock's current time.
   * Retries due later are not waited for: with a ManualClock, advance the clock and drain again. Rejects with a
   * clear error when work is still in flight after `realTimeLimitMs` of real time (e.g. a receiver that never
   * answers while a ManualClock stands still: advance it by 8 s to time the attempt out).
   */
  async drain(realTimeLimitMs = 15_000): Promise<void> {
    const started = Date.now();
    const idle = () => this.#runs.size === 0 && this.#tracked.size === 0 && this.#waiting.length === 0;
    for (;;) {
      this.#dispatchDue();
      if (idle()) {
        // One more turn lets continuations that schedule work (e.g. a simulator's next step) run first.
        await new Promise<void>((r) => setTimeout(r, 0));
        this.#dispatchDue();
        if (idle()) return;
      }
      const remaining = realTimeLimitMs - (Date.now() - started);
      if (remaining <= 0) {
        throw new Error(
          `gateway.drain(): ${this.#running} attempt(s) still in flight after ${realTimeLimitMs} ms; with a ManualClock, time them out with gateway.advance(${this.#timeoutMs}) (the receiver deadline is ${this.#timeoutMs} ms on the mock's clock), or make the receiver answer`,
        );
      }
      let guard: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.allSettled([...this.#runs.keys(), ...this.#tracked]),
        new Promise<void>((r) => {
          guard = setTimeout(r, remaining);
        }),
      ]);
      clearTimeout(guard);
    }
  }

  /**
   * Waits for attempts in flight without ever hanging: each gets the answer grace (`answerGraceMs`) of real time,
   * or until its deadline on the system clock, and work due now is sent first. Returns the attempts still out
   * (receivers that have not answered), empty when everything settled. The control API's drain answers with it.
   * However busy the engine stays, it returns within the receiver deadline plus twice the grace, in real time.
   */
  async settle(graceMs = this.#answerGraceMs): Promise<InFlightAttempt[]> {
    const realClock = this.clock === systemClock;
    const giveUpAt = Date.now() + this.#timeoutMs + 2 * graceMs;
    for (;;) {
      this.#dispatchDue();
      await new Promise<void>((r) => setTimeout(r, 0));
      this.#dispatchDue();
      const waitFor: Promise<unknown>[] = [...this.#tracked];
      let soonest = Number.POSITIVE_INFINITY;
      for (const [run, job] of this.#runs) {
        const flight = this.#flights.get(job);
        // A run without a flight has not reached the receiver (or has just been answered): it ends at once.
        const left = flight ? graceLeft(flight, this.clock.now(), realClock, graceMs) : graceMs;
        if (left <= 0) continue;
        waitFor.push(run);
        soonest = Math.min(soonest, left);
      }
      const cap = giveUpAt - Date.now();
      if (waitFor.length === 0 || cap <= 0) return this.inFlight();
      let guard: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        ...waitFor,
        new Promise<void>((r) => {
          guard = setTimeout(r, Math.min(cap, Number.isFinite(soonest) ? soonest : graceMs));
        }),
      ]);
      clearTimeout(guard);
    }
  }

  /**
   * Moves a manual clock forward by `ms`, one timer at a time. Before each step, attempts in flight get the answer
   * grace to be answered, so a jump never times out a receiver that answers; one that hangs is timed out, retried
   * and recorded when the clock passes its deadline, as with the real clock. Returns the attempts still out.
   * Throws a {@link GatewayInputError} (409) when the engine runs on a clock that cannot be moved.
   */
  async advance(ms: number): Promise<InFlightAttempt[]> {
    const clock = this.clock as Partial<SteppableClock>;
    if (typeof clock.advanceTo !== 'function' || typeof clock.nextAt !== 'function') {
      throw new GatewayInputError(
        'clock',
        'is the real clock, which cannot be moved: give the mock a ManualClock (linkgate mock --clock manual)',
        409,
      );
    }
    if (!(Number.isFinite(ms) && ms >= 0)) throw new GatewayInputError('ms', 'must be a number of milliseconds >= 0');
    const target = this.clock.now() + ms;
    await this.settle();
    for (let next = clock.nextAt(); next !== null && next <= target; next = clock.nextAt()) {
      await clock.advanceTo(next);
      await this.settle();
    }
    await clock.advanceTo(target);
    return this.settle();
  }

  /** Cancels every pending retry, drops attempts in flight, and forgets records, circuits, dead letters and faults. */
  reset(): void {
    // Attempts still out finish into nothing: no record, retry or dead letter in the state that replaces this one.
    this.#generation++;
    for (const { timer } of this.#scheduled.values()) timer.cancel();
    this.#scheduled.clear();
    this.#waiting.length = 0;
    this.#circuits.clear();
    this.#records = [];
    this.#dropped = [];
    this.#counts = { published: 0, replayed: 0, delivered: 0, deadLettered: 0, dropped: 0 };
    this.deadLetters.clear();
    this.faults.clear();
    this.#emitter.emit('reset', {});
  }

  #dispatchDue(): void {
    const now = this.clock.now();
    for (const [job, s] of this.#scheduled) {
      if (s.at > now) continue;
      s.timer.cancel();
      this.#scheduled.delete(job);
      this.#dispatch(job);
    }
  }

  #dispatch(job: Job): void {
    if (this.#running >= this.#concurrency) {
      this.#waiting.push(job);
      return;
    }
    this.#running++;
    const run = this.#attempt(job)
      .catch(() => {
        // #attempt handles its own errors; this only guards the engine against a bug taking the process down.
      })
      .finally(() => {
        this.#running--;
        this.#runs.delete(run);
        this.#flights.delete(job);
        const next = this.#waiting.shift();
        if (next) this.#dispatch(next);
      });
    this.#runs.set(run, job);
  }

  #schedule(job: Job, at: number): void {
    const timer = this.clock.setTimeout(() => {
      this.#scheduled.delete(job);
      this.#dispatch(job);
    }, at - this.clock.now());
    this.#scheduled.set(job, { at, timer });
  }

  #circuit(url: string): CircuitBreaker<Job> {
    let c = this.#circuits.get(url);
    if (!c) {
      c = new CircuitBreaker<Job>(url);
      this.#circuits.set(url, c);
    }
    return c;
  }

  async #attempt(job: Job): Promise<void> {
    const startedAt = this.clock.now();
    const circuit = this.#circuit(job.endpoint.url);
    const admission = circuit.admit(startedAt);
    if (admission.kind === 'blocked' || admission.kind === 'awaiting-probe') {
      this.#hold(job, circuit, admission, startedAt);
      return;
    }
    const faults = this.faults.take();
    const sent = this.#headers(job, faults, this.#sendDeliveryId(job));
    const applied = faultNames(faults);
    const isProbe = admission.kind === 'probe';
    const generation = this.#generation;
    const result = await this.#exchange(job, startedAt, sent);
    if (generation !== this.#generation) return;
    if (faults?.duplicate) {
      const copy = this.#perAttemptDeliveryIds ? this.#headers(job, faults, this.#sendDeliveryId(job)) : sent;
      const again = await this.#exchange(job, this.clock.now(), copy);
      if (generation !== this.#generation) return;
      this.#record(job, copy, again, classify(again), startedAt, null, [...applied, 'duplicate-copy'], isProbe);
    }
    const endedAt = this.clock.now();
    const outcome = classify(result);
    const transition = circuit.record(admission, CIRCUIT_OUTCOME[outcome], endedAt);

    const decision = decideDelivery(outcome, job.attempt, endedAt, this.#retries);

    this.#record(
      job,
      sent,
      result,
      outcome,
      startedAt,
      decision.kind === 'retry' ? decision.at : null,
      applied,
      isProbe,
    );
    if (transition) this.#emitter.emit('circuit', transition);
    if (isProbe) this.#releaseParked(circuit, endedAt);

    if (decision.kind === 'delivered') {
      this.#counts.delivered++;
      this.#emitter.emit('delivered', { deliveryId: job.deliveryId, url: job.endpoint.url, attempt: job.attempt });
    } else if (decision.kind === 'retry') {
      job.attempt++;
      this.#schedule(job, decision.at);
    } else {
      if (decision.reason === 'exhausted') {
        this.#emitter.emit('exhausted', {
          deliveryId: job.deliveryId,
          tenant: job.tenant,
          url: job.endpoint.url,
          attempts: job.attempt,
        });
      }
      this.#deadLetter(job, decision.reason, result, endedAt);
    }
  }

  /** One HTTP exchange, known as a flight while it is out so settle() and advance() can tell how long it waits. */
  async #exchange(job: Job, startedAt: number, headers: Record<string, string>): Promise<ExchangeResult> {
    this.#flights.set(job, {
      deliveryId: job.deliveryId,
      url: job.endpoint.url,
      attempt: job.attempt,
      startedAt,
      deadline: startedAt + this.#timeoutMs,
      sentAt: Date.now(),
    });
    try {
      return await exchange(this.#fetch, this.clock, job.endpoint.url, headers, job.body, this.#timeoutMs);
    } finally {
      this.#flights.delete(job);
    }
  }

  /**
   * Drops an attempt the circuit does not let through, without calling the receiver; the event keeps its retries.
   * Blocked by an open circuit, it goes when the circuit half-opens; behind a probe, when the probe answers (at the
   * latest at the probe's deadline, which is what its record shows).
   */
  #hold(
    job: Job,
    circuit: CircuitBreaker<Job>,
    admission: Extract<Admission, { kind: 'blocked' | 'awaiting-probe' }>,
    now: number,
  ): void {
    const at = admission.kind === 'blocked' ? admission.until : admission.probeStartedAt + this.#timeoutMs;
    const circuitAnswer = { status: 503, body: CIRCUIT_OPEN_BODY, error: null };
    this.#record(job, this.#headers(job, undefined), circuitAnswer, 'circuit-open', now, at, [], false);
    if (admission.kind === 'blocked') {
      this.#schedule(job, at);
      return;
    }
    circuit.park(job, at);
  }

  /** After a probe: every attempt parked behind it goes now if the circuit closed, or when it half-opens again. */
  #releaseParked(circuit: CircuitBreaker<Job>, now: number): void {
    const { items, at } = circuit.releaseParked(now);
    for (const job of items) {
      if (at !== null) this.#schedule(job, at);
      else this.#dispatch(job);
    }
  }

  #deadLetter(job: Job, reason: DeadLetter['reason'], result: ExchangeResult, at: number): void {
    const item: DeadLetter = {
      deliveryId: job.deliveryId,
      tenant: job.tenant,
      deviceId: job.deviceId,
      event: job.event,
      body: job.body,
      url: job.endpoint.url,
      reason,
      attempts: job.attempt,
      lastStatus: result.status,
      lastResponse: result.error ?? result.body,
      at,
    };
    const evicted = this.deadLetters.add(item);
    this.#counts.deadLettered++;
    this.#emitter.emit('dead-lettered', item);
    if (evicted) this.#emitter.emit('evicted', evicted);
  }

  /** The id the next send of `job` carries: the event's own, or a new one per send with perAttemptDeliveryIds. */
  #sendDeliveryId(job: Job): string {
    const first = job.sends === 0;
    job.sends++;
    return this.#perAttemptDeliveryIds && !first ? this.#nextDeliveryId() : job.deliveryId;
  }

  /** The spec's headers; the timestamp is the real time unless `timestampClock` says otherwise (see Decisions). */
  #headers(job: Job, faults: Faults | undefined, deliveryId = job.deliveryId): Record<string, string> {
    let timestamp = Math.floor(this.#timestampClock.now() / 1000);
    if (faults?.staleTimestamp) {
      timestamp -= typeof faults.staleTimestamp === 'number' ? faults.staleTimestamp : STALE_TIMESTAMP_SECONDS;
    }
    return deliveryHeaders({
      secret: faults?.wrongSecret ? wrongSecret(job.endpoint.secret, this.#random) : job.endpoint.secret,
      deliveryId,
      event: job.event,
      deviceId: job.deviceId,
      timestamp,
    });
  }

  #record(
    job: Job,
    headers: Record<string, string>,
    result: ExchangeResult,
    outcome: AttemptRecord['outcome'],
    startedAt: number,
    nextAttemptAt: number | null,
    faults: string[],
    probe: boolean,
  ): void {
    const record: AttemptRecord = {
      seq: ++this.#seq,
      deliveryId: job.deliveryId,
      tenant: job.tenant,
      deviceId: job.deviceId,
      event: job.event,
      url: job.endpoint.url,
      attempt: job.attempt,
      request: { headers, body: job.body },
      response: result.status === null ? null : { status: result.status, body: result.body },
      error: result.error,
      outcome,
      startedAt,
      durationMs: this.clock.now() - startedAt,
      nextAttemptAt,
      faults,
      probe,
    };
    this.#records.push(record);
    if (this.#records.length > this.#maxRecords) this.#records.splice(0, this.#records.length - this.#maxRecords);
    this.#emitter.emit('attempt', record);
  }
}

/** How each outcome of an exchange counts for the circuit. */
const CIRCUIT_OUTCOME: Record<'delivered' | 'failed' | 'rejected', CircuitOutcome> = {
  delivered: 'success',
  failed: 'failure',
  rejected: 'answer',
};

function faultNames(faults: Faults | undefined): string[] {
  if (!faults) return [];
  const names: string[] = [];
  if (faults.duplicate) names.push('duplicate');
  if (faults.staleTimestamp) names.push('stale-timestamp');
  if (faults.wrongSecret) names.push('wrong-secret');
  return names;
}

/** A secret of the same shape as `secret` that differs from it. */
function wrongSecret(secret: string, random: () => number): string {
  const prefix = secret.startsWith('whsec_dev_') ? 'whsec_dev_' : 'whsec_live_';
  let other = prefix + randomHex(32, random);
  while (other === secret) other = prefix + randomHex(32, random);
  return other;
}

/** A copy of a record whose secret header shows only its prefix. */
function redactRecord(record: AttemptRecord): AttemptRecord {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(record.request.headers)) {
    headers[k] = /secret$/i.test(k) ? redactSecret(v) : v;
  }
  return { ...record, request: { ...record.request, headers } };
}
