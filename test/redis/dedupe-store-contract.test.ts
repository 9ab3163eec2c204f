// One DedupeStore contract, three runs: the in-memory store, and the Redis store on node-redis and on ioredis. The
// Redis runs alternate between two stores on two connections, so every rule is also proven across "processes".
import { RedisDedupeStore } from 'linkgate/redis';
import { MemoryDedupeStore } from 'linkgate/webhooks';
import { beforeAll, describe } from 'vitest';
import { dedupeStoreContract } from '../webhooks/support/dedupe-store-contract.js';
import { CLIENT_LIBRARIES } from './support/redis-clients.js';
import { describeWithRedis } from './support/redis-server.js';
import { useClients, useRedisServer } from './support/redis-suite.js';

describe('MemoryDedupeStore, by the DedupeStore contract', () => {
  const store = new MemoryDedupeStore();
  dedupeStoreContract(() => store);
});

describeWithRedis('RedisDedupeStore, by the DedupeStore contract', () => {
  const server = useRedisServer();

  describe.each(CLIENT_LIBRARIES)('on %s', (library) => {
    const connections = useClients(library, server, 2);
    const stores: RedisDedupeStore[] = [];
    let turn = 0;
    beforeAll(() => {
      for (const connected of connections) {
        stores.push(new RedisDedupeStore({ client: connected.client, timeoutMs: 5_000 }));
      }
    });
    dedupeStoreContract(() => stores[turn++ % stores.length] as RedisDedupeStore);
  });
});
