// The adapter the Redis stores share: the same few commands on node-redis and on ioredis, against a real redis-server.
import { RedisRateLimitStore } from 'linkgate/redis';
import { describe, expect, it } from 'vitest';
import { redisConnection, redisScript } from '../../src/redis/redis-client.js';
import { CLIENT_LIBRARIES, connectClient } from './support/redis-clients.js';
import { describeWithRedis } from './support/redis-server.js';
import { useClient, useRedisServer } from './support/redis-suite.js';

const unique = () => `test:${Math.random().toString(36).slice(2)}`;

describe('a client that is neither library', () => {
  it.each([
    ['nothing', undefined],
    ['a URL', 'redis://127.0.0.1:6379'],
    ['an object without the commands', { get: async () => null }],
  ])('is refused with a TypeError naming both libraries and how to install them, given %s', (_, client) => {
    expect(() => new RedisRateLimitStore({ client: client as never })).toThrow(TypeError);
    expect(() => new RedisRateLimitStore({ client: client as never })).toThrow(
      /RedisRateLimitStore: client must be a connected Redis client of node-redis v6 \(createClient\(\) of the redis package.*ioredis v6.*npm install redis, or npm install ioredis/,
    );
  });

  it('is refused without an options object, naming what to pass', () => {
    expect(() => new RedisRateLimitStore(undefined as never)).toThrow(/new RedisRateLimitStore\(\{ client \}\)/);
  });

  it('is refused with a timeoutMs that is not a positive number, naming the option', () => {
    const client = { evalSha: async () => null, set: async () => null };
    expect(() => new RedisRateLimitStore({ client: client as never, timeoutMs: 0 })).toThrow(
      /timeoutMs must be a positive/,
    );
  });

  it('is refused with a prefix that would break the hash tag', () => {
    const client = { evalSha: async () => null, set: async () => null };
    expect(() => new RedisRateLimitStore({ client: client as never, prefix: 'a{b}' })).toThrow(
      /prefix must be a non-empty string without \{ or \}/,
    );
  });
});

describeWithRedis('the Redis adapter', () => {
  const server = useRedisServer();

  describe.each(CLIENT_LIBRARIES)('on %s', (library) => {
    const connected = useClient(library, server);
    const redis = () => redisConnection(connected.client, 'test', 1_000);

    it('sets a key only when it is absent (SET NX PX), with the expiry given', async () => {
      const key = unique();
      expect(await redis().setNxPx(key, 'a', 60_000)).toBe(true);
      expect(await redis().setNxPx(key, 'b', 60_000)).toBe(false);
      expect(await connected.command(['GET', key])).toBe('a');
      const ttl = Number(await connected.command(['PTTL', key]));
      expect(ttl).toBeGreaterThan(59_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    });

    it('overwrites a key with a new expiry (SET PX)', async () => {
      const key = unique();
      await redis().setNxPx(key, 'claim', 60_000);
      await redis().set(key, 'done', 3_600_000);
      expect(await connected.command(['GET', key])).toBe('done');
      expect(Number(await connected.command(['PTTL', key]))).toBeGreaterThan(3_500_000);
    });

    it("deletes a key only while it holds the caller's value", async () => {
      const key = unique();
      await redis().set(key, 'mine', 60_000);
      expect(await redis().compareAndDelete(key, 'theirs')).toBe(false);
      expect(await connected.command(['GET', key])).toBe('mine');
      expect(await redis().compareAndDelete(key, 'mine')).toBe(true);
      expect(await connected.command(['EXISTS', key])).toBe(0);
    });

    it('runs a script by its SHA, and sends its source again after Redis forgot it (SCRIPT FLUSH)', async () => {
      const script = redisScript(`return {KEYS[1], ARGV[1], '${library}'}`);
      expect(await redis().eval(script, ['k'], [42])).toEqual(['k', '42', library]);
      expect(await connected.command(['SCRIPT', 'EXISTS', await script.sha()])).toEqual([1]);
      await connected.command(['SCRIPT', 'FLUSH']);
      expect(await redis().eval(script, ['k'], [43])).toEqual(['k', '43', library]);
      expect(await connected.command(['SCRIPT', 'EXISTS', await script.sha()])).toEqual([1]);
    });

    it("sends commands in the order they are asked for, a script's first use included", async () => {
      const conn = redis();
      const key = unique();
      // A script this connection has never run: its SHA-1 must not delay it behind the SET asked for after it.
      const first = conn.eval(redisScript(`return redis.call('SET', KEYS[1], 'first') -- ${key}`), [key], []);
      const second = conn.set(key, 'second', 60_000);
      await Promise.all([first, second]);
      expect(await connected.command(['GET', key])).toBe('second');
    });

    it('fails commands at once while the client reconnects, and never runs them later on the Redis that came back', async () => {
      const conn = redis();
      const settles = (key: string) =>
        conn.set(key, 'probe', 1000).then(
          () => 'ok',
          (error: Error) => error.message,
        );
      const until = async (done: (outcome: string) => boolean) => {
        for (let i = 0; i < 200 && !done(await settles(unique())); i++) await new Promise((r) => setTimeout(r, 25));
      };
      const key = unique();
      await server.stop('SIGKILL');
      try {
        // The client notices the closed socket and starts reconnecting.
        await until((outcome) => outcome.includes('reconnecting'));
        const started = performance.now();
        await expect(conn.setNxPx(key, 'late', 60_000)).rejects.toThrow(
          /Redis failed: the client lost its connection and is reconnecting/,
        );
        expect(performance.now() - started).toBeLessThan(1_000); // at once; queued, it would wait for the restart
      } finally {
        await server.restart();
      }
      await until((outcome) => outcome === 'ok');
      expect(await conn.setNxPx(unique(), 'back', 1000)).toBe(true);
      expect(await connected.command(['EXISTS', key])).toBe(0);
    });

    it('fails a command after timeoutMs when Redis does not answer (paused)', async () => {
      const other = await connectClient(library, server.url);
      try {
        await other.command(['CLIENT', 'PAUSE', '3000', 'ALL']);
        const started = performance.now();
        await expect(redisConnection(connected.client, 'test', 200).setNxPx(unique(), 'a', 1000)).rejects.toThrow(
          /Redis did not answer within 200 ms \(timeoutMs\)/,
        );
        const elapsed = performance.now() - started;
        expect(elapsed).toBeGreaterThanOrEqual(190);
        expect(elapsed).toBeLessThan(2_000); // well before the 3 s pause ends
      } finally {
        await other.command(['CLIENT', 'UNPAUSE']);
        await other.close();
      }
    });
  });
});
