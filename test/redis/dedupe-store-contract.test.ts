// One DedupeStore contract, three runs: the in-memory store, and the Redis store on node-redis and on ioredis. The
// Redis runs alternate between two stores on two connections, so every rule is also proven across "processes".
import { RedisDedupeStore } from 'linkgate/redis';
import { MemoryDedupeStore } from 'linkgate/webhooks';
import { afterAll, beforeAll, describe } from 'vitest';
import { dedupeStoreContract } from '../webhooks/support/dedupe-store-contract.js';
import { CLIENT_LIBRARIES, type ConnectedClient, connectClient } from './support/redis-clients.js';
import { describeWithRedis, type RedisServer, startRedisServer } from './support/redis-server.js';

describe('MemoryDedupeStore, by the DedupeStore contract', () => {
  const store = new MemoryDedupeStore();
  dedupeStoreContract(() => store);
});

describeWithRedis('RedisDedupeStore, by the DedupeStore contract', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe.each(CLIENT_LIBRARIES)('on %s', (library) => {
    const connections: ConnectedClient[] = [];
    const stores: RedisDedupeStore[] = [];
    let turn = 0;
    beforeAll(async () => {
      for (let i = 0; i < 2; i++) {
        const connected = await connectClient(library, server.url);
        connections.push(connected);
        stores.push(new RedisDedupeStore({ client: connected.client, timeoutMs: 5_000 }));
      }
    });
    afterAll(async () => {
      for (const connected of connections) await connected.close();
    });
    dedupeStoreContract(() => stores[turn++ % stores.length] as RedisDedupeStore);
  });
});
