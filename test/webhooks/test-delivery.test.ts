import { describe, expect, it } from 'vitest';
import { deliveryHeaders, WEBHOOK_USER_AGENT } from '../../src/webhooks/delivery-headers.js';
import { createTestDelivery, createWebhookHandler, verifyWebhook } from '../../src/webhooks/index.js';
import { clockAtNow, deviceStatus, NOW_S, TENANT_SECRET } from './support/fixtures.js';

describe('createTestDelivery builds a delivery exactly as the gateway sends it', () => {
  it('uses the gateway headers for an event object', () => {
    const d = createTestDelivery({ event: deviceStatus, secret: TENANT_SECRET, timestamp: NOW_S, deliveryId: 'id-1' });
    expect(d.headers).toEqual(
      deliveryHeaders({
        secret: TENANT_SECRET,
        deliveryId: 'id-1',
        event: 'device.status',
        deviceId: 'device-1',
        timestamp: NOW_S,
      }),
    );
    expect(d.headers['User-Agent']).toBe(WEBHOOK_USER_AGENT);
    expect(JSON.parse(d.body)).toEqual(deviceStatus);
  });

  it('fills in the envelope for an event name plus data', async () => {
    const d = createTestDelivery({
      event: 'device.status',
      data: { status: 'LOGGED_OUT', reason: 'unlinked from phone' },
      secret: TENANT_SECRET,
      deviceId: 'dev-7',
      timestamp: NOW_S,
    });
    expect(JSON.parse(d.body)).toEqual({
      event: 'device.status',
      device_id: 'dev-7',
      timestamp: NOW_S,
      data: { status: 'LOGGED_OUT', reason: 'unlinked from phone' },
    });
    await expect(verifyWebhook(d.request, { secret: TENANT_SECRET, clock: clockAtNow() })).resolves.toMatchObject({
      device_id: 'dev-7',
    });
  });

  it('gives a fresh, unique delivery id by default and puts it in the header', () => {
    const first = createTestDelivery({ event: deviceStatus, secret: TENANT_SECRET, timestamp: NOW_S });
    const second = createTestDelivery({ event: deviceStatus, secret: TENANT_SECRET, timestamp: NOW_S });
    expect(first.deliveryId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.headers['X-Service-Delivery-ID']).toBe(first.deliveryId);
    expect(second.deliveryId).not.toBe(first.deliveryId);
  });

  it("stamps the delivery with the given clock's time, so a receiver on the same manual clock accepts it", async () => {
    const clock = clockAtNow();
    const delivery = createTestDelivery({ event: deviceStatus, secret: TENANT_SECRET, clock });
    expect(delivery.headers['X-Service-Timestamp']).toBe(String(Math.floor(clock.now() / 1000)));
    const handler = createWebhookHandler({ secret: TENANT_SECRET, clock, on: {} });
    expect((await handler(delivery.request)).status).toBe(200);
  });

  it('gives a fresh Request on every read, so a delivery can be sent twice', async () => {
    const d = createTestDelivery({ event: deviceStatus, secret: TENANT_SECRET });
    expect(await d.request.text()).toBe(d.body);
    expect(await d.request.text()).toBe(d.body);
    expect(d.request.method).toBe('POST');
  });
});
