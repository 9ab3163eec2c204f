import { type Clock, systemClock, type Timer } from '../../src/core/clock.js';
import type { EventName } from '../../src/schemas/events.js';
import { deliveryHeaders } from '../../src/webhooks/delivery-headers.js';
import { randomHex } from '../random-text.js';
import { CircuitBreaker, type CircuitSnapshot, type CircuitTransition } from './CircuitBreaker.js';
import { type DeadLetter, DeadLetterQueue } from './DeadLetterQueue.js';
import { ACK_TIMEOUT_MS, type AttemptRecord, classify, type ExchangeResult, exchange } from './DeliveryAttempt.js';
import { createDeliveryIdFactory } from './DeliveryId.js';
import { FaultInjector, type Faults, STALE_TIMESTAMP_SECONDS } from './FaultInjector.js';
import { GatewayInputError } from './GatewayInputError.js';
import { LifecycleEmitter, type Unsubscribe } from './LifecycleEmitter.js';
import { RetrySchedule } from './RetrySchedule.js';
import type { WebhookEndpoint } from './WebhookEndpoint.js';
import type { WebhookRouting } from './WebhookRouting.js';

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

/** What {@link GatewayEngine.publish} did with an event. */
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
}

/** Options of a {@link GatewayEngine}. */
export interface GatewayEngineOptions {
  /** Where time comes from; a ManualClock in tests. @default systemClock */
  clock?: Clock;
  /** The HTTP client used to call receivers. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Seedable randomness for delivery ids, jitter and generated secrets. @default Math.random */
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
}

const CIRCUIT_OPEN_BODY = JSON.stringify({ error: 'circuit_open', message: 'The circuit for this endpoint is open.' });

/**
 * The webhook delivery engine: takes events, routes them, sends attempts with the spec's headers, retries failures
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
  readonly #emitter = new LifecycleEmitter<GatewayLifecycle>();
  readonly #circuits = new Map<string, CircuitBreaker>();
  readonly #scheduled = new Map<Job, { at: number; timer: Timer }>();
  readonly #parked = new Map<string, Job[]>();
  readonly #waiting: Job[] = [];
  readonly #active = new Set<Promise<unknown>>();
  #running = 0;
  #records: AttemptRecord[] = [];
  #seq = 0;
  #dropped: DroppedEvent[] = [];

  constructor(routing: WebhookRouting, options: GatewayEngineOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.#routing = routing;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#random = options.random ?? Math.random;
    const jitterMs = options.jitterMs ?? (this.clock === systemClock ? 1_000 : 0);
    this.#retries = new RetrySchedule({ jitterMs, random: this.#random });
    this.#concurrency = Math.max(1, options.concurrency ?? 16);
    this.#timeoutMs = options.timeoutMs ?? ACK_TIMEOUT_MS;
    this.#maxRecords = options.maxRecordedAttempts ?? 10_000;
    this.deadLetters = new DeadLetterQueue(options.deadLetterCapacity);
    this.#nextDeliveryId = createDeliveryIdFactory(this.clock, this.#random);
  }

  /** Listens to a lifecycle event; returns a function that stops listening. */
  on<K extends keyof GatewayLifecycle>(event: K, listener: (payload: GatewayLifecycle[K]) => void): Unsubscribe {
    return this.#emitter.on(event, listener);
  }

  /** Routes an event and, when it has a receiver, sends its first attempt right away. */
  publish(event: OutboundEvent): PublishResult {
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
    };
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

  /** When each event still waiting for a retry is due (ms since the epoch), soonest first. */
  scheduled(): { deliveryId: string; url: string; attempt: number; at: number }[] {
    return [...this.#scheduled]
      .map(([job, s]) => ({ deliveryId: job.deliveryId, url: job.endpoint.url, attempt: job.attempt, at: s.at }))
      .sort((a, b) => a.at - b.at);
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
    this.#dispatch({ ...item, endpoint, attempt: 1 });
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
    const p = work.finally(() => this.#active.delete(p));
    this.#active.add(p);
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
    for (;;) {
      this.#dispatchDue();
      if (this.#active.size === 0 && this.#waiting.length === 0) {
        // One more turn lets continuations that schedule work (e.g. a simulator's next step) run first.
        await new Promise<void>((r) => setTimeout(r, 0));
        this.#dispatchDue();
        if (this.#active.size === 0 && this.#waiting.length === 0) return;
      }
      const remaining = realTimeLimitMs - (Date.now() - started);
      if (remaining <= 0) {
        throw new Error(
          `gateway.drain(): ${this.#running} attempt(s) still in flight after ${realTimeLimitMs} ms; with a ManualClock, advance it (the receiver deadline is ${this.#timeoutMs} ms) or make the receiver answer`,
        );
      }
      let guard: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.allSettled([...this.#active]),
        new Promise<void>((r) => {
          guard = setTimeout(r, remaining);
        }),
      ]);
      clearTimeout(guard);
    }
  }

  /** Cancels every pending retry and forgets records, circuits, dead letters and faults. */
  reset(): void {
    for (const { timer } of this.#scheduled.values()) timer.cancel();
    this.#scheduled.clear();
    this.#parked.clear();
    this.#waiting.length = 0;
    this.#circuits.clear();
    this.#records = [];
    this.#dropped = [];
    this.deadLetters.clear();
    this.faults.clear();
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
        this.#active.delete(run);
        const next = this.#waiting.shift();
        if (next) this.#dispatch(next);
      });
    this.#active.add(run);
  }

  #schedule(job: Job, at: number): void {
    const timer = this.clock.setTimeout(() => {
      this.#scheduled.delete(job);
      this.#dispatch(job);
    }, at - this.clock.now());
    this.#scheduled.set(job, { at, timer });
  }

  #circuit(url: string): CircuitBreaker {
    let c = this.#circuits.get(url);
    if (!c) {
      c = new CircuitBreaker(url);
      this.#circuits.set(url, c);
    }
    return c;
  }

  async #attempt(job: Job): Promise<void> {
    const startedAt = this.clock.now();
    const circuit = this.#circuit(job.endpoint.url);
    const admission = circuit.admit(startedAt);
    const headers = this.#headers(job, startedAt, undefined);
    if (admission.kind === 'blocked' || admission.kind === 'awaiting-probe') {
      // Dropped at once without calling the receiver; the event keeps its retries.
      const nextAttemptAt = admission.kind === 'blocked' ? admission.until : null;
      this.#record(
        job,
        headers,
        { status: 503, body: CIRCUIT_OPEN_BODY, error: null },
        'circuit-open',
        startedAt,
        nextAttemptAt,
        [],
      );
      if (admission.kind === 'blocked') this.#schedule(job, admission.until);
      else this.#park(job);
      return;
    }
    const faults = this.faults.take();
    const sent = this.#headers(job, startedAt, faults);
    const applied = faultNames(faults);
    const result = await exchange(this.#fetch, this.clock, job.endpoint.url, sent, job.body, this.#timeoutMs);
    if (faults?.duplicate) {
      const again = await exchange(this.#fetch, this.clock, job.endpoint.url, sent, job.body, this.#timeoutMs);
      this.#record(job, sent, again, classify(again), startedAt, null, [...applied, 'duplicate-copy']);
    }
    const endedAt = this.clock.now();
    const outcome = classify(result);
    const isProbe = admission.kind === 'probe';
    const transition =
      outcome === 'delivered'
        ? circuit.recordSuccess(endedAt)
        : outcome === 'failed'
          ? circuit.recordFailure(endedAt)
          : circuit.recordAnswer(endedAt);

    let nextAttemptAt: number | null = null;
    let deadLetterReason: DeadLetter['reason'] | null = null;
    if (outcome === 'failed') {
      const delay = this.#retries.delayAfter(job.attempt);
      if (delay === null) deadLetterReason = 'exhausted';
      else nextAttemptAt = endedAt + delay;
    } else if (outcome === 'rejected') deadLetterReason = 'rejected';

    this.#record(job, sent, result, outcome, startedAt, nextAttemptAt, applied);
    if (transition) this.#emitter.emit('circuit', transition);
    if (isProbe || transition) this.#releaseParked(job.endpoint.url, circuit, endedAt);

    if (outcome === 'delivered') {
      this.#emitter.emit('delivered', { deliveryId: job.deliveryId, url: job.endpoint.url, attempt: job.attempt });
    } else if (nextAttemptAt !== null) {
      job.attempt++;
      this.#schedule(job, nextAttemptAt);
    } else if (deadLetterReason) {
      if (deadLetterReason === 'exhausted') {
        this.#emitter.emit('exhausted', {
          deliveryId: job.deliveryId,
          tenant: job.tenant,
          url: job.endpoint.url,
          attempts: job.attempt,
        });
      }
      this.#deadLetter(job, deadLetterReason, result, endedAt);
    }
  }

  #park(job: Job): void {
    const list = this.#parked.get(job.endpoint.url) ?? [];
    list.push(job);
    this.#parked.set(job.endpoint.url, list);
  }

  /** After a probe: everyone waiting goes now if the circuit closed, or when it half-opens again. */
  #releaseParked(url: string, circuit: CircuitBreaker, now: number): void {
    const list = this.#parked.get(url);
    if (!list?.length) return;
    this.#parked.delete(url);
    const snap = circuit.snapshot(now);
    for (const job of list) {
      if (snap.state === 'open' && snap.openUntil !== null) this.#schedule(job, snap.openUntil);
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
    this.#emitter.emit('dead-lettered', item);
    if (evicted) this.#emitter.emit('evicted', evicted);
  }

  #headers(job: Job, now: number, faults: Faults | undefined): Record<string, string> {
    let timestamp = Math.floor(now / 1000);
    if (faults?.staleTimestamp) {
      timestamp -= typeof faults.staleTimestamp === 'number' ? faults.staleTimestamp : STALE_TIMESTAMP_SECONDS;
    }
    return deliveryHeaders({
      secret: faults?.wrongSecret ? wrongSecret(job.endpoint.secret, this.#random) : job.endpoint.secret,
      deliveryId: job.deliveryId,
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
    };
    this.#records.push(record);
    if (this.#records.length > this.#maxRecords) this.#records.splice(0, this.#records.length - this.#maxRecords);
    this.#emitter.emit('attempt', record);
  }
}

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
    headers[k] = /secret$/i.test(k) ? `${v.slice(0, v.startsWith('whsec_dev_') ? 10 : 11)}[redacted]` : v;
  }
  return { ...record, request: { ...record.request, headers } };
}
