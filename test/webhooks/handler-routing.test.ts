import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { DeliveryContext } from '../../src/webhooks/handler.js';
import {
  createTestDelivery,
  createWebhookHandler,
  type MessageAckEvent,
  type WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { clockAtNow, deviceStatus, messageAck, messageReceived, NOW_S, TENANT_SECRET } from './support/fixtures.js';

const deliver = (event: Parameters<typeof createTestDelivery>[0]['event'], secret = TENANT_SECRET) =>
  createTestDelivery({ event: event as never, secret, timestamp: NOW_S });

describe('createWebhookHandler routes each delivery to its handler and answers the gateway', () => {
  it('calls the handler for the event with the typed event and answers 200 {"status":"success"}', async () => {
    const onAck = vi.fn((event: MessageAckEvent & { known: true }, context: DeliveryContext) => {
      expectTypeOf(event.data.status_code).toEqualTypeOf<number>();
      expect(context.deliveryId).toMatch(/^[0-9a-f-]{36}$/);
      expect(context.deliveryId).toBe(context.request.headers.get('x-service-delivery-id'));
    });
    const onReceived = vi.fn();
    const handler = createWebhookHandler({
      secret: TENANT_SECRET,
      clock: clockAtNow(),
      on: { 'message.ack': onAck, 'message.received': onReceived },
    });
    const response = await handler(deliver(messageAck).request);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"status":"success"}');
    expect(onAck).toHaveBeenCalledWith(
      expect.objectContaining({ event: 'message.ack', data: messageAck.data }),
      expect.anything(),
    );
    expect(onReceived).not.toHaveBeenCalled();
  });

  it('types each inline handler by its event name, with no annotation', () => {
    createWebhookHandler({
      secret: TENANT_SECRET,
      on: {
        'message.ack': (event) => {
          expectTypeOf(event.data.status).toEqualTypeOf<'sent' | 'delivered' | 'read' | 'played'>();
        },
        'device.qr': (event) => {
          expectTypeOf(event.data.attempt).toEqualTypeOf<number>();
          expectTypeOf(event.event).toEqualTypeOf<'device.qr'>();
        },
      },
    });
  });

  it('acknowledges an event that has no handler without doing anything', async () => {
    const handler = createWebhookHandler({ secret: TENANT_SECRET, clock: clockAtNow(), on: {} });
    expect((await handler(deliver(deviceStatus).request)).status).toBe(200);
  });

  it('gives unknown events to onUnknown, and acknowledges them', async () => {
    const onUnknown = vi.fn();
    const handler = createWebhookHandler({ secret: TENANT_SECRET, clock: clockAtNow(), onUnknown });
    const unknown = { event: 'call.missed', device_id: 'device-1', timestamp: NOW_S, data: { from: '62812' } };
    expect((await handler(deliver(unknown).request)).status).toBe(200);
    expect(onUnknown).toHaveBeenCalledWith({ ...unknown, known: false }, expect.anything());
  });

  it('answers 401 with a JSON reason on a wrong secret, and tells onRejected', async () => {
    const onRejected = vi.fn();
    const handled = vi.fn();
    const handler = createWebhookHandler({
      secret: TENANT_SECRET,
      clock: clockAtNow(),
      onRejected,
      on: { 'message.received': handled },
    });
    const response = await handler(deliver(messageReceived, 'whsec_live_99999999999999999999999999999999').request);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      status: 'error',
      code: 'secret_mismatch',
      message: expect.any(String),
    });
    expect(onRejected.mock.calls[0]?.[0] as WebhookVerificationError).toMatchObject({ code: 'secret_mismatch' });
    expect(handled).not.toHaveBeenCalled();
  });

  it.each([
    ['stale timestamp', { timestamp: NOW_S - 3600 }, 401, 'stale_timestamp'],
    ['future timestamp', { timestamp: NOW_S + 3600 }, 401, 'future_timestamp'],
    ['missing secret', { drop: 'X-Service-Secret' }, 401, 'missing_secret_header'],
    ['missing timestamp', { drop: 'X-Service-Timestamp' }, 400, 'missing_header'],
    ['event header mismatch', { set: ['X-Service-Event', 'device.qr'] }, 400, 'event_mismatch'],
    ['invalid json', { body: '{"event":' }, 400, 'invalid_json'],
    ['bad payload', { body: JSON.stringify({ ...messageReceived, data: {} }) }, 400, 'invalid_payload'],
    ['too large', { body: ' '.repeat(1_048_577) }, 413, 'body_too_large'],
  ] as const)('answers a %s with %i and its code', async (_, change, status, code) => {
    const d = createTestDelivery({
      event: messageReceived,
      secret: TENANT_SECRET,
      timestamp: 'timestamp' in change ? change.timestamp : NOW_S,
    });
    const headers: Record<string, string> = { ...d.headers };
    if ('drop' in change) delete headers[change.drop];
    if ('set' in change) headers[change.set[0]] = change.set[1];
    const body = 'body' in change ? change.body : d.body;
    const handler = createWebhookHandler({ secret: TENANT_SECRET, clock: clockAtNow() });
    const response = await handler(new Request('https://receiver.test/hook', { method: 'POST', headers, body }));
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ status: 'error', code });
  });

  it('answers 500 when the handler throws synchronously, so the gateway retries', async () => {
    const handler = createWebhookHandler({
      secret: TENANT_SECRET,
      clock: clockAtNow(),
      onError: () => {},
      on: {
        'message.received': () => {
          throw new Error('secret business logic detail');
        },
      },
    });
    const response = await handler(deliver(messageReceived).request);
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('secret business logic detail');
  });

  it('answers 405 to anything but POST', async () => {
    const handler = createWebhookHandler({ secret: TENANT_SECRET });
    const response = await handler(new Request('https://receiver.test/hook'));
    expect(response.status).toBe(405);
    expect(await response.json()).toMatchObject({ code: 'method_not_allowed' });
  });

  it('refuses a handler for an event name that is not in the catalog at set-up', () => {
    expect(() =>
      createWebhookHandler({ secret: TENANT_SECRET, on: { 'message.recieved': () => {} } as never }),
    ).toThrow(/options\.on\["message\.recieved"\] is not an event in the catalog/);
  });

  it('refuses a bad secret at set-up, not on the first delivery', () => {
    expect(() => createWebhookHandler({ secret: 'whsec_live_nope' })).toThrow(
      /options\.secret is not a webhook secret/,
    );
  });

  it('serves a custom header prefix', async () => {
    const handler = createWebhookHandler({ secret: TENANT_SECRET, clock: clockAtNow(), headerPrefix: 'X-Acme-' });
    const branded = createTestDelivery({
      event: messageReceived,
      secret: TENANT_SECRET,
      timestamp: NOW_S,
      headerPrefix: 'X-Acme-',
    });
    expect(branded.headers['X-Acme-Secret']).toBe(TENANT_SECRET);
    expect((await handler(branded.request)).status).toBe(200);
    expect((await handler(deliver(messageReceived).request)).status).toBe(401);
  });
});
