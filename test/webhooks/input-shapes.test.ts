import { describe, expect, it } from 'vitest';
import { createTestDelivery, verifyWebhook, verifyWebhookSync } from '../../src/webhooks/index.js';
import { clockAtNow, messageReceived, NOW_S, TENANT_SECRET } from './support/fixtures.js';

const d = createTestDelivery({ event: messageReceived, secret: TENANT_SECRET, timestamp: NOW_S });
const options = { secret: TENANT_SECRET, clock: clockAtNow() };
const nodeHeaders = Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k.toLowerCase(), v]));
const bytes = new TextEncoder().encode(d.body);

/** A DataView over `body`, sitting after `before` in a larger buffer. */
function dataViewAfter(before: string, body: string): DataView {
  const whole = new TextEncoder().encode(before + body);
  return new DataView(whole.buffer, before.length, whole.length - before.length);
}

describe('verifyWebhook takes headers and raw bodies in every common shape', () => {
  it.each([
    ['a web Headers', new Headers(d.headers)],
    ["Node's lower-case headers object", nodeHeaders],
    ['an object with the gateway casing', d.headers],
  ])('reads headers from %s', (_, headers) => {
    expect(verifyWebhookSync({ headers, body: d.body }, options).known).toBe(true);
  });

  it('joins repeated Node header values, so two different secrets do not pass', () => {
    const headers = { ...nodeHeaders, 'x-service-secret': [TENANT_SECRET, TENANT_SECRET] };
    expect(() => verifyWebhookSync({ headers, body: d.body }, options)).toThrow(
      expect.objectContaining({ code: 'secret_mismatch' }),
    );
  });

  it.each([
    ['a string', d.body],
    ['a Uint8Array', bytes],
    ['an ArrayBuffer', bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)],
    ['a Node Buffer', Buffer.from(d.body)],
    ['a DataView over part of a buffer', dataViewAfter('xx', d.body)],
  ])('reads the raw body from %s', async (_, body) => {
    await expect(verifyWebhook({ headers: nodeHeaders, body: body as never }, options)).resolves.toMatchObject({
      event: 'message.received',
    });
  });

  it('reads a web Request', async () => {
    await expect(verifyWebhook(d.request, options)).resolves.toMatchObject({ device_id: 'device-1' });
  });

  it('counts a multi-byte body in UTF-8 bytes against the limit', () => {
    const body = JSON.stringify({ ...messageReceived, data: { ...messageReceived.data, text: 'é'.repeat(600) } });
    expect(() => verifyWebhookSync({ headers: nodeHeaders, body }, { ...options, maxBodyBytes: 1_000 })).toThrow(
      expect.objectContaining({ code: 'body_too_large' }),
    );
    expect(verifyWebhookSync({ headers: nodeHeaders, body }, { ...options, maxBodyBytes: 2_000 }).known).toBe(true);
  });

  it('picks up a replaced secret on an options object it has seen before', () => {
    const reused = { secret: 'whsec_live_ffffffffffffffffffffffffffffffff', clock: clockAtNow() };
    expect(() => verifyWebhookSync({ headers: nodeHeaders, body: d.body }, reused)).toThrow();
    reused.secret = TENANT_SECRET;
    expect(verifyWebhookSync({ headers: nodeHeaders, body: d.body }, reused).known).toBe(true);
  });
});
