import { type RedisConnection, redisScript } from './redis-client.js';
import { type RedisStoreOptions, setUpRedisStore } from './redis-store-options.js';

/** The value of a handled key; a claim's value is `claim:<token>`, so only its maker can release it. */
const DONE = 'done';

/** Claim tokens this store remembers for its own releases; past it the oldest is forgotten (its claim just expires). */
const MAX_OWN_CLAIMS = 10_000;

/** How often claims that failed are tried to be deleted, in ms. */
const ORPHAN_SWEEP_MS = 250;

/**
 * How long an orphaned claim is still watched for once Redis answers, in ms: the client's queue (and a script's
 * NOSCRIPT fallback) may run it a moment after the first delete found nothing.
 */
const ORPHAN_WATCH_MS = 5_000;

/** KEYS: the key. ARGV: the claim value, the claim TTL in ms. Returns what it found: claimed, in_progress or done. */
const CLAIM = redisScript(`
local found = redis.call('GET', KEYS[1])
if found == '${DONE}' then return 'done' end
if found then return 'in_progress' end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 'claimed'
`);

const EXISTS = redisScript(`return redis.call('EXISTS', KEYS[1])`);
const DELETE = redisScript(`return redis.call('DEL', KEYS[1])`);

/**
 * A `DedupeStore` (see `linkgate/webhooks`) on Redis, so webhook receivers running as several replicas handle each
 * event once: whichever replica a delivery or its retry lands on sees what the others claimed and handled.
 *
 * With `createWebhookHandler` a delivery is claimed while its handler runs (`SET` only if absent, with the handler's
 * `dedupeClaimTtlMs`, 30 s, in one script), marked done for `dedupeTtlMs` (24 h) once answered 200, and released
 * after a failure so the gateway's retry is handled; a release deletes only this store's own claim (compare-and-delete
 * of its token), so a late one cannot remove a claim another replica made since. A replica that dies mid-handler
 * leaves a claim that expires, and a later retry is handled. Keys are `<prefix>:dedupe:<key>`.
 *
 * When Redis fails or does not answer within `timeoutMs`, the methods reject: the handler answers 500 and the gateway
 * retries later, so no event is dropped nor handled twice silently. `logger` hears once when Redis goes and once when
 * it answers again.
 *
 * @example
 * import { createClient } from 'redis';
 * import { createWebhookHandler } from 'linkgate/webhooks';
 * import { RedisDedupeStore } from 'linkgate/redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).on('error', console.error).connect();
 * export const POST = createWebhookHandler({
 *   secret: process.env.WEBHOOK_SECRET!,
 *   dedupe: new RedisDedupeStore({ client: redis }),
 *   on: { 'message.received': (event) => saveMessage(event.data) },
 * });
 */
// Not `implements DedupeStore`: the two entries' declarations would then share a chunk; the contract test checks it.
export class RedisDedupeStore {
  readonly #redis: RedisConnection;
  readonly #prefix: string;
  readonly #logger: Pick<NonNullable<RedisStoreOptions['logger']>, 'warn' | 'info'>;
  /** The claims this store made and has not settled: key to claim value. */
  readonly #ownClaims = new Map<string, string>();
  /**
   * Claims that failed but may still run from the client's queue once Redis is back: claim value (one per claim, as
   * several failed claims may share a key) to key and, once a delete reached Redis and found nothing, when that was.
   */
  readonly #orphans = new Map<string, { key: string; reachedAt?: number }>();
  #sweeping = false;
  #down = false;

  /** Takes your connected client; throws a TypeError naming what to pass when `client` is neither library's. */
  constructor(options: RedisStoreOptions) {
    const { redis, prefix, logger } = setUpRedisStore(options, 'RedisDedupeStore');
    this.#redis = redis;
    this.#prefix = prefix;
    this.#logger = logger;
  }

  /** True when `id` is claimed or done. */
  async has(id: string): Promise<boolean> {
    return Number(await this.#call(() => this.#redis.eval(EXISTS, [this.#keyOf(id)], []))) === 1;
  }

  /** Records `id` as done for `ttlMs`. */
  async add(id: string, ttlMs: number): Promise<void> {
    await this.#call(() => this.#redis.set(this.#keyOf(id), DONE, ttlMs));
  }

  /** Records `id` as done for `ttlMs` unless it is held (`SET NX PX`); true when it was added. */
  async addIfAbsent(id: string, ttlMs: number): Promise<boolean> {
    return this.#call(() => this.#redis.setNxPx(this.#keyOf(id), DONE, ttlMs));
  }

  /**
   * Claims `id` for `claimTtlMs` unless it is held, in one atomic script, and says what it found: `'claimed'` (this
   * store's now), `'in_progress'` (another claim holds it) or `'done'` (handled before).
   */
  async claim(id: string, claimTtlMs: number): Promise<'claimed' | 'in_progress' | 'done'> {
    const key = this.#keyOf(id);
    const value = `claim:${token()}`;
    let found: string;
    try {
      found = String(await this.#call(() => this.#redis.eval(CLAIM, [key], [value, Math.ceil(claimTtlMs)])));
    } catch (error) {
      // A failed claim may still sit in the client's queue and run once Redis is back; it is deleted behind it, so
      // the gateway's retry is not held off as "in progress" by a claim nobody works on.
      this.#orphans.set(value, { key });
      if (this.#orphans.size > MAX_OWN_CLAIMS) this.#orphans.delete(this.#orphans.keys().next().value as string);
      void this.#sweep();
      throw error;
    }
    if (found === 'claimed') this.#remember(key, value);
    return found as 'claimed' | 'in_progress' | 'done';
  }

  /** Marks `id` as done for `ttlMs`, replacing a claim (this store's or, after it expired, another's). */
  async markDone(id: string, ttlMs: number): Promise<void> {
    const key = this.#keyOf(id);
    this.#ownClaims.delete(key);
    await this.add(id, ttlMs);
  }

  /**
   * Forgets `id`. A claim this store made is deleted only while Redis still holds that claim (compare-and-delete), so
   * a release after it expired leaves alone what another replica claimed or finished since; any other id is deleted.
   */
  async delete(id: string): Promise<void> {
    const key = this.#keyOf(id);
    const own = this.#ownClaims.get(key);
    this.#ownClaims.delete(key);
    if (own !== undefined) await this.#call(() => this.#redis.compareAndDelete(key, own));
    else await this.#call(() => this.#redis.eval(DELETE, [key], []));
  }

  /** Deletes the orphaned claims, trying again every ORPHAN_SWEEP_MS while Redis is away. */
  async #sweep(): Promise<void> {
    if (this.#sweeping) return;
    this.#sweeping = true;
    try {
      while (this.#orphans.size > 0) {
        for (const [value, orphan] of this.#orphans) {
          try {
            const deleted = await this.#redis.compareAndDelete(orphan.key, value);
            orphan.reachedAt ??= Date.now();
            if (deleted || Date.now() - orphan.reachedAt > ORPHAN_WATCH_MS) this.#orphans.delete(value);
          } catch {
            break;
          }
        }
        if (this.#orphans.size > 0) await pause(ORPHAN_SWEEP_MS);
      }
    } finally {
      this.#sweeping = false;
    }
  }

  #keyOf(id: string): string {
    return `${this.#prefix}:dedupe:${id}`;
  }

  #remember(key: string, value: string): void {
    this.#ownClaims.set(key, value);
    if (this.#ownClaims.size > MAX_OWN_CLAIMS) this.#ownClaims.delete(this.#ownClaims.keys().next().value as string);
  }

  /** Runs a command; a failure rejects (the handler answers 500) and is told to the logger once per outage. */
  async #call<T>(run: () => Promise<T>): Promise<T> {
    try {
      const result = await run();
      if (this.#down) {
        this.#down = false;
        this.#logger.info('RedisDedupeStore: Redis answers again; deliveries are deduped through it again.');
      }
      return result;
    } catch (error) {
      const message = `RedisDedupeStore: ${(error as Error).message}`;
      if (!this.#down) {
        this.#down = true;
        this.#logger.warn(
          `${message}; deliveries are answered 500 (so the gateway retries them later) until Redis answers again.`,
        );
      }
      throw new Error(`${message}; the delivery is answered 500 so the gateway retries it later.`, { cause: error });
    }
  }
}

/** Waits `ms` without keeping a Node process alive for it. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms) as { unref?: () => void };
    timer.unref?.();
  });
}

/** 128 random bits as hex, from Web Crypto (no `node:crypto` in this entry). */
function token(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
