import type { DedupeClaim, DedupeStore } from './dedupe.js';

/**
 * How long the handler claims a delivery while its handler runs, unless told otherwise: longer than the handler takes
 * to answer (the 7 s ack timeout, the gateway's 8 s deadline), and short enough that after a receiver died mid-handler
 * the gateway's 4th retry (45 s after the failure) finds the claim gone and is handled.
 */
export const DEFAULT_DEDUPE_CLAIM_TTL_MS = 30_000;

const CLAIMS: readonly DedupeClaim[] = ['claimed', 'in_progress', 'done'];

/**
 * Records `id` as done unless it is already there; false when it was. Atomic with `addIfAbsent`, and with a
 * synchronous store (nothing can run between its `has` and `add`); an async store without `addIfAbsent` leaves a
 * window in which two copies arriving at the same moment are both handled.
 */
export async function recordOnce(store: DedupeStore, id: string, ttlMs: number): Promise<boolean> {
  if (store.addIfAbsent) return store.addIfAbsent(id, ttlMs);
  const seen = store.has(id);
  if (seen === true || (seen !== false && (await seen))) return false;
  await store.add(id, ttlMs);
  return true;
}

/**
 * The handler's dedupe steps around one delivery: claim before handling, mark done once answered 200, release after a
 * failure. With a store that has `claim` and `markDone` the claim is short and the done mark long; with an older store
 * the id is recorded as done at once (for `ttlMs`) and deleted after a failure.
 */
export class DeliveryClaims {
  readonly #store: DedupeStore;
  readonly #ttlMs: number;
  readonly #claimTtlMs: number;
  readonly #twoPhase: boolean;

  constructor(store: DedupeStore, ttlMs: number, claimTtlMs: number) {
    this.#store = store;
    this.#ttlMs = ttlMs;
    this.#claimTtlMs = claimTtlMs;
    this.#twoPhase = typeof store.claim === 'function' && typeof store.markDone === 'function';
  }

  /** Claims `key` for this delivery; see {@link DedupeClaim}. */
  async claim(key: string): Promise<DedupeClaim> {
    if (!this.#twoPhase) return (await recordOnce(this.#store, key, this.#ttlMs)) ? 'claimed' : 'done';
    const found = await this.#store.claim!(key, this.#claimTtlMs);
    if (!CLAIMS.includes(found)) {
      throw new TypeError(
        `The dedupe store's claim() returned ${JSON.stringify(found) ?? String(found)}; it must return 'claimed', 'in_progress' or 'done'.`,
      );
    }
    return found;
  }

  /** The delivery was answered 200: keep its key as done. */
  async done(key: string): Promise<void> {
    if (this.#twoPhase) await this.#store.markDone!(key, this.#ttlMs);
  }

  /** The handler failed: forget the key so the gateway's retry runs the handler again. */
  async release(key: string): Promise<void> {
    await this.#store.delete(key);
  }
}
