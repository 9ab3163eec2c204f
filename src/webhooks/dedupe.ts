/**
 * Remembers which delivery ids were handled, so a retry or replay of the same delivery is acknowledged without
 * running the handler twice. Methods may be async, so a shared store (Redis, a database) can back it.
 *
 * @example
 * // Redis: SET NX with an expiry is an atomic "add if absent", so two instances never both handle one delivery.
 * const dedupe: DedupeStore = {
 *   has: async (id) => (await redis.exists(`webhook:${id}`)) === 1,
 *   add: async (id, ttlMs) => void (await redis.set(`webhook:${id}`, '1', { PX: ttlMs })),
 *   addIfAbsent: async (id, ttlMs) => (await redis.set(`webhook:${id}`, '1', { PX: ttlMs, NX: true })) === 'OK',
 *   delete: async (id) => void (await redis.del(`webhook:${id}`)),
 * };
 */
export interface DedupeStore {
  /** True when `id` was recorded and has not expired. */
  has(id: string): boolean | Promise<boolean>;
  /** Records `id` for `ttlMs` milliseconds. */
  add(id: string, ttlMs: number): void | Promise<void>;
  /**
   * Records `id` for `ttlMs` ms unless it is already recorded, in one atomic step; true when it was added. Optional:
   * without it the verifier calls `has` then `add`, which an async store cannot make atomic, so two copies of a delivery
   * arriving at the same moment on different instances could both be handled.
   */
  addIfAbsent?(id: string, ttlMs: number): boolean | Promise<boolean>;
  /**
   * Forgets `id`, so the gateway's retry of a delivery whose handler failed runs the handler again. Required: without
   * it that retry would be acknowledged as a duplicate and the event lost.
   */
  delete(id: string): void | Promise<void>;
}

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

/**
 * An in-process {@link DedupeStore} with a size bound: ids expire after their TTL and, past `max`, the oldest is
 * evicted first. Fine for one process; use a shared store when several instances receive the same webhook.
 *
 * @example
 * const handler = createWebhookHandler({ secret, dedupe: new MemoryDedupeStore({ max: 10_000, ttlMs: 3_600_000 }), on: { ... } });
 */
export class MemoryDedupeStore implements DedupeStore {
  readonly #max: number;
  readonly #now: () => number;
  readonly #ttlMs: number | undefined;
  // A Map iterates in insertion order, so its first key is always the oldest.
  readonly #expiresAt = new Map<string, number>();

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
    return this.#expiresAt.size;
  }

  /** True when `id` was added and its TTL has not run out. */
  has(id: string): boolean {
    const expiresAt = this.#expiresAt.get(id);
    if (expiresAt === undefined) return false;
    if (expiresAt <= this.#now()) {
      this.#expiresAt.delete(id);
      return false;
    }
    return true;
  }

  /** Records `id` for `ttlMs` (or the store's own `ttlMs`), evicting the oldest ids beyond `max`. */
  add(id: string, ttlMs: number): void {
    // Re-adding moves the id to the newest position.
    this.#expiresAt.delete(id);
    this.#expiresAt.set(id, this.#now() + (this.#ttlMs ?? ttlMs));
    while (this.#expiresAt.size > this.#max) {
      const oldest = this.#expiresAt.keys().next().value as string;
      this.#expiresAt.delete(oldest);
    }
  }

  /** Forgets `id`. */
  delete(id: string): void {
    this.#expiresAt.delete(id);
  }
}
