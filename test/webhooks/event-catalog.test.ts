import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  EVENT_NAMES,
  type ParsedWebhookEvent,
  parseWebhookEvent,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { catalogExamples, deviceStatus, messageAck, messageReceived, messageSent } from './support/fixtures.js';

describe('parseWebhookEvent reads every event in the catalog', async () => {
  const examples = await catalogExamples();

  it.each(EVENT_NAMES)('parses a spec-shaped %s delivery into its typed event', (name) => {
    const parsed = parseWebhookEvent(JSON.parse(JSON.stringify(examples[name])));
    expect(parsed).toEqual({ ...examples[name], known: true });
  });

  it('also takes the JSON text', () => {
    expect(parseWebhookEvent(JSON.stringify(messageAck))).toMatchObject({ event: 'message.ack', known: true });
  });

  it('narrows on known, then event, to the payload type', () => {
    const event: ParsedWebhookEvent = parseWebhookEvent(messageReceived);
    if (event.known && event.event === 'message.received') {
      expectTypeOf(event.data.sender).toEqualTypeOf<string>();
      expect(event.data.media?.mime_type).toBe('image/jpeg');
    } else throw new Error('expected message.received');
  });

  it('keeps fields the schema does not list, in the envelope and in data', () => {
    const parsed = parseWebhookEvent({
      ...messageSent,
      trace_id: 't-1',
      data: { ...messageSent.data, queue_ms: 12 },
    });
    expect(parsed).toMatchObject({ trace_id: 't-1', data: { queue_ms: 12 } });
  });

  it('gives an unknown event name as an UnknownWebhookEvent, not an error', () => {
    const parsed = parseWebhookEvent({
      event: 'group.joined',
      device_id: 'device-1',
      timestamp: 1767225600,
      data: { group: 'g1' },
    });
    expect(parsed).toEqual({
      event: 'group.joined',
      device_id: 'device-1',
      timestamp: 1767225600,
      data: { group: 'g1' },
      known: false,
    });
  });

  it('still validates the envelope of an unknown event', () => {
    expect(() => parseWebhookEvent({ event: 'group.joined', data: {} })).toThrow(WebhookVerificationError);
  });

  it('accepts device.status strings beyond the four documented', () => {
    const parsed = parseWebhookEvent({ ...deviceStatus, data: { ...deviceStatus.data, status: 'COOLDOWN' } });
    expect(parsed).toMatchObject({ known: true, data: { status: 'COOLDOWN' } });
  });

  it('refuses a message.ack whose status_code does not match its status', () => {
    const bad = { ...messageAck, data: { ...messageAck.data, status: 'read', status_code: 2 } };
    try {
      parseWebhookEvent(bad);
      throw new Error('expected a refusal');
    } catch (err) {
      expect(err).toMatchObject({
        code: 'invalid_payload',
        issues: [expect.objectContaining({ path: ['data', 'status_code'] })],
      });
    }
  });

  it('refuses a device.qr attempt outside 1 to 5', () => {
    const qr = examples['device.qr'];
    expect(() => parseWebhookEvent({ ...qr, data: { ...qr.data, attempt: 6 } })).toThrow(/data\.attempt/);
  });

  it('refuses a body that is not an object', () => {
    expect(() => parseWebhookEvent([messageAck])).toThrow(WebhookVerificationError);
    expect(() => parseWebhookEvent(null)).toThrow(WebhookVerificationError);
  });

  it('refuses JSON text that is not JSON with invalid_json', () => {
    expect(() => parseWebhookEvent('[object Object]')).toThrow(/an object was turned into a string/);
  });
});
