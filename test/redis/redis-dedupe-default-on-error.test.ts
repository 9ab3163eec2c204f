// What a receiver without its own onError prints when the Redis dedupe store fails: the store and the step it could
// not do (claim, mark done, release), never "the handler failed" for a handler that did not run or that succeeded.
import { RedisDedupeStore } from 'linkgate/redis';
import { createTestDelivery, createWebhookHandler } from 'linkgate/webhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messageReceived, TENANT_SECRET } from '../webhooks/support/fixtures.js';
import { CLIENT_LIBRARIES, connectClient } from './support/redis-clients.js';
import { describeWithRedis } from './support/redis-server.js';
import { recordingLogger, restartRedisAfterEach, useClient, useRedisServer } from './support/redis-suite.js';

const deliver = (deliveryId: string) =>
  createTestDelivery({ event: messageReceived, secret: TENANT_SECRET, deliveryId }).request;

describeWithRedis('the default onError when the Redis dedupe store fails', () => {
  const redis = useRedisServer();
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe.each(CLIENT_LIBRARIES)('on %s', (library) => {
    const connected = useClient(library, redis);
    restartRedisAfterEach(redis);
    let n = 0;
    const id = () => `${library}-onerror-${Date.now()}-${++n}`;

    /** Delivers once through a handler with the default onError; returns the answer and what console.error got. */
    async function deliverOnce(handle: () => unknown, timeoutMs = 2_000) {
      const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
      const store = new RedisDedupeStore({ client: connected.client, timeoutMs, logger: recordingLogger() });
      const handler = createWebhookHandler({
        secret: TENANT_SECRET,
        dedupe: store,
        on: { 'message.received': handle },
      });
      const answer = await handler(deliver(id()));
      return { status: answer.status, lines: printed.mock.calls.map(([line, error]) => ({ line, error })) };
    }

    it('names the store and the claim it could not make when Redis is down, and says the handler did not run', async () => {
      await redis.stop('SIGKILL');
      const handled = vi.fn();
      const { status, lines } = await deliverOnce(handled, 200);
      expect(status).toBe(500);
      expect(handled).not.toHaveBeenCalled();
      expect(lines).toEqual([
        {
          line: 'linkgate/webhooks: the dedupe store (options.dedupe) could not claim the message.received delivery, so its handler did not run (answered 500); pass onError to handle this.',
          error: expect.objectContaining({ message: expect.stringMatching(/^RedisDedupeStore: /) }),
        },
      ]);
    });

    it('says the same when Redis does not answer within timeoutMs', async () => {
      const other = await connectClient(library, redis.url);
      try {
        await other.command(['CLIENT', 'PAUSE', '1000', 'ALL']);
        const { status, lines } = await deliverOnce(() => {}, 150);
        expect(status).toBe(500);
        expect(lines.map((l) => l.line)).toEqual([
          expect.stringMatching(/could not claim the message\.received delivery, so its handler did not run/),
        ]);
        expect(String(lines[0]?.error)).toMatch(/RedisDedupeStore: Redis did not answer within 150 ms \(timeoutMs\)/);
      } finally {
        await other.command(['CLIENT', 'UNPAUSE']);
        await other.close();
      }
    });

    it('names the done mark it could not write after a handler that succeeded (answered 200)', async () => {
      const { status, lines } = await deliverOnce(() => redis.stop('SIGKILL'), 200);
      expect(status).toBe(200);
      expect(lines.map((l) => l.line)).toEqual([
        'linkgate/webhooks: the dedupe store (options.dedupe) could not mark the message.received delivery done after its handler succeeded (answered 200); pass onError to handle this.',
      ]);
    });

    it('names the claim it could not release after a handler that failed, then the handler failure itself', async () => {
      const failure = new Error('saveMessage failed');
      const { status, lines } = await deliverOnce(async () => {
        await redis.stop('SIGKILL');
        throw failure;
      }, 200);
      expect(status).toBe(500);
      expect(lines).toEqual([
        {
          line: 'linkgate/webhooks: the dedupe store (options.dedupe) could not release its claim on the message.received delivery after its handler failed; pass onError to handle this.',
          error: expect.objectContaining({ message: expect.stringMatching(/^RedisDedupeStore: /) }),
        },
        {
          line: 'linkgate/webhooks: the message.received handler failed; pass onError to handle this.',
          error: failure,
        },
      ]);
    });
  });
});
