import type { EventName } from '../../src/schemas/events.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';

/** Items kept per tenant (spec, Limits: up to 200 items per tenant, in memory). */
export const DEAD_LETTER_CAPACITY = 200;

/** An event the gateway gave up on, kept for inspection and manual replay. */
export interface DeadLetter {
  /** The event's delivery id (`X-Service-Delivery-ID`), kept on replay so receivers can dedupe. */
  deliveryId: string;
  tenant: string;
  deviceId: string;
  event: EventName;
  /** The JSON body as it was sent. */
  body: string;
  /** The receiver URL of the last attempt. */
  url: string;
  /** `exhausted`: 6 failed attempts; `rejected`: the receiver answered neither 200 nor 5xx. */
  reason: 'exhausted' | 'rejected';
  /** Attempts made before dead-lettering. */
  attempts: number;
  /** The last answer's status (null after a timeout or connection error). */
  lastStatus: number | null;
  /** The last answer's body (cut at 20 KB) or the error. */
  lastResponse: string;
  /** When it was dead-lettered (ms since the epoch). */
  at: number;
}

/**
 * The per-tenant dead-letter queue: bounded at 200 items; when full, the oldest item is evicted (and counted) to
 * make room for the newest.
 */
export class DeadLetterQueue {
  readonly #capacity: number;
  readonly #items = new Map<string, DeadLetter[]>();
  readonly #evictions = new Map<string, number>();

  /** @param capacity - items per tenant. @default 200 */
  constructor(capacity = DEAD_LETTER_CAPACITY) {
    this.#capacity = capacity;
  }

  /** Adds an item; returns the item evicted to make room, if any. */
  add(item: DeadLetter): DeadLetter | undefined {
    let list = this.#items.get(item.tenant);
    if (!list) {
      list = [];
      this.#items.set(item.tenant, list);
    }
    list.push(item);
    if (list.length <= this.#capacity) return undefined;
    this.#evictions.set(item.tenant, (this.#evictions.get(item.tenant) ?? 0) + 1);
    return list.shift();
  }

  /** A tenant's items, oldest first (all tenants' when `tenant` is omitted). */
  list(tenant?: string): DeadLetter[] {
    if (tenant !== undefined) return [...(this.#items.get(tenant) ?? [])];
    return [...this.#items.values()].flat().sort((a, b) => a.at - b.at);
  }

  /** How many items were evicted from a tenant's queue (all tenants' when omitted). */
  evicted(tenant?: string): number {
    if (tenant !== undefined) return this.#evictions.get(tenant) ?? 0;
    let sum = 0;
    for (const n of this.#evictions.values()) sum += n;
    return sum;
  }

  /** Removes and returns one item by delivery id. */
  take(deliveryId: string, tenant?: string): DeadLetter | undefined {
    for (const [t, list] of this.#items) {
      if (tenant !== undefined && t !== tenant) continue;
      const i = list.findIndex((d) => d.deliveryId === deliveryId);
      if (i >= 0) return list.splice(i, 1)[0];
    }
    return undefined;
  }

  /** Removes and returns every item of a tenant (all tenants' when omitted), oldest first. */
  takeAll(tenant?: string): DeadLetter[] {
    const items = this.list(tenant);
    if (tenant !== undefined) this.#items.delete(tenant);
    else this.#items.clear();
    return items;
  }

  /** Drops every item of a tenant (all when omitted); returns how many were dropped. */
  purge(tenant?: string): number {
    return this.takeAll(tenant).length;
  }

  /** Empties the queue and the eviction counters. */
  clear(): void {
    this.#items.clear();
    this.#evictions.clear();
  }

  /** Every item, oldest first, and the eviction counters per tenant, as plain data (what a state snapshot holds). @internal */
  exportState(): DeadLetterQueueState {
    return { items: this.list().map((item) => ({ ...item })), evicted: Object.fromEntries(this.#evictions) };
  }

  /**
   * A new queue of this one's capacity holding `state`'s items (checked by the caller); a tenant with more items than
   * the capacity is refused with a {@link GatewayInputError}. Swap it in with {@link replaceWith}.
   * @internal
   */
  withState(state: DeadLetterQueueState): DeadLetterQueue {
    const queue = new DeadLetterQueue(this.#capacity);
    for (const item of state.items) {
      if (queue.add({ ...item }) !== undefined) {
        throw new GatewayInputError(
          'items',
          `holds more than ${this.#capacity} dead letters of tenant "${item.tenant}"`,
        );
      }
    }
    for (const [tenant, n] of Object.entries(state.evicted)) queue.#evictions.set(tenant, n);
    return queue;
  }

  /** Takes every item and counter of `other` (built by `withState`); cannot fail. @internal */
  replaceWith(other: DeadLetterQueue): void {
    this.clear();
    for (const [tenant, list] of other.#items) this.#items.set(tenant, list);
    for (const [tenant, n] of other.#evictions) this.#evictions.set(tenant, n);
  }
}

/** A {@link DeadLetterQueue} as plain data: the items oldest first, and how many each tenant had evicted. */
export interface DeadLetterQueueState {
  items: DeadLetter[];
  evicted: Record<string, number>;
}
