// One RateLimitStore contract, three runs: the in-memory store, and the Redis store on node-redis and on ioredis. The
// Redis runs alternate between two stores on two connections, so every rule is also proven across "processes".
import { MemoryRateLimitStore, type RateLimitStore } from 'linkgate';
import { RedisRateLimitStore } from 'linkgate/redis';
import { describe } from 'vitest';
import { rateLimitStoreContract } from './support/rate-limit-store-contract.js';
import { CLIENT_LIBRARIES } from './support/redis-clients.js';
import { describeWithRedis } from './support/redis-server.js';
import { useRedisServer, useStoresInTurn } from './support/redis-suite.js';

const fail = (line: string): never => {
  throw new Error(`the store fell back to the in-process budget: ${line}`);
};

describe('MemoryRateLimitStore, by the RateLimitStore contract', () => {
  const store = new MemoryRateLimitStore();
  rateLimitStoreContract(() => store);
});

describeWithRedis('RedisRateLimitStore, by the RateLimitStore contract', () => {
  const server = useRedisServer();

  describe.each(CLIENT_LIBRARIES)('on %s', (library) => {
    // A fallback to the in-process budget would hide a broken script, so here it fails the test instead.
    const logger = { info: () => {}, warn: (line: string) => fail(line) };
    const turns = useStoresInTurn(
      library,
      server,
      (connected) => new RedisRateLimitStore({ client: connected.client, timeoutMs: 5_000, logger }),
    );
    // observe() does not wait for Redis; a PING behind it on the same connection does, so the next step sees it.
    const settled = (i: number): RateLimitStore => {
      const store = turns.stores[i] as RedisRateLimitStore;
      return {
        take: (...args) => store.take(...args),
        observe: async (...args) => {
          store.observe(...args);
          await turns.connections[i]?.command(['PING']);
        },
        block: (...args) => store.block(...args),
      };
    };
    rateLimitStoreContract(() => settled(turns.next()));
  });
});
