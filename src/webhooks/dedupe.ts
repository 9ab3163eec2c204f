/**
 * Remembers which deliveries were handled, so a retry or replay of the same delivery is acknowledged without running
 * the handler twice. Ids are dedupe keys: the delivery id, or the event's own identity with `dedupeKey: 'event'`.
 * Methods may be async, so a shared store (Redis, a database) can back it: `linkgate/redis` has one.
 *
 * With `claim` and `markDone` the handler claims an id only while its handler runs (a short expiry) and marks it done
 * once handled (the long one): a receiver that dies mid-handler leaves a claim that expires, so the gateway's next
 * retry is handled instead of being acknowledged as a duplicate and lost.
 *
 * @example
 * import { RedisDedupeStore } from 'linkgate/redis';
 * const handler = createWebhookHandler({ secret, dedupe: new RedisDedupeStore({ client: redis }), on: { ... } });
 */
export interface DedupeStore {
  /** True when `id` was recorded (claimed or done) and has not expired. */
  has(id: string): boolean | Promise<boolean>;
  /** Records `id` as done for `ttlMs` milliseconds. */
  add(id: string, ttlMs: number): void | Promise<void>;
  /**
   * Records `id` as done for `ttlMs` ms unless it is already recorded, in one atomic step; true when it was added.
   * Optional: without it the verifier calls `has` then `add`, which an async store cannot make atomic, so two copies of
   * a delivery arriving at the same moment on different instances could both be handled.
   */
  addIfAbsent?(id: string, ttlMs: number): boolean | Promise<boolean>;
  /**
   * Forgets `id`, so the gateway's retry of a delivery whose handler failed runs the handler again. Required: without
   * it that retry would be acknowledged as a duplicate and the event lost. A shared store should delete its own claim
   * only (compare-and-delete), so a late release cannot remove a claim another instance made since.
   */
  delete(id: string): void | Promise<void>;
  /**
   * Claims `id` for `claimTtlMs` while its handler runs, in one atomic step, and says what it found: `'claimed'` (it
   * is this caller's now), `'in_progress'` (another claim holds it: the handler answers 503 so the gateway tries
   * again later) or `'done'` (handled before: acknowledged as a duplicate). Optional, with {@link markDone}.
   */
  claim?(id: string, claimTtlMs: number): DedupeClaim | Promise<DedupeClaim>;
  /** Marks a claimed `id` as handled for `ttlMs` (replacing the claim). Optional, with {@link claim}. */
  markDone?(id: string, ttlMs: number): void | Promise<void>;
}

/** What {@link DedupeStore.claim} found: the id is now the caller's, another's claim holds it, or it was handled. */
export type DedupeClaim = 'claimed' | 'in_progress' | 'done';

/** Options of {@link MemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /**
   * The most ids kept; adding one more evicts the oldest.
   * @default 10_000
   */
  max?: number;
  /**
   * How long this store keeps an id, in ms; when set it wins over the TTL the verifier passes (`dedupeTtlMs`).
   * @default the verifier's dedupeTtlMs (24 h)
   */
  ttlMs?: number;
  /**
   * Where time comes from (ms since the epoch), so tests can expire ids without waiting.
   * @default Date.now
   */
  now?: () => number;
}

/** One remembered id: until when, and whether it is a claim (being handled) or a done mark. */
interface Entry {
  expiresAt: number;
  claimed: boolean;
}

/**
 * An in-process {@link DedupeStore} with a size bound: ids expire after their TTL and, past `max`, the oldest is
 * evicted first. Fine for one process; use a shared store (`linkgate/redis`) when several instances receive the same
 * webhook.
 *
 * @example
 * const handler = createWebhookHandler({ secret, dedupe: new MemoryDedupeStore({ max: 10_000, ttlMs: 3_600_000 }), on: { ... } });
 */
export class MemoryDedupeStore implements DedupeStore {
  readonly #max: number;
  readonly #now: () => number;
  readonly #ttlMs: number | undefined;
  // A Map iterates in insertion order, so its first key is always the oldest.
  readonly #entries = new Map<string, Entry>();

  constructor(options: MemoryDedupeStoreOptions = {}) {
    const max = options.max ?? 10_000;
    if (!Number.isInteger(max) || max < 1) {
      throw new TypeError(`MemoryDedupeStore options.max must be a positive integer; got ${String(options.max)}.`);
    }
    if (options.ttlMs !== undefined && !(options.ttlMs > 0)) {
      throw new TypeError(`MemoryDedupeStore options.ttlMs must be a positive number of milliseconds.`);
    }
    this.#max = max;
    this.#ttlMs = options.ttlMs;
    this.#now = options.now ?? Date.now;
  }

  /** How many ids are held (expired ones included until they are touched or evicted). */
  get size(): number {
    return this.#entries.size;
  }

  /** True when `id` was added or claimed and its TTL has not run out. */
  has(id: string): boolean {
    return this.#live(id) !== undefined;
  }

  /** Records `id` as done for `ttlMs` (or the store's own `ttlMs`), evicting the oldest ids beyond `max`. */
  add(id: string, ttlMs: number): void {
    this.#put(id, this.#ttlMs ?? ttlMs, false);
  }

  /** Records `id` as done unless it is held; true when it was added. */
  addIfAbsent(id: string, ttlMs: number): boolean {
    if (this.#live(id)) return false;
    this.add(id, ttlMs);
    return true;
  }

  /** Forgets `id`. */
  delete(id: string): void {
    this.#entries.delete(id);
  }

  /** Claims `id` for `claimTtlMs` (the store's `ttlMs` does not apply to claims) unless it is held. */
  claim(id: string, claimTtlMs: number): DedupeClaim {
    const entry = this.#live(id);
    if (entry) return entry.claimed ? 'in_progress' : 'done';
    this.#put(id, claimTtlMs, true);
    return 'claimed';
  }

  /** Marks `id` as done for `ttlMs` (or the store's own `ttlMs`). */
  markDone(id: string, ttlMs: number): void {
    this.add(id, ttlMs);
  }

  #live(id: string): Entry | undefined {
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(id);
      return undefined;
    }
    return entry;
  }

  #put(id: string, ttlMs: number, claimed: boolean): void {
    // Re-adding moves the id to the newest position.
    this.#entries.delete(id);
    this.#entries.set(id, { expiresAt: this.#now() + ttlMs, claimed });
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }
}
