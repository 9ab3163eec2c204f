import type { Logger } from '../core/logger.js';
import { type RedisClientLike, type RedisConnection, redisConnection } from './redis-client.js';

/** Options of the Redis stores ({@link RedisRateLimitStore}, and the dedupe store). */
export interface RedisStoreOptions {
  /**
   * Your connected client: node-redis v6 (`createClient()` from `redis`, after `await client.connect()`) or ioredis v6
   * (`new Redis()` from `ioredis`). The store never connects, reconnects or closes it.
   */
  client: RedisClientLike;
  /**
   * The first part of every key, so several apps can share one Redis: keys look like `{<prefix>:<fingerprint>}:rate`.
   * @default 'linkgate'
   */
  prefix?: string;
  /**
   * Where the store reports that Redis became unavailable and that it answers again (once each per outage).
   * @default console
   */
  logger?: Pick<Logger, 'warn' | 'info'>;
  /**
   * How long one Redis command may take, in ms, before the store treats Redis as unavailable, so a slow Redis never
   * stalls a request for long. Redis answers in well under a millisecond, but on a host whose CPUs are oversubscribed a
   * healthy Redis took up to 0.6 s (measured), and a false alarm costs a shared budget; a slow Redis costs at most one
   * call a second this long.
   * @default 2000
   */
  timeoutMs?: number;
}

/** What every Redis store's constructor makes of its options: the connection, the prefix and the logger. */
export interface RedisStoreSetup {
  redis: RedisConnection;
  prefix: string;
  logger: Pick<Logger, 'warn' | 'info'>;
}

/** Checks a Redis store's options and sets it up; `owner` names the store in the TypeErrors it throws. */
export function setUpRedisStore(options: RedisStoreOptions, owner: string): RedisStoreSetup {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${owner}: pass an options object: new ${owner}({ client }) with your connected Redis client.`);
  }
  return {
    redis: redisConnection(options.client, owner, options.timeoutMs),
    prefix: checkPrefix(options.prefix, owner),
    logger: options.logger ?? console,
  };
}

/** What every Redis store checks in its options; `owner` names the store in the errors. */
export function checkPrefix(prefix: unknown, owner: string): string {
  if (prefix === undefined) return 'linkgate';
  // Braces would break the hash tag that keeps a store's keys in one Redis Cluster slot.
  if (typeof prefix !== 'string' || prefix === '' || /[{}]/.test(prefix)) {
    throw new TypeError(
      `${owner}: prefix must be a non-empty string without { or } (got ${JSON.stringify(prefix) ?? String(prefix)}); pass e.g. 'myapp'.`,
    );
  }
  return prefix;
}
