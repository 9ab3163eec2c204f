// The delivery checker of `linkgate proxy --receiver`, one delivery at a time: the spec's headers and the event's
// schema held strictly, the secret's value never in a finding, and the delivery ids of one event followed across its
// attempts (same identity as the webhook toolkit's dedupeKey: 'event').
import { describe, expect, it } from 'vitest';
import { DeliveryChecker } from '../../mock/drift/delivery-check.js';
import type { Exchange } from '../../mock/drift/exchange-check.js';
import { deliveryHeaders } from '../../src/webhooks/delivery-headers.js';

const SECRET = `whsec_live_${'ab'.repeat(16)}`;
const EVENT = {
  event: 'message.received',
  device_id: 'dev_1',
  timestamp: 1_700_000_000,
  data: {
    message_id: 'msg_1',
    sender: '15551234567',
    sender_jid: '15551234567@s.whatsapp.net',
    text: 'hi',
    has_media: false,
    timestamp: 1_700_000_000,
  },
};

function delivery(deliveryId: string, body: object = EVENT, headers: Record<string, string> = {}): Exchange {
  const spec = deliveryHeaders({
    secret: SECRET,
    deliveryId,
    event: 'message.received',
    deviceId: 'dev_1',
    timestamp: 1_700_000_001,
  });
  return {
    method: 'POST',
    url: '/',
    requestHeaders: { ...spec, ...headers },
    requestBody: JSON.stringify(body),
    status: 200,
    responseHeaders: {},
    responseBody: '{}',
  };
}

describe('DeliveryChecker', () => {
  it("finds nothing in a delivery as the spec's gateway sends it", () => {
    const verdict = new DeliveryChecker().check(delivery('d1'));
    expect(verdict).toEqual({ operation: 'webhook message.received', findings: [], variants: [] });
  });

  it('reports a header that disagrees with the body, a missing secret, an unknown field and a wrong type, by path', () => {
    const body = { ...EVENT, extra: true, data: { ...EVENT.data, timestamp: '1700000000' } };
    const verdict = new DeliveryChecker().check(
      delivery('d1', body, { 'X-Service-Event': 'message.ack', 'X-Service-Secret': '' }),
    );
    const fields = verdict.findings.map((f) => `${f.field} ${f.kind}`);
    expect(fields).toEqual(
      expect.arrayContaining([
        'header X-Service-Event header',
        'header X-Service-Secret header',
        'extra unknown-field',
        'data.timestamp type',
      ]),
    );
    expect(JSON.stringify(verdict)).not.toContain(SECRET);
  });

  it('names perAttemptDeliveryIds on the attempt of an event that comes with another delivery id, and not before', () => {
    const checker = new DeliveryChecker();
    expect(checker.check(delivery('d1')).variants).toEqual([]);
    expect(checker.check(delivery('d2')).variants).toEqual(['perAttemptDeliveryIds']);
    expect(checker.deliveryIds).toMatchObject({ deliveries: 2, repeatedEvents: 1, keptId: 0, changedId: 1 });
  });

  it('counts an event whose retries keep one delivery id as the spec, and different events as different', () => {
    const checker = new DeliveryChecker();
    checker.check(delivery('d1'));
    checker.check(delivery('d1'));
    checker.check(delivery('d3', { ...EVENT, data: { ...EVENT.data, message_id: 'msg_2' } }));
    expect(checker.deliveryIds).toEqual({ deliveries: 3, repeatedEvents: 1, keptId: 1, changedId: 0 });
  });
});
