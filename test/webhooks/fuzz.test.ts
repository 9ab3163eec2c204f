import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createTestDelivery,
  createWebhookVerifier,
  MemoryDedupeStore,
  verifyWebhookSync,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { ALL_SECRETS, clockAtNow, DEVICE_SECRET, messageReceived, NOW_S, TENANT_SECRET } from './support/fixtures.js';

const secret = { tenant: [TENANT_SECRET], devices: { 'device-1': DEVICE_SECRET } };
const headerNames = [
  'x-service-secret',
  'x-service-delivery-id',
  'x-service-event',
  'x-service-device-id',
  'x-service-timestamp',
  'content-type',
  'X-Service-Secret',
];

// Values lean towards the interesting ones: real secrets, near-miss secrets, event names, timestamps near now.
const headerValue = fc.oneof(
  fc.constantFrom(...ALL_SECRETS, `${TENANT_SECRET}0`, TENANT_SECRET.slice(0, -1), ''),
  fc.constantFrom('message.received', 'message.ack', 'device.qr', 'device-1', 'device-2'),
  fc.integer({ min: NOW_S - 600, max: NOW_S + 600 }).map(String),
  fc.string({ maxLength: 40 }),
);
const headers = fc.oneof(
  fc.dictionary(fc.constantFrom(...headerNames), fc.oneof(headerValue, fc.array(headerValue, { maxLength: 2 }))),
  // Start from a real delivery and perturb it, so the deep checks are reached too.
  fc
    .record({
      drop: fc.oneof(fc.constant([]), fc.subarray(headerNames.slice(0, 5))),
      set: fc.oneof(fc.constant({}), fc.dictionary(fc.constantFrom(...headerNames), headerValue)),
    })
    .map(({ drop, set }) => {
      const base = Object.fromEntries(
        Object.entries(
          createTestDelivery({ event: messageReceived, secret: DEVICE_SECRET, timestamp: NOW_S, deliveryId: 'd' })
            .headers,
        ).map(([k, v]) => [k.toLowerCase(), v]),
      );
      for (const name of drop) delete base[name];
      return { ...base, ...set };
    }),
);
const body = fc.oneof(
  fc.constant(JSON.stringify(messageReceived)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .record({
      event: fc.constantFrom('message.received', 'message.ack', 'device.status', 'x.y'),
      device_id: fc.constantFrom('device-1', 'device-2'),
      timestamp: fc.integer(),
      data: fc.jsonValue(),
    })
    .map((v) => JSON.stringify(v)),
  fc.string(),
  fc.uint8Array({ maxLength: 64 }),
  fc.constantFrom(...ALL_SECRETS),
);

const seen = new Set<string>();

function checkOutcome(outcome: { ok: true; value: unknown } | { ok: false; error: unknown }) {
  seen.add(outcome.ok ? 'verified' : String((outcome.error as { code?: unknown }).code));
  if (outcome.ok) {
    expect(outcome.value).toMatchObject({ event: expect.any(String), device_id: expect.any(String) });
    return;
  }
  expect(outcome.error).toBeInstanceOf(WebhookVerificationError);
  const error = outcome.error as WebhookVerificationError;
  const visible = `${error.message} ${String(error)} ${JSON.stringify(error.toJSON())} ${JSON.stringify(error)}`;
  for (const s of ALL_SECRETS) expect(visible).not.toContain(s);
}

describe('any request gives either a verified event or a WebhookVerificationError', () => {
  it('holds for verifyWebhookSync over random headers and bodies', () => {
    fc.assert(
      fc.property(headers, body, (h, b) => {
        let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
        try {
          outcome = { ok: true, value: verifyWebhookSync({ headers: h, body: b }, { secret, clock: clockAtNow() }) };
        } catch (error) {
          outcome = { ok: false, error };
        }
        checkOutcome(outcome);
      }),
      { numRuns: 3000 },
    );
    // The generators reach past the secret check into every later stage, including success.
    expect([...seen]).toEqual(
      expect.arrayContaining([
        'verified',
        'missing_secret_header',
        'secret_mismatch',
        'missing_header',
        'invalid_json',
        'invalid_payload',
        'event_mismatch',
      ]),
    );
  });

  it('holds for verifyWebhook over real Requests with dedupe on', async () => {
    const dedupe = new MemoryDedupeStore({ max: 50 });
    await fc.assert(
      fc.asyncProperty(headers, body, async (h, b) => {
        const requestHeaders = new Headers();
        for (const [k, v] of Object.entries(h)) {
          for (const value of Array.isArray(v) ? v : [v]) {
            try {
              requestHeaders.append(k, value);
            } catch {
              // Values fetch refuses (e.g. control characters) can't reach a receiver either.
            }
          }
        }
        const request = new Request('https://receiver.test/', { method: 'POST', headers: requestHeaders, body: b });
        const outcome = await createWebhookVerifier({ secret, clock: clockAtNow(), dedupe })
          .verify(request)
          .then(
            (value) => ({ ok: true as const, value }),
            (error: unknown) => ({ ok: false as const, error }),
          );
        checkOutcome(outcome);
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts the genuine delivery under both secret kinds (the fuzz is not vacuous)', () => {
    for (const [presented, deviceId] of [
      [TENANT_SECRET, 'device-2'],
      [DEVICE_SECRET, 'device-1'],
    ] as const) {
      const d = createTestDelivery({
        event: { ...messageReceived, device_id: deviceId },
        secret: presented,
        timestamp: NOW_S,
      });
      expect(verifyWebhookSync(d, { secret, clock: clockAtNow() }).known).toBe(true);
    }
  });
});
