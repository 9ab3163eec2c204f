// What only the Redis store does: where it keeps the budget (keys, expiry, no API key), and what it does when Redis is
// away or slow. The budget's rules themselves are the contract's (rate-limit-store-contract.test.ts).
import { Linkgate } from 'linkgate';
import { type MockServer, startMockServer } from 'linkgate/mock';
import { RedisRateLimitStore } from 'linkgate/redis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RateLimiter } from '../../src/core/rate-limiter.js';
import { systemClock } from '../../src/shared/clock.js';
import { CLIENT_LIBRARIES, connectClient } from './support/redis-clients.js';
import { describeWithRedis } from './support/redis-server.js';
import { recordingLogger, restartRedisAfterEach, useClient, useRedisServer } from './support/redis-suite.js';

const ASSUMED = { limit: 30, windowMs: 60_000 };

describe('RedisRateLimitStore with a logger that throws', () => {
  it('does not let it end the process when an answer cannot reach Redis', async () => {
    // A peer that refuses every command, as a Redis that went away does.
    const refused = async () => {
      throw new Error('connect ECONNREFUSED');
    };
    const client = { evalSha: refused, eval: refused, set: refused };
    const logger = {
      info: () => {},
      warn: () => {
        throw new Error('the logger broke');
      },
    };
    const store = new RedisRateLimitStore({ client, logger });
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      store.observe('linkgate:0a1b2c3d', { limit: 30, remaining: 3, resetAt: Date.now() + 1000 }, 0, Date.now());
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('unhandledRejection', unhandled);
    }
    expect(unhandled).not.toHaveBeenCalled();
  });
});

describe('RedisRateLimitStore on a server that answers garbage', () => {
  it('takes from its own budget, and says so, instead of failing the call', async () => {
    // Redis answers one take (granted, 29 of 30 left, one store sharing), then something else answers +OK to all.
    let calls = 0;
    const answer = async () => (calls++ === 0 ? [1, 30, 29, Date.now() + 60_000, 1, 1] : 'OK');
    const logger = recordingLogger();
    const store = new RedisRateLimitStore({ client: { evalSha: answer, eval: answer, set: answer }, logger });
    await store.take('linkgate:0a1b2c3d', Date.now(), 0, ASSUMED);
    const result = await store.take('linkgate:0a1b2c3d', Date.now(), 1, ASSUMED);
    expect(result).toMatchObject({ granted: true, state: { limit: 30, remaining: 28 } });
    expect(logger.lines).toEqual([
      `warn: RedisRateLimitStore: Redis answered "OK", not the take script's reply; using this process's own budget until Redis answers again (tried every 1 s).`,
    ]);
  });
});

describeWithRedis('RedisRateLimitStore', () => {
  const redis = useRedisServer();
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ seed: 'empty' });
  });
  afterAll(async () => {
    await mock?.close();
  });

  describe.each(CLIENT_LIBRARIES)('on %s', (library) => {
    const connected = useClient(library, redis);
    // A test that stopped Redis leaves it running again for the next.
    restartRedisAfterEach(redis);

    it("keeps a client's budget under one hash-tagged key holding a fingerprint of the API key, never the key, expiring an hour after its window", async () => {
      await connected.command(['FLUSHALL']);
      const apiKey = mock.backend.adminKey;
      const client = new Linkgate({
        apiKey,
        baseUrl: mock.url,
        rateLimitStore: new RedisRateLimitStore({ client: connected.client }),
      });
      await client.account.get();
      await client.account.get();
      const keys = ((await connected.command(['KEYS', '*'])) as string[]).sort();
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^\{linkgate:[0-9a-f]{8}\}:rate$/);
      // Who shares the budget, under the same hash tag: one store so far.
      expect(keys[1]).toBe(keys[0]?.replace(/:rate$/, ':sharing'));
      expect(await connected.command(['HLEN', keys[1] as string])).toBe(1);
      for (const key of keys) expect(key).not.toContain(apiKey);
      const state = await connected.command(['HGETALL', keys[0] as string]);
      // node-redis answers HGETALL as an object, ioredis as a flat list.
      const fields = Array.isArray(state) ? Object.fromEntries(chunk(state as string[])) : (state as object);
      // The server's count wins: the shared budget holds what the last answer said was left.
      expect(fields).toMatchObject({ limit: '30', remaining: String(client.rateLimit?.remaining), provisional: '0' });
      const ttl = Number(await connected.command(['PTTL', keys[0] as string]));
      const resetAt = Number((fields as Record<string, string>).resetAt);
      expect(ttl).toBeGreaterThan(resetAt - Date.now() + 3_500_000);
      expect(ttl).toBeLessThanOrEqual(resetAt - Date.now() + 3_600_000 + 1000);
    });

    it('frees a request held in a shared guessed window at the real, earlier reset another process learned, not the guessed end', async () => {
      const other = await connectClient(library, redis.url);
      try {
        const key = `linkgate:${library === 'ioredis' ? 'held0001' : 'held0002'}`;
        const assumed = { limit: 2, windowMs: 60_000 };
        const a = new RateLimiter({
          clock: systemClock,
          key,
          store: new RedisRateLimitStore({ client: connected.client }),
          assumed,
        });
        const b = new RateLimiter({
          clock: systemClock,
          key,
          store: new RedisRateLimitStore({ client: other.client }),
          assumed,
        });
        await a.acquire();
        await a.acquire();
        const started = performance.now();
        const held = b.acquire()?.then(() => performance.now() - started);
        // A's answers state a 1.5 s window, spent: B waits for its end, not for the guessed window's 60 s.
        a.release();
        a.observe({ limit: 2, remaining: 0, resetAt: Date.now() + 1_500 });
        const waited = await held;
        expect(waited).toBeGreaterThanOrEqual(1_400);
        expect(waited).toBeLessThan(5_000);
      } finally {
        await other.close();
      }
    });

    it('puts its keys under the prefix given', async () => {
      await connected.command(['FLUSHALL']);
      const store = new RedisRateLimitStore({ client: connected.client, prefix: 'myapp' });
      await store.take('linkgate:0a1b2c3d', Date.now(), 0, ASSUMED);
      expect(((await connected.command(['KEYS', '*'])) as string[]).sort()).toEqual([
        '{myapp:0a1b2c3d}:rate',
        '{myapp:0a1b2c3d}:sharing',
      ]);
    });

    it('uses the in-process budget while Redis is down, says so once, and shares through Redis again once it answers', async () => {
      const logger = recordingLogger();
      const store = new RedisRateLimitStore({ client: connected.client, logger, timeoutMs: 200 });
      const key = `linkgate:${library === 'ioredis' ? 'down0001' : 'down0002'}`;
      expect((await store.take(key, Date.now(), 0, ASSUMED)).state.remaining).toBe(29);
      await redis.stop('SIGKILL');

      const started = performance.now();
      const during = [];
      for (let i = 0; i < 5; i++) during.push(await store.take(key, Date.now(), i, ASSUMED));
      // Only the first waits for Redis (up to timeoutMs); the others go straight to the in-process budget.
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(during.every((r) => r.granted)).toBe(true);
      // The in-process budget knows nothing of the shared one's 1 taken: it starts its own window.
      expect(during.map((r) => r.state.remaining)).toEqual([29, 28, 27, 26, 25]);
      await store.observe(key, { limit: 30, remaining: 3, resetAt: Date.now() + 30_000 }, 0, Date.now());
      expect((await store.take(key, Date.now(), 0, ASSUMED)).state.remaining).toBe(2);
      expect(logger.lines).toHaveLength(1);
      expect(logger.lines[0]).toMatch(
        /^warn: RedisRateLimitStore: Redis (did not answer within 200 ms \(timeoutMs\)|failed: .*); using this process's own budget until Redis answers again/,
      );

      await redis.restart();
      // Redis is tried again a second after it failed; the empty restarted Redis starts a new shared window.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      let back = await store.take(key, Date.now(), 0, ASSUMED);
      for (let i = 0; i < 40 && logger.lines.length < 2; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        back = await store.take(key, Date.now(), 0, ASSUMED);
      }
      expect(logger.lines[1]).toBe(
        'info: RedisRateLimitStore: Redis answers again; the budget is shared through it again.',
      );
      // The take that timed out sat in the client's offline queue and may have run on the restarted Redis: it counts
      // against the shared budget, the safe direction.
      expect(back.state).toMatchObject({ limit: 30, provisional: true });
      expect(back.state.remaining).toBeGreaterThanOrEqual(28);
      expect(await connected.command(['EXISTS', `{linkgate:${key.slice(9)}}:rate`])).toBe(1);
    });

    it('takes an equal share of the budget while Redis is down: the stores that shared it lately, counted by Redis', async () => {
      const others = await Promise.all([connectClient(library, redis.url), connectClient(library, redis.url)]);
      try {
        const key = `linkgate:${library === 'ioredis' ? 'share001' : 'share002'}`;
        const logger = recordingLogger();
        const stores = [connected, ...others].map((c) => new RedisRateLimitStore({ client: c.client, logger }));
        for (const store of stores) await store.take(key, Date.now(), 0, ASSUMED);
        const mine = stores[0] as RedisRateLimitStore;
        // Its next take learns that three share the budget.
        await mine.take(key, Date.now(), 1, ASSUMED);
        // An answer: 26 left of 30 in a window ending in 30 s.
        const resetAt = Date.now() + 30_000;
        mine.observe(key, { limit: 30, remaining: 26, resetAt }, 0, Date.now());
        await connected.command(['PING']);
        await redis.stop('SIGKILL');
        const during = [];
        for (let i = 0; i < 10; i++) during.push(await mine.take(key, Date.now(), i, ASSUMED));
        expect(logger.lines[0]).toMatch(/^warn: RedisRateLimitStore: Redis /);
        // What the others took of that window since went with Redis, so a share of the 26 could overshoot the limit
        // (#31.12): it sends nothing more in it, until its reset and the second a whole-second reset may be short...
        expect(during.filter((r) => r.granted)).toHaveLength(0);
        expect(during[0]?.state).toMatchObject({
          limit: 10,
          remaining: 0,
          resetAt: resetAt + 1000,
          provisional: false,
        });
        // ...then takes its third of each window: 10 of 30, where alone it would take all 30.
        const next = [];
        for (let i = 0; i < 12; i++) next.push(await mine.take(key, resetAt + 1000, 0, ASSUMED));
        expect(next.filter((r) => r.granted)).toHaveLength(10);
      } finally {
        await redis.restart();
        for (const other of others) await other.close();
      }
    });

    it('takes one request per window while Redis is down when it had not heard the count of sharers for over a window', async () => {
      const others = await Promise.all([connectClient(library, redis.url), connectClient(library, redis.url)]);
      try {
        const key = `linkgate:${library === 'ioredis' ? 'stale001' : 'stale002'}`;
        const logger = recordingLogger();
        const [idle, busy, third] = [connected, ...others].map(
          (c) => new RedisRateLimitStore({ client: c.client, logger }),
        ) as [RedisRateLimitStore, RedisRateLimitStore, RedisRateLimitStore];
        const t0 = Date.now();
        // The idle store takes first, so Redis tells it it is alone; its answer says 3 s windows.
        await idle.take(key, t0, 0, ASSUMED);
        idle.observe(key, { limit: 30, remaining: 29, resetAt: t0 + 3_000 }, 0, t0 + 50);
        await busy.take(key, t0 + 100, 0, ASSUMED);
        await third.take(key, t0 + 100, 0, ASSUMED);
        // Two windows later the busy store still takes (and learns that three share), then Redis dies.
        await busy.take(key, t0 + 7_000, 0, ASSUMED);
        busy.observe(key, { limit: 30, remaining: 29, resetAt: t0 + 10_000 }, 0, t0 + 7_050);
        await connected.command(['PING']);
        await redis.stop('SIGKILL');
        const take = async (store: RedisRateLimitStore, at: number, n: number) => {
          const granted = [];
          for (let i = 0; i < n; i++) granted.push((await store.take(key, at, i, ASSUMED)).granted);
          return granted.filter(Boolean).length;
        };
        // The busy store's count is current, but what the others took since went with Redis: it waits out the window
        // in progress (to its stated reset and a second), then takes a third of each. The idle one's count is two
        // windows old, so stores may have joined since (two did): it waits out the window the others may have spent
        // (2.95 s, the longest an answer stated, and a second), then takes one request a window, not the whole budget
        // it thinks it has alone.
        expect(await take(busy, t0 + 7_100, 12)).toBe(0);
        expect(await take(busy, t0 + 11_000, 12)).toBe(10);
        expect(await take(idle, t0 + 7_100, 12)).toBe(0);
        expect(await take(idle, t0 + 11_049, 12)).toBe(0);
        expect(await take(idle, t0 + 11_050, 12)).toBe(1);
        idle.observe(key, { limit: 30, remaining: 20, resetAt: t0 + 14_000 }, 1, t0 + 11_100);
        expect(await take(idle, t0 + 13_000, 12)).toBe(0);
        expect(await take(idle, t0 + 14_000, 12)).toBe(1);
      } finally {
        await redis.restart();
        for (const other of others) await other.close();
      }
    });

    it('does not hold a request longer than timeoutMs when Redis is slow', async () => {
      const logger = recordingLogger();
      const store = new RedisRateLimitStore({ client: connected.client, logger, timeoutMs: 150 });
      const other = await connectClient(library, redis.url);
      try {
        // It took a moment ago, so it trusts the count of sharers and keeps taking from its share.
        await store.take('linkgate:slow0001', Date.now(), 0, ASSUMED);
        await other.command(['CLIENT', 'PAUSE', '3000', 'ALL']);
        const started = performance.now();
        const result = await store.take('linkgate:slow0001', Date.now(), 0, ASSUMED);
        const elapsed = performance.now() - started;
        expect(result.granted).toBe(true);
        expect(elapsed).toBeGreaterThanOrEqual(140);
        expect(elapsed).toBeLessThan(2_000); // well before the 3 s pause ends
        expect(logger.lines).toEqual([expect.stringMatching(/Redis did not answer within 150 ms \(timeoutMs\)/)]);
      } finally {
        await other.command(['CLIENT', 'UNPAUSE']);
        await other.close();
      }
    });
  });
});

function chunk(flat: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i] as string, flat[i + 1] as string]);
  return pairs;
}
