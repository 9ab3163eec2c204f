import { describe, expect, it } from 'vitest';
import {
  createTestDelivery,
  createWebhookVerifier,
  MemoryDedupeStore,
  type VerifyWebhookOptions,
  verifyWebhook,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import type { TestDeliveryCommon, TestEventObject } from '../../src/webhooks/test-delivery.js';
import { clockAtNow, DEVICE_SECRET, messageReceived, NOW_S, TENANT_SECRET } from './support/fixtures.js';

const options: VerifyWebhookOptions = { secret: TENANT_SECRET, clock: clockAtNow() };

function delivery(overrides: Partial<TestDeliveryCommon> & { event?: TestEventObject } = {}) {
  return createTestDelivery({ event: messageReceived, secret: TENANT_SECRET, timestamp: NOW_S, ...overrides });
}

async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the delivery to be refused');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

function without(headers: Record<string, string>, name: string): Record<string, string> {
  const copy = { ...headers };
  delete copy[name];
  return copy;
}

describe('verifyWebhook refuses each kind of bad delivery with its code', () => {
  it('accepts a delivery exactly as the gateway sends it', async () => {
    const { headers, body } = delivery();
    await expect(verifyWebhook({ headers, body }, options)).resolves.toMatchObject({
      event: 'message.received',
      known: true,
    });
  });

  it('missing_secret_header when there is no X-Service-Secret', async () => {
    const { headers, body } = delivery();
    const err = await rejection(verifyWebhook({ headers: without(headers, 'X-Service-Secret'), body }, options));
    expect(err.code).toBe('missing_secret_header');
    expect(err.status).toBe(401);
  });

  it('secret_mismatch when the secret is wrong', async () => {
    const { headers, body } = delivery({ secret: 'whsec_live_ffffffffffffffffffffffffffffffff' });
    const err = await rejection(verifyWebhook({ headers, body }, options));
    expect(err.code).toBe('secret_mismatch');
    expect(err.status).toBe(401);
  });

  it('secret_mismatch when the secret is a prefix of the right one', async () => {
    const { headers, body } = delivery({ secret: TENANT_SECRET.slice(0, -1) });
    expect((await rejection(verifyWebhook({ headers, body }, options))).code).toBe('secret_mismatch');
  });

  it('missing_header naming X-Service-Timestamp when the timestamp is absent', async () => {
    const { headers, body } = delivery();
    const err = await rejection(verifyWebhook({ headers: without(headers, 'X-Service-Timestamp'), body }, options));
    expect(err).toMatchObject({ code: 'missing_header', header: 'X-Service-Timestamp', status: 400 });
  });

  it('missing_header naming X-Service-Delivery-ID when dedupe needs it', async () => {
    const { headers, body } = delivery();
    const err = await rejection(
      createWebhookVerifier({ ...options, dedupe: new MemoryDedupeStore() }).verify({
        headers: without(headers, 'X-Service-Delivery-ID'),
        body,
      }),
    );
    expect(err).toMatchObject({ code: 'missing_header', header: 'X-Service-Delivery-ID' });
  });

  it('missing_header naming X-Service-Device-ID when device secrets decide by it', async () => {
    const { headers, body } = delivery();
    const err = await rejection(
      verifyWebhook(
        { headers: without(headers, 'X-Service-Device-ID'), body },
        { secret: { tenant: TENANT_SECRET, devices: { 'device-9': DEVICE_SECRET } }, clock: clockAtNow() },
      ),
    );
    expect(err).toMatchObject({ code: 'missing_header', header: 'X-Service-Device-ID' });
  });

  it('invalid_header when the timestamp is not Unix seconds', async () => {
    const { headers, body } = delivery();
    const err = await rejection(
      verifyWebhook({ headers: { ...headers, 'X-Service-Timestamp': '2026-01-01T00:00:00Z' }, body }, options),
    );
    expect(err).toMatchObject({ code: 'invalid_header', header: 'X-Service-Timestamp', status: 400 });
  });

  it('stale_timestamp when the timestamp is older than the tolerance', async () => {
    const { headers, body } = delivery({ timestamp: NOW_S - 301 });
    const err = await rejection(verifyWebhook({ headers, body }, options));
    expect(err).toMatchObject({ code: 'stale_timestamp', status: 401 });
  });

  it('future_timestamp when the timestamp is further ahead than the tolerance', async () => {
    const { headers, body } = delivery({ timestamp: NOW_S + 301 });
    const err = await rejection(verifyWebhook({ headers, body }, options));
    expect(err).toMatchObject({ code: 'future_timestamp', status: 401 });
  });

  it('invalid_json when the body is not JSON', async () => {
    const { headers } = delivery();
    const err = await rejection(verifyWebhook({ headers, body: '{"event": "message.received",' }, options));
    expect(err).toMatchObject({ code: 'invalid_json', status: 400 });
  });

  it('invalid_json when the bytes are not UTF-8', async () => {
    const { headers } = delivery();
    const err = await rejection(verifyWebhook({ headers, body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) }, options));
    expect(err.code).toBe('invalid_json');
  });

  it('invalid_payload with the zod issues when the payload breaks the schema', async () => {
    const broken = { ...messageReceived, data: { ...messageReceived.data, sender: 6281234567890 } };
    const { headers, body } = delivery({ event: broken });
    const err = await rejection(verifyWebhook({ headers, body }, options));
    expect(err.code).toBe('invalid_payload');
    expect(err.issues).toEqual([expect.objectContaining({ path: ['data', 'sender'], code: 'invalid_type' })]);
    expect(err.message).toContain('data.sender');
  });

  it('event_mismatch when X-Service-Event names another event than the body', async () => {
    const { headers, body } = delivery();
    const err = await rejection(
      verifyWebhook({ headers: { ...headers, 'X-Service-Event': 'message.ack' }, body }, options),
    );
    expect(err).toMatchObject({ code: 'event_mismatch', header: 'X-Service-Event', status: 400 });
  });

  it('event_mismatch when X-Service-Device-ID names another device than the body', async () => {
    const { headers, body } = delivery({ deviceId: 'device-2' });
    const err = await rejection(verifyWebhook({ headers, body }, options));
    expect(err).toMatchObject({ code: 'event_mismatch', header: 'X-Service-Device-ID' });
  });

  it('body_too_large when the body is over 1 MB', async () => {
    const { headers } = delivery();
    const body = JSON.stringify({ ...messageReceived, padding: 'x'.repeat(1_048_576) });
    const err = await rejection(verifyWebhook({ headers, body }, options));
    expect(err).toMatchObject({ code: 'body_too_large', status: 413 });
  });

  it('body_too_large from a Request before reading it when Content-Length is over the limit', async () => {
    const { headers } = delivery();
    const big = new Uint8Array(1_048_577).fill(0x20);
    const err = await rejection(
      verifyWebhook(new Request('https://r.test/', { method: 'POST', headers, body: big }), options),
    );
    expect(err.code).toBe('body_too_large');
  });

  it('duplicate (status 200) when dedupe has seen the delivery id', async () => {
    const verifier = createWebhookVerifier({ ...options, dedupe: new MemoryDedupeStore() });
    const d = delivery();
    await verifier.verify(d.request);
    const err = await rejection(verifier.verify(d.request));
    expect(err).toMatchObject({ code: 'duplicate', status: 200, deliveryId: d.deliveryId });
  });

  it('raw_body_required with directions when given a parsed object', async () => {
    const { headers } = delivery();
    const err = await rejection(verifyWebhook({ headers, body: messageReceived as never }, options));
    expect(err.code).toBe('raw_body_required');
    expect(err.message).toMatch(/parsed object/);
    expect(err.message).toMatch(/raw request body/);
    expect(err.message).toMatch(/express\.raw/);
  });

  it('raw_body_required when the body is missing', async () => {
    const { headers } = delivery();
    const err = await rejection(verifyWebhook({ headers, body: undefined as never }, options));
    expect(err.code).toBe('raw_body_required');
  });
});
