// What only the Redis dedupe store does: where it keeps claims and done marks (keys, values, expiries), releases
// that cannot remove another replica's claim, and what a webhook handler answers when Redis is away or slow. The
// store's rules themselves are the contract's (dedupe-store-contract.test.ts).
import { RedisDedupeStore } from 'linkgate/redis';
import { createTestDelivery, createWebhookHandler, type WebhookHandlerOptions } from 'linkgate/webhooks';
import { describe, expect, it, vi } from 'vitest';
import { messageReceived, TENANT_SECRET } from '../webhooks/support/fixtures.js';
import { CLIENT_LIBRARIES, connectClient } from './support/redis-clients.js';
import { describeWithRedis } from './support/redis-server.js';
import { recordingLogger, restartRedisAfterEach, useClient, useRedisServer } from './support/redis-suite.js';

const DAY_MS = 86_400_000;

/** A signed delivery of the example message, stamped now (the handlers here check timestamps on the real clock). */
const deliver = (deliveryId: string) =>
  createTestDelivery({ event: messageReceived, secret: TENANT_SECRET, deliveryId }).request;

describeWithRedis('RedisDedupeStore', () => {
  const redis = useRedisServer();

  describe.each(CLIENT_LIBRARIES)('on %s', (library) => {
    const connected = useClient(library, redis);
    // A test that stopped Redis leaves it running again for the next.
    restartRedisAfterEach(redis);
    let n = 0;
    const id = () => `${library}-${Date.now()}-${++n}`;
    const handlerWith = (store: RedisDedupeStore, options: Partial<WebhookHandlerOptions> = {}) =>
      createWebhookHandler({ secret: TENANT_SECRET, dedupe: store, onError: () => {}, ...options });

    it('holds a claim under <prefix>:dedupe:<key> for the claim TTL while the handler runs, then a done mark for dedupeTtlMs', async () => {
      const store = new RedisDedupeStore({ client: connected.client, prefix: 'hooks' });
      const deliveryId = id();
      const key = `hooks:dedupe:${deliveryId}`;
      let seen: { value: unknown; ttl: number } | undefined;
      const handler = handlerWith(store, {
        on: {
          'message.received': async () => {
            seen = {
              value: await connected.command(['GET', key]),
              ttl: Number(await connected.command(['PTTL', key])),
            };
          },
        },
      });
      expect((await handler(deliver(deliveryId))).status).toBe(200);
      expect(seen!.value).toMatch(/^claim:[0-9a-f]{32}$/);
      expect(seen!.ttl).toBeGreaterThan(25_000);
      expect(seen!.ttl).toBeLessThanOrEqual(30_000);
      expect(await connected.command(['GET', key])).toBe('done');
      expect(Number(await connected.command(['PTTL', key]))).toBeGreaterThan(DAY_MS - 60_000);
    });

    it('leaves alone a claim another replica made after its own expired, when it releases late', async () => {
      const [a, b] = [
        new RedisDedupeStore({ client: connected.client }),
        new RedisDedupeStore({ client: connected.client }),
      ];
      const key = id();
      expect(await a.claim(key, 150)).toBe('claimed');
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await b.claim(key, DAY_MS)).toBe('claimed');
      // a's handler fails long after its claim expired: its release must not free b's claim.
      await a.delete(key);
      expect(await b.claim(key, DAY_MS)).toBe('in_progress');
      await b.markDone(key, DAY_MS);
      expect(await a.claim(key, DAY_MS)).toBe('done');
    });

    it('answers 500 while Redis is down (said once), and handles the retry once it is back', async () => {
      const logger = recordingLogger();
      const store = new RedisDedupeStore({ client: connected.client, logger, timeoutMs: 200 });
      const handled = vi.fn();
      const onError = vi.fn();
      const handler = handlerWith(store, { onError, on: { 'message.received': handled } });
      const deliveryId = id();
      await redis.stop('SIGKILL');

      const started = performance.now();
      const down = [await handler(deliver(deliveryId)), await handler(deliver(deliveryId))];
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(down.map((r) => r.status)).toEqual([500, 500]);
      expect(await down[0]!.json()).toMatchObject({ status: 'error', code: 'internal_error' });
      expect(handled).not.toHaveBeenCalled();
      expect(onError).toHaveBeenCalledTimes(2);
      expect(onError.mock.calls[0]![0].message).toMatch(
        /^RedisDedupeStore: Redis (did not answer within 200 ms \(timeoutMs\)|failed: .*); the delivery is answered 500 so the gateway retries it later\.$/,
      );
      expect(logger.lines).toEqual([
        expect.stringMatching(
          /^warn: RedisDedupeStore: .*; deliveries are answered 500 \(so the gateway retries them later\) until Redis answers again\.$/,
        ),
      ]);

      await redis.restart();
      const back = performance.now();
      // The client reconnects on its own; the gateway retries (500 and 503 alike) until one is handled.
      let retry = await handler(deliver(deliveryId));
      while (retry.status !== 200 && performance.now() - back < 10_000) {
        expect([500, 503]).toContain(retry.status);
        await new Promise((resolve) => setTimeout(resolve, 100));
        retry = await handler(deliver(deliveryId));
      }
      // A claim that failed but ran later on the restarted Redis was deleted behind it, well before its 30 s
      // expiry: the retry is not held off as "in progress" by a claim nobody works on.
      expect(retry.status).toBe(200);
      expect(handled).toHaveBeenCalledTimes(1);
      expect((await handler(deliver(deliveryId))).status).toBe(200);
      expect(handled).toHaveBeenCalledTimes(1);
      expect(logger.lines[1]).toBe(
        'info: RedisDedupeStore: Redis answers again; deliveries are deduped through it again.',
      );
    });

    it('deletes a claim that timed out but ran late, so the retry is handled instead of answered in_progress', async () => {
      const store = new RedisDedupeStore({ client: connected.client, timeoutMs: 150, logger: recordingLogger() });
      const handled = vi.fn();
      const handler = handlerWith(store, { on: { 'message.received': handled } });
      const deliveryId = id();
      const other = await connectClient(library, redis.url);
      try {
        // Redis holds every command for 600 ms: the claim times out (500), then runs on Redis all the same.
        await other.command(['CLIENT', 'PAUSE', '600', 'WRITE']);
        expect((await handler(deliver(deliveryId))).status).toBe(500);
        await new Promise((resolve) => setTimeout(resolve, 900));
        expect(await connected.command(['EXISTS', `linkgate:dedupe:${deliveryId}`])).toBe(0);
        expect((await handler(deliver(deliveryId))).status).toBe(200);
        expect(handled).toHaveBeenCalledTimes(1);
      } finally {
        await other.command(['CLIENT', 'UNPAUSE']);
        await other.close();
      }
    });

    it('answers 500 within timeoutMs when Redis is slow, instead of holding the gateway past its 8 s', async () => {
      const store = new RedisDedupeStore({ client: connected.client, timeoutMs: 150, logger: recordingLogger() });
      const handler = handlerWith(store, { on: { 'message.received': () => {} } });
      const other = await connectClient(library, redis.url);
      try {
        await other.command(['CLIENT', 'PAUSE', '3000', 'ALL']);
        const started = performance.now();
        const answer = await handler(deliver(id()));
        const elapsed = performance.now() - started;
        expect(answer.status).toBe(500);
        expect(elapsed).toBeGreaterThanOrEqual(140);
        expect(elapsed).toBeLessThan(2_000); // well before the 3 s pause ends
      } finally {
        await other.command(['CLIENT', 'UNPAUSE']);
        await other.close();
      }
    });
  });

  it('refuses something that is not a Redis client, naming what to pass and install', () => {
    expect(() => new RedisDedupeStore({ client: {} as never })).toThrow(
      /^RedisDedupeStore: client must be a connected Redis client of node-redis v6 .*\(npm install redis, or npm install ioredis\)/,
    );
  });
});
