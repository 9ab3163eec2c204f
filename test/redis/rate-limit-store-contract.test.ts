// One RateLimitStore contract, three runs: the in-memory store, and the Redis store on node-redis and on ioredis. The
// Redis runs alternate between two stores on two connections, so every rule is also proven across "processes".
import { MemoryRateLimitStore, type RateLimitStore } from 'linkgate';
import { RedisRateLimitStore } from 'linkgate/redis';
import { afterAll, beforeAll, describe } from 'vitest';
import { rateLimitStoreContract } from './support/rate-limit-store-contract.js';
import { CLIENT_LIBRARIES, type ConnectedClient, connectClient } from './support/redis-clients.js';
import { describeWithRedis, type RedisServer, startRedisServer } from './support/redis-server.js';

const fail = (line: string): never => {
  throw new Error(`the store fell back to the in-process budget: ${line}`);
};

describe('MemoryRateLimitStore, by the RateLimitStore contract', () => {
  const store = new MemoryRateLimitStore();
  rateLimitStoreContract(() => store);
});

describeWithRedis('RedisRateLimitStore, by the RateLimitStore contract', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe.each(CLIENT_LIBRARIES)('on %s', (library) => {
    const connections: ConnectedClient[] = [];
    const stores: RedisRateLimitStore[] = [];
    let turn = 0;
    beforeAll(async () => {
      for (let i = 0; i < 2; i++) {
        const connected = await connectClient(library, server.url);
        connections.push(connected);
        // A fallback to the in-process budget would hide a broken script, so here it fails the test instead.
        const logger = { info: () => {}, warn: (line: string) => fail(line) };
        stores.push(new RedisRateLimitStore({ client: connected.client, timeoutMs: 5_000, logger }));
      }
    });
    afterAll(async () => {
      for (const connected of connections) await connected.close();
    });
    // observe() does not wait for Redis; a PING behind it on the same connection does, so the next step sees it.
    const settled = (i: number): RateLimitStore => {
      const store = stores[i] as RedisRateLimitStore;
      return {
        take: (...args) => store.take(...args),
        observe: async (...args) => {
          store.observe(...args);
          await connections[i]?.command(['PING']);
        },
        block: (...args) => store.block(...args),
      };
    };
    rateLimitStoreContract(() => settled(turn++ % stores.length));
  });
});
