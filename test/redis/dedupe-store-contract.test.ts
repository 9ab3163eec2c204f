// One DedupeStore contract, three runs: the in-memory store, and the Redis store on node-redis and on ioredis. The
// Redis runs alternate between two stores on two connections, so every rule is also proven across "processes".
import { RedisDedupeStore } from 'linkgate/redis';
import { MemoryDedupeStore } from 'linkgate/webhooks';
import { describe } from 'vitest';
import { dedupeStoreContract } from '../webhooks/support/dedupe-store-contract.js';
import { CLIENT_LIBRARIES } from './support/redis-clients.js';
import { describeWithRedis } from './support/redis-server.js';
import { useRedisServer, useStoresInTurn } from './support/redis-suite.js';

describe('MemoryDedupeStore, by the DedupeStore contract', () => {
  const store = new MemoryDedupeStore();
  dedupeStoreContract(() => store);
});

describeWithRedis('RedisDedupeStore, by the DedupeStore contract', () => {
  const server = useRedisServer();

  describe.each(CLIENT_LIBRARIES)('on %s', (library) => {
    const turns = useStoresInTurn(
      library,
      server,
      (connected) => new RedisDedupeStore({ client: connected.client, timeoutMs: 5_000 }),
    );
    dedupeStoreContract(() => turns.stores[turns.next()] as RedisDedupeStore);
  });
});
