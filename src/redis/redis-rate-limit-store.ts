import {
  type AssumedWindow,
  DEFAULT_ASSUMED_WINDOW,
  MemoryRateLimitStore,
  type RateLimitObservation,
  type RateLimitStore,
  type TakeResult,
} from '../core/rate-limit-store.js';
import { BLOCK, OBSERVE, TAKE } from './rate-limit-scripts.js';
import type { RedisConnection } from './redis-client.js';
import { type RedisStoreOptions, setUpRedisStore } from './redis-store-options.js';

/** A budget key outlives its window by this much, so the limit an answer stated is still known in the next window. */
const KEY_MARGIN_MS = 3_600_000;

/** After Redis failed, the next command is tried this much later; calls in between use the in-process budget. */
const RETRY_REDIS_MS = 1_000;

/** The limiter's keys are `linkgate:<fingerprint>`; the store's own prefix replaces that first part. */
const LIMITER_PREFIX = 'linkgate:';

/**
 * A {@link RateLimitStore} on Redis: every process and client given a store on the same Redis with the same API key
 * share one budget, so eight workers together keep to the limit one of them would. Each method is one Lua script (one
 * round trip, atomic) with exactly the rules of the in-memory store: the server's fixed window is mirrored, what one
 * process learns from an answer is seen by all, and the server's answer always wins.
 *
 * Keys are `{<prefix>:<fingerprint>}:rate` and `:sharing`, a hash of the API key and origin (never the key),
 * hash-tagged for Redis Cluster, and expire an hour after their window ends.
 *
 * When Redis fails or does not answer within `timeoutMs`, the store uses a budget of this process's own, says so once
 * through `logger`, tries Redis again a second later and goes back to it as soon as it answers. No call fails because
 * a Redis command did. A store Redis counted alone goes on with its own count. A store that shares the budget cannot
 * know what the others took of the window in progress since it last heard, so it sends nothing more in that window
 * and then takes its equal share of each window (the stores Redis saw take lately). A store that had not heard that
 * count for over a window (it idled, or started during the outage) does not trust it: after the window in progress it
 * sends one request per window. The shares then add up to the limit, plus one request per window for each store
 * Redis had not counted (idle for two assumed windows, or started during the outage).
 *
 * @example
 * import { createClient } from 'redis';
 * import { Linkgate } from 'linkgate';
 * import { RedisRateLimitStore } from 'linkgate/redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL }).on('error', console.error).connect();
 * const client = new Linkgate({ apiKey: process.env.LINKGATE_API_KEY, rateLimitStore: new RedisRateLimitStore({ client: redis }) });
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: RedisConnection;
  readonly #prefix: string;
  readonly #logger: Pick<NonNullable<RedisStoreOptions['logger']>, 'warn' | 'info'>;
  /** This process's budget while Redis is away; every answer is merged into it, so it is current when needed. */
  #fallback = new MemoryRateLimitStore();
  /** The latest `now` the limiter passed, for `block`, which gets none, to set its key's expiry. */
  #lastNow = 0;
  /** Null while Redis answers; otherwise when (real time) it may be tried again. */
  #retryAt: number | null = null;
  /** True while one command tries whether Redis is back; the others keep to the fallback meanwhile. */
  #probing = false;
  /** Names this store among those sharing a budget, so each knows how many share it. */
  readonly #id = crypto.randomUUID();
  /** How many stores took from the budget lately (Redis counts them): while Redis is away, this one takes its share. */
  #sharing = 1;
  /** When (limiter time) Redis last told {@link #sharing}; a count older than a window may miss stores that joined. */
  #sharingHeardAt = Number.NEGATIVE_INFINITY;
  /** The longest window an answer stated (its reset minus now), ms: how long a count of sharers stays current. */
  #windowMs = 0;
  /** True once this outage's first fallback take has judged whether the count of sharers could be trusted. */
  #judged = false;
  /** The keys whose window in progress when Redis went away this store has waited out (in this outage). */
  readonly #waitedOut = new Set<string>();
  /** The latest answer's figures per key (the one with the latest reset): the server's window as last stated. */
  readonly #seen = new Map<string, RateLimitObservation>();

  /** Takes your connected client; throws a TypeError naming what to pass when `client` is neither library's. */
  constructor(options: RedisStoreOptions) {
    const { redis, prefix, logger } = setUpRedisStore(options, 'RedisRateLimitStore');
    this.#redis = redis;
    this.#prefix = prefix;
    this.#logger = logger;
  }

  /** Takes one request from the shared budget (see {@link RateLimitStore.take}). */
  async take(key: string, now: number, inFlight: number, assumed: AssumedWindow): Promise<TakeResult> {
    this.#lastNow = Math.max(this.#lastNow, now);
    const args = [now, inFlight, assumed.limit, assumed.windowMs, KEY_MARGIN_MS, this.#id];
    const reply = await this.#run(TAKE, key, args, isTakeReply);
    if (reply === undefined) {
      if (!this.#judged) this.#judgeSharing(now, assumed.windowMs);
      // Alone (Redis counted no other store lately), its own count of the window in progress is exact and it goes on
      // with it; sharing, or not trusting its count, it waits that window out.
      if (this.#sharing > 1 && !this.#waitedOut.has(key)) {
        this.#waitedOut.add(key);
        this.#waitOutCurrentWindow(key, now, assumed);
      }
      return this.#fallback.take(key, now, inFlight, { limit: this.#share(assumed.limit), windowMs: assumed.windowMs });
    }
    const [granted, limit, remaining, resetAt, provisional, sharing] = (reply as unknown[]).map(Number) as number[];
    this.#sharing = Math.max(1, sharing || 1);
    this.#sharingHeardAt = now;
    this.#judged = false;
    this.#waitedOut.clear();
    return {
      granted: granted === 1,
      state: { limit: limit ?? 0, remaining: remaining ?? 0, resetAt: resetAt ?? now, provisional: provisional === 1 },
    };
  }

  /**
   * Merges an answer's figures into the shared budget (see {@link RateLimitStore.observe}). Sent without waiting for
   * Redis, so a call costs one round trip (its take), not two: this process's next take goes over the same connection
   * after it, and Redis runs commands of one connection in order.
   */
  observe(key: string, seen: RateLimitObservation, inFlight: number, now: number): void {
    this.#lastNow = Math.max(this.#lastNow, now);
    this.#windowMs = Math.max(this.#windowMs, seen.resetAt - now);
    if (seen.resetAt >= (this.#seen.get(key)?.resetAt ?? 0)) this.#seen.set(key, seen);
    // Kept as this process's share of what the server said, ready for when Redis goes away.
    const share = { limit: this.#share(seen.limit), remaining: Math.floor(seen.remaining / this.#sharing) };
    this.#fallback.observe(key, { ...share, resetAt: seen.resetAt }, inFlight, now);
    // Nothing waits for it, so nothing may escape it (a logger that throws would end the process).
    this.#run(OBSERVE, key, [seen.limit, seen.remaining, seen.resetAt, inFlight, now, KEY_MARGIN_MS]).catch(() => {});
  }

  /** Spends the shared budget until `resetAt` after a rate-limit answer (see {@link RateLimitStore.block}). */
  async block(key: string, resetAt: number): Promise<void> {
    this.#fallback.block(key, resetAt);
    const now = this.#lastNow || Date.now();
    await this.#run(BLOCK, key, [resetAt, DEFAULT_ASSUMED_WINDOW.limit, now, KEY_MARGIN_MS]);
  }

  /**
   * At the first take of an outage: a count of sharers Redis told more than a window (and the second a whole-second
   * reset adds) ago may miss stores that joined since, so this store takes the smallest share, one request per window
   * after the current one, and forgets the budget it kept with the old count, until Redis answers again.
   */
  #judgeSharing(now: number, assumedWindowMs: number): void {
    this.#judged = true;
    if (now - this.#sharingHeardAt <= (this.#windowMs || assumedWindowMs) + RETRY_REDIS_MS) return;
    this.#sharing = Number.POSITIVE_INFINITY;
    this.#fallback = new MemoryRateLimitStore();
    this.#waitedOut.clear();
  }

  /**
   * At the first take of an outage, for a store that shares the budget: what the others took of the server's window
   * in progress since this store last heard went with Redis, so whatever it still counted on may be spent already (an
   * equal share of that stale count overshot the limit, #31.12). It takes nothing more in that window: until the reset
   * the server last stated, or, when none it stated is still ahead, a whole window from now; either plus the second a
   * whole-second reset may be short. Then it takes its share of each window (one request, not trusting its count).
   */
  #waitOutCurrentWindow(key: string, now: number, assumed: AssumedWindow): void {
    const seen = this.#seen.get(key);
    const stated = this.#sharing !== Number.POSITIVE_INFINITY && seen !== undefined && seen.resetAt > now;
    const resetAt = (stated ? seen.resetAt : now + (this.#windowMs || assumed.windowMs)) + 1000;
    const limit = this.#share(seen?.limit ?? assumed.limit);
    this.#fallback.observe(key, { limit, remaining: 0, resetAt }, 0, now);
  }

  /** This store's share of `n` requests while Redis is away: an equal part among the stores sharing the budget. */
  #share(n: number): number {
    return Math.max(1, Math.floor(n / this.#sharing));
  }

  /**
   * Runs a script on the key's budget (and, for a take, its sharers, whose reply `isTake` checks); undefined when
   * Redis is unavailable or answers what the script cannot have (or is being probed by another call).
   */
  async #run(
    script: typeof TAKE,
    key: string,
    args: (number | string)[],
    isTake?: (reply: unknown) => boolean,
  ): Promise<unknown> {
    const probe = this.#retryAt !== null;
    if (probe && (this.#probing || Date.now() < this.#retryAt!)) return undefined;
    if (probe) this.#probing = true;
    try {
      const keys = isTake ? [this.#keyOf(key, 'rate'), this.#keyOf(key, 'sharing')] : [this.#keyOf(key, 'rate')];
      const reply = await this.#redis.eval(script, keys, args);
      // A proxy or a server that is not Redis may answer anything; that is Redis failing, not a reason to throw.
      if (isTake && !isTake(reply)) {
        throw new Error(`Redis answered ${String(JSON.stringify(reply)).slice(0, 40)}, not the take script's reply`);
      }
      if (this.#retryAt !== null) {
        this.#retryAt = null;
        this.#logger.info('RedisRateLimitStore: Redis answers again; the budget is shared through it again.');
      }
      return reply;
    } catch (error) {
      if (this.#retryAt === null) {
        this.#logger.warn(
          `RedisRateLimitStore: ${(error as Error).message}; using this process's own budget until Redis answers again (tried every ${RETRY_REDIS_MS / 1000} s).`,
        );
      }
      this.#retryAt = Date.now() + RETRY_REDIS_MS;
      return undefined;
    } finally {
      if (probe) this.#probing = false;
    }
  }

  #keyOf(key: string, what: 'rate' | 'sharing'): string {
    const id = key.startsWith(LIMITER_PREFIX) ? key.slice(LIMITER_PREFIX.length) : key;
    return `{${this.#prefix}:${id}}:${what}`;
  }
}

/** True for what the take script returns: six numbers (node-redis and ioredis give integers, or strings of them). */
function isTakeReply(reply: unknown): boolean {
  return Array.isArray(reply) && reply.length === 6 && reply.every((n) => Number.isFinite(Number(n)));
}
