import { describe, expect, it } from 'vitest';
import {
  createTestDelivery,
  createWebhookHandler,
  createWebhookVerifier,
  verifyWebhookSync,
  type WebhookSecretOption,
} from '../../src/webhooks/index.js';
import { ALL_SECRETS, clockAtNow, DEVICE_SECRET, messageReceived, NOW_S, TENANT_SECRET } from './support/fixtures.js';

/** Everything a user could print from an error. */
function printable(error: unknown): string {
  const e = error as Error & { toJSON?: () => unknown; cause?: unknown };
  return [
    e.message,
    String(e),
    e.stack,
    JSON.stringify(e),
    e.toJSON ? JSON.stringify(e.toJSON()) : '',
    String(e.cause),
  ].join('\n');
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

const options = { secret: { tenant: TENANT_SECRET, devices: { 'device-1': DEVICE_SECRET } }, clock: clockAtNow() };

describe('secrets never appear in errors, answers or messages', () => {
  it('keeps a presented wrong secret out of the mismatch error', () => {
    const near = `${TENANT_SECRET.slice(0, -1)}0`;
    const d = createTestDelivery({ event: messageReceived, secret: near, timestamp: NOW_S, deviceId: 'device-1' });
    const error = thrown(() => verifyWebhookSync(d, options));
    expect(printable(error)).not.toContain(near);
    for (const s of ALL_SECRETS) expect(printable(error)).not.toContain(s);
  });

  it('keeps a body that is a secret out of the invalid_json error (the engine quotes the body)', () => {
    const d = createTestDelivery({ event: messageReceived, secret: DEVICE_SECRET, timestamp: NOW_S });
    const error = thrown(() => verifyWebhookSync({ headers: d.headers, body: TENANT_SECRET }, options));
    expect(error).toMatchObject({ code: 'invalid_json' });
    expect(printable(error)).not.toContain(TENANT_SECRET);
    expect(printable(error)).not.toMatch(/whsec_(live|dev)_[0-9a-f]/i);
  });

  it('keeps a secret placed in a payload field out of the invalid_payload error', () => {
    const body = JSON.stringify({ ...messageReceived, data: { ...messageReceived.data, timestamp: TENANT_SECRET } });
    const d = createTestDelivery({ event: messageReceived, secret: DEVICE_SECRET, timestamp: NOW_S });
    const error = thrown(() => verifyWebhookSync({ headers: d.headers, body }, options));
    expect(error).toMatchObject({ code: 'invalid_payload' });
    expect(printable(error)).not.toContain(TENANT_SECRET);
  });

  it('keeps a header value out of the event_mismatch error', () => {
    const d = createTestDelivery({ event: messageReceived, secret: DEVICE_SECRET, timestamp: NOW_S });
    const error = thrown(() =>
      verifyWebhookSync({ headers: { ...d.headers, 'X-Service-Event': TENANT_SECRET }, body: d.body }, options),
    );
    expect(error).toMatchObject({ code: 'event_mismatch' });
    expect(printable(error)).not.toContain(TENANT_SECRET);
  });

  it.each<[string, WebhookSecretOption]>([
    ['a malformed plain secret', `${TENANT_SECRET}x`],
    ['a malformed rotation entry', [TENANT_SECRET, `${DEVICE_SECRET} `]],
    ['a device secret given as tenant', { tenant: DEVICE_SECRET }],
    ['a malformed device secret', { tenant: TENANT_SECRET, devices: { d: `${DEVICE_SECRET.slice(0, -2)}zz` } }],
  ])('keeps the value out of the set-up error for %s', (_, secret) => {
    const error = thrown(() => createWebhookVerifier({ secret }));
    const text = printable(error);
    for (const s of [...ALL_SECRETS, `${TENANT_SECRET}x`, `${DEVICE_SECRET.slice(0, -2)}zz`])
      expect(text).not.toContain(s);
    expect(text).not.toMatch(/whsec_(live|dev)_[0-9a-z]/i);
  });

  it('keeps secrets out of the handler answers', async () => {
    const handler = createWebhookHandler({ ...options, onRejected: () => {} });
    for (const presented of [TENANT_SECRET, DEVICE_SECRET, 'whsec_live_00000000000000000000000000000000']) {
      const d = createTestDelivery({
        event: messageReceived,
        secret: presented,
        timestamp: NOW_S,
        deviceId: 'device-1',
      });
      const text = await (await handler(d.request)).text();
      for (const s of [...ALL_SECRETS, presented]) expect(text).not.toContain(s);
      expect(text).not.toMatch(/whsec_(live|dev)_[0-9a-f]/i);
    }
  });
});
