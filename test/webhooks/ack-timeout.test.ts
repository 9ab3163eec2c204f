import { describe, expect, it, vi } from 'vitest';
import { createTestDelivery, createWebhookHandler } from '../../src/webhooks/index.js';
import { clockAtNow, messageReceived, NOW_S, TENANT_SECRET } from './support/fixtures.js';

const request = () =>
  createTestDelivery({ event: messageReceived, secret: TENANT_SECRET, timestamp: NOW_S, deliveryId: 'slow-1' }).request;

/** A handler that finishes only when told to. */
function controllable() {
  let finish!: () => void;
  let fail!: (error: Error) => void;
  const fn = vi.fn(
    () =>
      new Promise<void>((resolve, reject) => {
        finish = resolve;
        fail = reject;
      }),
  );
  return { fn, finish: () => finish(), fail: (e: Error) => fail(e) };
}

describe('a slow handler is acknowledged before the gateway gives up', () => {
  it('answers 200 at ackTimeoutMs while the handler is still running', async () => {
    const clock = clockAtNow();
    const slow = controllable();
    const handler = createWebhookHandler({ secret: TENANT_SECRET, clock, on: { 'message.received': slow.fn } });
    let answered: Response | undefined;
    const pending = handler(request()).then((r) => {
      answered = r;
    });
    await clock.advance(6_999);
    expect(answered).toBeUndefined();
    await clock.advance(1);
    await pending;
    expect(answered?.status).toBe(200);
    expect(await answered?.json()).toEqual({ status: 'success' });
    slow.finish();
  });

  it('reports a failure after the acknowledgement to onError, marked acknowledged', async () => {
    const clock = clockAtNow();
    const slow = controllable();
    const onError = vi.fn();
    const handler = createWebhookHandler({
      secret: TENANT_SECRET,
      clock,
      ackTimeoutMs: 2_000,
      onError,
      on: { 'message.received': slow.fn },
    });
    const pending = handler(request());
    await clock.advance(2_000);
    expect((await pending).status).toBe(200);
    expect(onError).not.toHaveBeenCalled();
    slow.fail(new Error('late failure'));
    await clock.advance(0);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'late failure' }), {
      event: 'message.received',
      deliveryId: 'slow-1',
      acknowledged: true,
    });
  });

  it('answers as soon as a fast handler resolves and leaves no timer behind', async () => {
    const clock = clockAtNow();
    const handler = createWebhookHandler({ secret: TENANT_SECRET, clock, on: { 'message.received': async () => {} } });
    expect((await handler(request())).status).toBe(200);
    expect(clock.pending).toBe(0);
  });

  it('answers 500 when the handler fails before the timeout', async () => {
    const clock = clockAtNow();
    const slow = controllable();
    const onError = vi.fn();
    const handler = createWebhookHandler({
      secret: TENANT_SECRET,
      clock,
      onError,
      on: { 'message.received': slow.fn },
    });
    const pending = handler(request());
    await clock.advance(3_000);
    slow.fail(new Error('boom'));
    const response = await pending;
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      status: 'error',
      code: 'handler_error',
      message: 'The webhook handler failed; answering 500 so the gateway retries.',
    });
    expect(onError).toHaveBeenCalledWith(expect.any(Error), expect.objectContaining({ acknowledged: false }));
    expect(clock.pending).toBe(0);
  });

  it('waits for the handler however long with ackTimeoutMs: false', async () => {
    const clock = clockAtNow();
    const slow = controllable();
    const handler = createWebhookHandler({
      secret: TENANT_SECRET,
      clock,
      ackTimeoutMs: false,
      on: { 'message.received': slow.fn },
    });
    let answered = false;
    const pending = handler(request()).then((r) => {
      answered = true;
      return r;
    });
    await clock.advance(60_000);
    expect(answered).toBe(false);
    slow.finish();
    expect((await pending).status).toBe(200);
  });
});
