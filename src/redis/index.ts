/**
 * `linkgate/redis`: the stores that let several processes share what one process keeps in memory, on the Redis you
 * already run. {@link RedisRateLimitStore} gives every worker that uses one API key one request budget;
 * {@link RedisDedupeStore} lets webhook receivers running as several replicas handle each event once.
 *
 * The stores take your connected client, node-redis v6 (`redis`) or ioredis v6 (`ioredis`), both optional peer
 * dependencies: this entry imports neither, and refuses anything else with a TypeError naming what to install.
 *
 * @example
 * import { Redis } from 'ioredis';
 * import { Linkgate } from 'linkgate';
 * import { RedisRateLimitStore } from 'linkgate/redis';
 *
 * const rateLimitStore = new RedisRateLimitStore({ client: new Redis(process.env.REDIS_URL!) });
 * const client = new Linkgate({ apiKey: process.env.LINKGATE_API_KEY, rateLimitStore });
 *
 * @packageDocumentation
 * @module linkgate/redis
 */
export { RedisDedupeStore } from './dedupe-store.js';
export type { RedisClientLike } from './redis-client.js';
export { RedisRateLimitStore } from './redis-rate-limit-store.js';
export type { RedisStoreOptions } from './redis-store-options.js';
