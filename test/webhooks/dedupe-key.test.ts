import { describe, expect, it, vi } from 'vitest';
import { eventIdentity } from '../../src/webhooks/dedupe-key.js';
import {
  createTestDelivery,
  createWebhookHandler,
  createWebhookVerifier,
  MemoryDedupeStore,
  parseWebhookEvent,
  type WebhookHandlerOptions,
} from '../../src/webhooks/index.js';
import {
  catalogExamples,
  clockAtNow,
  deviceStatus,
  messageAck,
  messageReceived,
  NOW_S,
  TENANT_SECRET,
} from './support/fixtures.js';

type AnyEvent = Parameters<typeof createTestDelivery>[0]['event'];

const deliver = (event: AnyEvent, deliveryId: string) =>
  createTestDelivery({ event, secret: TENANT_SECRET, timestamp: NOW_S, deliveryId }).request;

const handlerKeyedBy = (dedupeKey: WebhookHandlerOptions['dedupeKey'], handled: () => unknown) =>
  createWebhookHandler({
    secret: TENANT_SECRET,
    clock: clockAtNow(),
    dedupe: new MemoryDedupeStore(),
    dedupeKey,
    on: { 'message.received': handled, 'message.ack': handled, 'device.status': handled },
    onUnknown: handled,
    onError: () => {},
  });

describe("dedupeKey: 'event' recognises one event whatever its delivery id", () => {
  it('identifies each event of the catalog by the fields of the table', async () => {
    const examples = await catalogExamples();
    const identities = Object.fromEntries(
      Object.values(examples).map((example) => [example.event, eventIdentity(parseWebhookEvent(example))]),
    );
    expect(identities).toEqual({
      'message.received': 'message.received:device-1:3EB0C767D26A1D5A9F3B',
      'message.sent': 'message.sent:device-1:BAE5F2C1D0E9A8B7:sent',
      'message.ack': 'message.ack:device-1:BAE5F2C1D0E9A8B7:read',
      'device.status': `device.status:device-1:ONLINE:${NOW_S}`,
      'device.qr': `device.qr:device-1:${encodeURIComponent('2@Xy9k3LmN0pQrStUv,AbCdEf==,GhIjKl==,MnOpQr==')}`,
    });
  });

  it('escapes the parts, so ids containing ":" cannot make two events collide', () => {
    const a = { ...messageReceived, device_id: 'a:b', data: { ...messageReceived.data, message_id: 'c' } };
    const b = { ...messageReceived, device_id: 'a', data: { ...messageReceived.data, message_id: 'b:c' } };
    expect(eventIdentity(parseWebhookEvent(a))).not.toBe(eventIdentity(parseWebhookEvent(b)));
  });

  it('handles an event sent twice with two delivery ids once', async () => {
    const handled = vi.fn();
    const handler = handlerKeyedBy('event', handled);
    expect((await handler(deliver(messageReceived, 'attempt-1'))).status).toBe(200);
    expect((await handler(deliver(messageReceived, 'attempt-2'))).status).toBe(200);
    expect(handled).toHaveBeenCalledTimes(1);
  });

  it('handles it twice with the default key, the delivery id', async () => {
    const handled = vi.fn();
    const handler = handlerKeyedBy(undefined, handled);
    await handler(deliver(messageReceived, 'attempt-1'));
    await handler(deliver(messageReceived, 'attempt-2'));
    expect(handled).toHaveBeenCalledTimes(2);
  });

  it('tells apart the receipts of one message (delivered, then read) and two status changes of one device', async () => {
    const handled = vi.fn();
    const handler = handlerKeyedBy('event', handled);
    const delivered = { ...messageAck, data: { ...messageAck.data, status: 'delivered' as const, status_code: 2 } };
    await handler(deliver(delivered, 'a'));
    await handler(deliver(messageAck, 'b'));
    await handler(deliver(deviceStatus, 'c'));
    await handler(deliver({ ...deviceStatus, timestamp: NOW_S + 60 }, 'd'));
    expect(handled).toHaveBeenCalledTimes(4);
  });

  it('keys an event outside the catalog by its delivery id, since its identity is not known', async () => {
    const handled = vi.fn();
    const handler = handlerKeyedBy('event', handled);
    const unknown = { event: 'contact.updated', device_id: 'device-1', timestamp: NOW_S, data: { id: 'x' } };
    await handler(deliver(unknown as never, 'u-1'));
    await handler(deliver(unknown as never, 'u-1'));
    await handler(deliver(unknown as never, 'u-2'));
    expect(handled).toHaveBeenCalledTimes(2);
  });

  it('does not need the delivery id header', async () => {
    const handled = vi.fn();
    const handler = handlerKeyedBy('event', handled);
    const { headers, body } = createTestDelivery({ event: messageReceived, secret: TENANT_SECRET, timestamp: NOW_S });
    const withoutId = new Headers(headers);
    withoutId.delete('X-Service-Delivery-ID');
    const request = () => new Request('http://localhost/hook', { method: 'POST', headers: withoutId, body });
    expect((await handler(request())).status).toBe(200);
    expect((await handler(request())).status).toBe(200);
    expect(handled).toHaveBeenCalledTimes(1);
  });

  it("returns the key from a verifier's verifyDelivery, to release it by hand", async () => {
    const verifier = createWebhookVerifier({
      secret: TENANT_SECRET,
      clock: clockAtNow(),
      dedupe: true,
      dedupeKey: 'event',
    });
    const first = await verifier.verifyDelivery(deliver(messageReceived, 'attempt-1'));
    expect(first).toMatchObject({ duplicate: false, deliveryId: 'attempt-1' });
    expect(first.dedupeKey).toBe('message.received:device-1:3EB0C767D26A1D5A9F3B');
    expect((await verifier.verifyDelivery(deliver(messageReceived, 'attempt-2'))).duplicate).toBe(true);
  });
});

describe('dedupeKey as a function', () => {
  it('dedupes by the key it returns', async () => {
    const handled = vi.fn();
    const handler = handlerKeyedBy((event) => `by-device:${event.device_id}`, handled);
    await handler(deliver(messageReceived, 'a'));
    await handler(deliver(messageAck, 'b'));
    expect(handled).toHaveBeenCalledTimes(1);
  });

  it('answers 500 and tells onError when it returns no string', async () => {
    const onError = vi.fn();
    const handler = createWebhookHandler({
      secret: TENANT_SECRET,
      clock: clockAtNow(),
      dedupe: true,
      dedupeKey: () => undefined as unknown as string,
      onError,
    });
    expect((await handler(deliver(messageReceived, 'a'))).status).toBe(500);
    expect(onError.mock.calls[0]![0]).toEqual(
      new TypeError('options.dedupeKey returned undefined; it must return a non-empty string.'),
    );
  });

  it('is refused at set-up when it is neither a known name nor a function', () => {
    expect(() => createWebhookHandler({ secret: TENANT_SECRET, dedupe: true, dedupeKey: 'id' as never })).toThrow(
      new TypeError(
        `options.dedupeKey must be 'deliveryId', 'event' or a function (event, deliveryId) => key; got "id".`,
      ),
    );
  });
});
