import { describe, expect, it } from 'vitest';
import { createTestDelivery, verifyWebhookSync } from '../../src/webhooks/index.js';
import { clockAtNow, messageReceived, NOW_S, TENANT_SECRET } from './support/fixtures.js';

function codeAt(timestamp: number, tolerance?: number | false): string {
  const { headers, body } = createTestDelivery({ event: messageReceived, secret: TENANT_SECRET, timestamp });
  try {
    verifyWebhookSync({ headers, body }, { secret: TENANT_SECRET, clock: clockAtNow(), tolerance });
    return 'accepted';
  } catch (err) {
    return (err as { code: string }).code;
  }
}

describe('the timestamp window guards against replays', () => {
  it('accepts timestamps up to 300 s either side of now by default', () => {
    expect([codeAt(NOW_S - 300), codeAt(NOW_S), codeAt(NOW_S + 300)]).toEqual(['accepted', 'accepted', 'accepted']);
  });

  it('refuses 301 s in the past as stale and 301 s ahead as future', () => {
    expect([codeAt(NOW_S - 301), codeAt(NOW_S + 301)]).toEqual(['stale_timestamp', 'future_timestamp']);
  });

  it('uses a custom tolerance', () => {
    expect([codeAt(NOW_S - 10, 5), codeAt(NOW_S - 4, 5)]).toEqual(['stale_timestamp', 'accepted']);
  });

  it('turns the check off with tolerance: false, even without the header', () => {
    expect(codeAt(NOW_S - 86_400, false)).toBe('accepted');
    const { headers, body } = createTestDelivery({ event: messageReceived, secret: TENANT_SECRET });
    const { 'X-Service-Timestamp': _, ...rest } = headers;
    expect(verifyWebhookSync({ headers: rest, body }, { secret: TENANT_SECRET, tolerance: false }).event).toBe(
      'message.received',
    );
  });

  it('follows the injected clock', async () => {
    const clock = clockAtNow();
    const { headers, body } = createTestDelivery({ event: messageReceived, secret: TENANT_SECRET, timestamp: NOW_S });
    const options = { secret: TENANT_SECRET, clock };
    expect(verifyWebhookSync({ headers, body }, options).known).toBe(true);
    await clock.advance(301_000);
    expect(() => verifyWebhookSync({ headers, body }, options)).toThrow(
      expect.objectContaining({ code: 'stale_timestamp' }),
    );
  });

  it('refuses a negative tolerance at set-up', () => {
    const { headers, body } = createTestDelivery({ event: messageReceived, secret: TENANT_SECRET });
    expect(() => verifyWebhookSync({ headers, body }, { secret: TENANT_SECRET, tolerance: -1 })).toThrow(
      /options\.tolerance must be a number of seconds >= 0/,
    );
  });
});
