import { type Clock, systemClock } from '../../src/shared/clock.js';
import type { CircuitSnapshot } from '../delivery/circuit-breaker.js';
import type { DeadLetterQueue } from '../delivery/dead-letter-queue.js';
import type { AttemptRecord } from '../delivery/delivery-attempt.js';
import {
  type DroppedEvent,
  GatewayEngine,
  type GatewayEngineOptions,
  type GatewayLifecycle,
  type GatewayStats,
  type ScheduledAttempt,
} from '../delivery/delivery-engine.js';
import type { FaultInjector } from '../delivery/fault-injector.js';
import type { InFlightAttempt } from '../delivery/in-flight-attempt.js';
import type { Unsubscribe } from '../delivery/lifecycle-emitter.js';
import { WebhookRouting } from '../delivery/webhook-routing.js';
import { type DeviceInput, DeviceRegistry } from '../messaging/device-registry.js';
import { MediaStore } from '../messaging/media-store.js';
import { MessagingKeyring } from '../messaging/messaging-keyring.js';
import { checkedUnder, GatewayInputError } from '../shared/gateway-input-error.js';
import { cryptoRandom, randomHex } from '../shared/random-text.js';
import { DeviceStatusSimulator } from '../simulators/device-status-simulator.js';
import { InboundMessageSimulator } from '../simulators/inbound-message-simulator.js';
import { OutboundMessages } from '../simulators/outbound-messages.js';
import { PairingSimulator } from '../simulators/pairing-simulator.js';
import { ReceiptSimulator } from '../simulators/receipt-simulator.js';
import type { SimulatorContext } from '../simulators/simulator-context.js';

/** Options of the messaging gateway inside a mock backend. */
export interface GatewayOptions extends Omit<GatewayEngineOptions, 'clock' | 'random'> {
  /** A messaging API key to create for the `default` tenant at start (and after `reset()`). @default none */
  messagingKey?: string;
  /**
   * Devices to add at start (and after `reset()`), e.g. `[{ id: 'phone-1' }]`: ONLINE in the `default` tenant unless
   * they say otherwise, so `messages.send({ device_id: 'auto' })` works at once. @default none
   */
  devices?: readonly DeviceInput[];
  /** The token of the `/__mock/` control API. @default generated, `ctl_` + 32 hex characters */
  controlToken?: string;
  /** The origin media URLs point at when a simulation does not come over HTTP. @default 'http://localhost' */
  publicOrigin?: string;
  /**
   * Accept plain-http receiver URLs on any host (e.g. `http://receiver:3000/webhooks` in docker-compose), not only
   * on loopback hosts. The spec's gateway delivers only to HTTPS; this is for test set-ups. @default false
   */
  allowHttpReceivers?: boolean;
}

/**
 * The mock's messaging gateway, reachable in-process as `backend.gateway` and over HTTP under `/__mock/`: messaging
 * keys and devices, webhook routing, the delivery engine (attempts, retries, circuits, dead letters, faults) and the
 * event simulators. Its clock is the backend's, so `gateway.clock.advance(ms)` moves both with a ManualClock.
 *
 * @example
 * const gateway = backend.gateway;
 * gateway.routing.setTenant('default', { url: receiverUrl, events: ['message.received'] });
 * const device = gateway.devices.add({ tenant: 'default' });
 * gateway.simulate.message({ device_id: device.id, sender: '15551234567', text: 'hi' });
 * await gateway.drain();
 */
export class Gateway<C extends Clock = Clock> {
  /** The backend's clock. */
  readonly clock: C;
  /** Webhook endpoints: tenant defaults and device overrides. */
  readonly routing: WebhookRouting;
  /**
   * The delivery engine behind this facade, for the mock's own parts (simulators, control API). Tests and apps use the
   * gateway's members, which are its one face.
   *
   * @internal
   */
  readonly engine: GatewayEngine;
  /** Messaging API keys. */
  readonly keys: MessagingKeyring;
  /** Devices per tenant. */
  readonly devices: DeviceRegistry;
  /** Stored inbound media (`tmp/`, 7 days). */
  readonly media: MediaStore;
  /** Outbound messages of the messaging API and their receipts. */
  readonly messages: OutboundMessages;
  /** The control API's token (`Authorization: Bearer <token>`). */
  readonly controlToken: string;
  /** Event simulators. */
  readonly simulate: {
    /** An inbound one-to-one message (`message.received`), with the media rules. */
    message: InboundMessageSimulator['message'];
    /** A delivery receipt (`message.ack`). */
    ack: ReceiptSimulator['ack'];
    /** A dispatch confirmation (`message.sent`). */
    sent: ReceiptSimulator['sent'];
    /** A device status change (`device.status`). */
    status: DeviceStatusSimulator['status'];
    /** The pairing flow (`device.qr` frames, then `device.status`). */
    pairing: PairingSimulator;
  };
  readonly #options: GatewayOptions;
  readonly #pairing: PairingSimulator;
  #origin: string;

  constructor(clock: C = systemClock as C, random: () => number = cryptoRandom, options: GatewayOptions = {}) {
    this.clock = clock;
    this.#options = options;
    this.#origin = options.publicOrigin ?? 'http://localhost';
    this.routing = new WebhookRouting(random, { allowHttpReceivers: options.allowHttpReceivers ?? false });
    this.engine = new GatewayEngine(this.routing, { ...options, clock, random });
    this.keys = new MessagingKeyring(clock, random);
    this.devices = new DeviceRegistry(clock);
    this.media = new MediaStore(clock);
    this.controlToken = options.controlToken ?? `ctl_${randomHex(32, random)}`;
    const ctx: SimulatorContext = {
      clock,
      engine: this.engine,
      devices: this.devices,
      media: this.media,
      random,
      origin: () => this.#origin,
    };
    const inbound = new InboundMessageSimulator(ctx);
    const receipts = new ReceiptSimulator(ctx);
    const status = new DeviceStatusSimulator(ctx);
    this.#pairing = new PairingSimulator(ctx, status);
    this.messages = new OutboundMessages(ctx, receipts);
    this.simulate = {
      message: (input) => inbound.message(input),
      ack: (input) => receipts.ack(input),
      sent: (input) => receipts.sent(input),
      status: (input) => status.status(input),
      pairing: this.#pairing,
    };
    this.#seed();
  }

  /** Fault injection for the receiver side of tests, e.g. `gateway.faults.next({ duplicate: true })`. */
  get faults(): FaultInjector {
    return this.engine.faults;
  }

  /** The dead-letter queue (200 per tenant; list, replay, purge). */
  get deadLetters(): DeadLetterQueue {
    return this.engine.deadLetters;
  }

  /** The origin media URLs are built on; the standalone server sets it to its own URL. */
  get publicOrigin(): string {
    return this.#origin;
  }
  /** Sets the origin media URLs are built on; a trailing slash is dropped. */
  set publicOrigin(origin: string) {
    this.#origin = origin.replace(/\/$/, '');
  }

  /**
   * Listens to lifecycle events: `attempt`, `delivered`, `exhausted`, `dead-lettered`, `evicted`, `circuit`, `dropped`,
   * `published` (every event handed to delivery, before routing: pairing frames, messages, receipts, statuses) and
   * `reset` (after `reset()` or `POST /__mock/reset`).
   */
  on<K extends keyof GatewayLifecycle>(event: K, listener: (payload: GatewayLifecycle[K]) => void): Unsubscribe {
    return this.engine.on(event, listener);
  }

  /**
   * Recorded attempts, oldest first, optionally filtered. With `redact`, `X-Service-Secret` shows only its prefix.
   */
  attempts(filter?: { deliveryId?: string; url?: string; tenant?: string; redact?: boolean }): AttemptRecord[] {
    return this.engine.attempts(filter);
  }

  /** Circuit state per receiver URL. */
  circuits(): CircuitSnapshot[] {
    return this.engine.circuits();
  }

  /**
   * Waits until nothing is in flight or due now; rejects, saying so, when an attempt is still in flight after
   * `realTimeLimitMs` of real time (15 s by default).
   */
  drain(realTimeLimitMs?: number): Promise<void> {
    return this.engine.drain(realTimeLimitMs);
  }

  /**
   * Moves a ManualClock forward timer by timer, letting attempts in flight be answered before each step and timing
   * out those whose receiver hangs; resolves with the attempts still out.
   */
  advance(ms: number): Promise<InFlightAttempt[]> {
    return this.engine.advance(ms);
  }

  /**
   * Waits for attempts in flight without ever hanging, each given the answer grace of real time; resolves with the
   * attempts still out (receivers that have not answered). The control API's drain answers with it.
   */
  settle(graceMs?: number): Promise<InFlightAttempt[]> {
    return this.engine.settle(graceMs);
  }

  /**
   * When each event waiting to go out again is due (ms since the epoch), soonest first: retries, attempts held by an
   * open circuit, and attempts waiting for the answer of a half-open circuit's probe.
   */
  scheduled(): ScheduledAttempt[] {
    return this.engine.scheduled();
  }

  /** Attempts out at a receiver now, oldest first. */
  inFlight(): InFlightAttempt[] {
    return this.engine.inFlight();
  }

  /** Events that were not delivered at all (no endpoint, not selected, or a chat kind never delivered), oldest first. */
  dropped(): DroppedEvent[] {
    return this.engine.dropped();
  }

  /**
   * Sends a dead-lettered event again (same delivery id, fresh retries) to the endpoint its device routes to now.
   * Throws a {@link GatewayInputError} (404) for an unknown id and (409) when no endpoint is configured any more.
   */
  replay(deliveryId: string, tenant?: string): { deliveryId: string; url: string } {
    return this.engine.replay(deliveryId, tenant);
  }

  /** Replays every dead letter of a tenant (all tenants when omitted); items without an endpoint stay queued. */
  replayAll(tenant?: string): { replayed: number; skipped: number } {
    return this.engine.replayAll(tenant);
  }

  /** Where every event is: published, delivered, dead-lettered, pending. */
  stats(): GatewayStats {
    return this.engine.stats();
  }

  /** Back to a fresh gateway: no endpoints, devices, keys (but the seeded one), attempts, dead letters or timers. */
  reset(): void {
    this.engine.reset();
    this.messages.clear();
    this.#pairing.clear();
    this.routing.clear();
    this.devices.clear();
    this.keys.clear();
    this.media.clear();
    this.#seed();
  }

  #seed(): void {
    if (this.#options.messagingKey !== undefined)
      this.keys.create({ key: this.#options.messagingKey, label: 'seeded' });
    for (const [i, device] of (this.#options.devices ?? []).entries()) {
      // Name the option, not just the field: the mistake is in the backend's options.
      checkedUnder(`gateway.devices[${i}]`, () => this.devices.add(device));
    }
  }
}
