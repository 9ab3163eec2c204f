// The clients users create type-check as the stores' `client`, without casts: node-redis v6 and ioredis v6.
import { Cluster, Redis } from 'ioredis';
import type { RedisClientLike } from 'linkgate/redis';
import { createClient, createCluster } from 'redis';
import { describe, expectTypeOf, it } from 'vitest';

describe('RedisStoreOptions.client', () => {
  it('accepts a node-redis client and cluster as created', () => {
    expectTypeOf(createClient()).toExtend<RedisClientLike>();
    expectTypeOf(createCluster({ rootNodes: [] })).toExtend<RedisClientLike>();
  });

  it('accepts an ioredis client and cluster as created', () => {
    expectTypeOf(new Redis()).toExtend<RedisClientLike>();
    expectTypeOf(new Cluster([])).toExtend<RedisClientLike>();
  });

  it('refuses what is neither', () => {
    expectTypeOf<{ get(key: string): Promise<string> }>().not.toExtend<RedisClientLike>();
  });
});
