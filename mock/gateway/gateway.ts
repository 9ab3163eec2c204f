import { type Clock, systemClock } from '../../src/shared/clock.js';
import { GatewayEngine, type GatewayEngineOptions, type GatewayLifecycle } from '../delivery/delivery-engine.js';
import type { Unsubscribe } from '../delivery/lifecycle-emitter.js';
import { WebhookRouting } from '../delivery/webhook-routing.js';
import { type DeviceInput, DeviceRegistry } from '../messaging/device-registry.js';
import { MediaStore } from '../messaging/media-store.js';
import { MessagingKeyring } from '../messaging/messaging-keyring.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';
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
  /** The delivery engine. */
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
  get faults(): GatewayEngine['faults'] {
    return this.engine.faults;
  }

  /** The dead-letter queue (200 per tenant; list, replay, purge). */
  get deadLetters(): GatewayEngine['deadLetters'] {
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

  /** Recorded attempts; see {@link GatewayEngine.attempts}. */
  attempts(filter?: Parameters<GatewayEngine['attempts']>[0]): ReturnType<GatewayEngine['attempts']> {
    return this.engine.attempts(filter);
  }

  /** Circuit state per receiver URL. */
  circuits(): ReturnType<GatewayEngine['circuits']> {
    return this.engine.circuits();
  }

  /** Waits until nothing is in flight or due now; see {@link GatewayEngine.drain}. */
  drain(realTimeLimitMs?: number): Promise<void> {
    return this.engine.drain(realTimeLimitMs);
  }

  /**
   * Moves a ManualClock forward timer by timer, letting attempts in flight be answered before each step and timing
   * out those whose receiver hangs; resolves with the attempts still out. See {@link GatewayEngine.advance}.
   */
  advance(ms: number): ReturnType<GatewayEngine['advance']> {
    return this.engine.advance(ms);
  }

  /** Where every event is: published, delivered, dead-lettered, pending. See {@link GatewayEngine.stats}. */
  stats(): ReturnType<GatewayEngine['stats']> {
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
      try {
        this.devices.add(device);
      } catch (error) {
        // Name the option, not just the field: the mistake is in the backend's options.
        if (error instanceof GatewayInputError)
          throw new GatewayInputError(`gateway.devices[${i}].${error.field}`, error.rule);
        throw error;
      }
    }
  }
}
