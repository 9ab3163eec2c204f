import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, EVENT_SCHEMAS } from '../../src/schemas/events.js';
import { createTestDelivery, createWebhookHandler, decodeQrImage, verifyWebhook } from '../../src/webhooks/index.js';
import { messageAck, TENANT_SECRET } from './support/fixtures.js';

describe('createTestDelivery without data: realistic payloads built for the schemas', () => {
  it.each(EVENT_NAMES)('builds a %s payload that its schema and a verifier accept', async (event) => {
    const delivery = createTestDelivery({ event, secret: TENANT_SECRET });
    expect(EVENT_SCHEMAS[event].safeParse(delivery.payload).success).toBe(true);
    expect(JSON.parse(delivery.body)).toEqual(delivery.payload);
    await expect(verifyWebhook(delivery.request, { secret: TENANT_SECRET })).resolves.toMatchObject({ event });
  });

  it('gives every delivery a fresh message id and the current time', () => {
    const before = Math.floor(Date.now() / 1000);
    const first = createTestDelivery({ event: 'message.received', secret: TENANT_SECRET }).payload;
    const second = createTestDelivery({ event: 'message.received', secret: TENANT_SECRET }).payload;
    const data = first.data as { message_id: string; timestamp: number };
    expect(data.message_id).toMatch(/^3EB0[0-9A-F]{16}$/);
    expect(data.message_id).not.toBe((second.data as { message_id: string }).message_id);
    expect(first.timestamp).toBeGreaterThanOrEqual(before);
    expect(data.timestamp).toBe(first.timestamp);
  });

  it('carries a PNG that decodeQrImage reads in a device.qr sample', () => {
    const delivery = createTestDelivery({ event: 'device.qr', secret: TENANT_SECRET });
    expect(decodeQrImage(delivery.payload as never).length).toBeGreaterThan(8);
  });
});

describe('createTestDelivery with set: fields overridden by dot path and checked against the schema', () => {
  it('changes the named fields and leaves the others as built', async () => {
    const delivery = createTestDelivery({
      event: 'message.ack',
      secret: TENANT_SECRET,
      set: { 'data.status': 'read', 'data.status_code': 3 },
    });
    const event = await verifyWebhook(delivery.request, { secret: TENANT_SECRET });
    expect(event).toMatchObject({
      event: 'message.ack',
      data: { status: 'read', status_code: 3, recipient: '6281234567890' },
    });
    expect(delivery.issues).toEqual([]);
  });

  it.each([
    [
      { 'data.status': 'read' },
      { status: 'read', status_code: 3 },
      { path: 'data.status_code', value: 3, matches: 'data.status' },
    ],
    [
      { 'data.status_code': 4 },
      { status: 'played', status_code: 4 },
      { path: 'data.status', value: 'played', matches: 'data.status_code' },
    ],
  ])('sets the partner of a field that must agree with it when only one is set: %j', async (set, data, paired) => {
    const delivery = createTestDelivery({ event: 'message.ack', secret: TENANT_SECRET, set });
    await expect(verifyWebhook(delivery.request, { secret: TENANT_SECRET })).resolves.toMatchObject({ data });
    expect(delivery.paired).toEqual([paired]);
    expect(delivery.issues).toEqual([]);
  });

  it('leaves both fields as given when both are set, and a value without a partner for the schema to name', () => {
    const both = createTestDelivery({
      event: 'message.ack',
      secret: TENANT_SECRET,
      set: { 'data.status': 'read', 'data.status_code': 2 },
      allowInvalid: true,
    });
    expect(both.payload.data).toMatchObject({ status: 'read', status_code: 2 });
    expect(both.paired).toEqual([]);
    expect(() =>
      createTestDelivery({ event: 'message.ack', secret: TENANT_SECRET, set: { 'data.status': 'reed' } }),
    ).toThrow(/data\.status: Invalid option: expected one of "sent"\|"delivered"\|"read"\|"played"/);
    const removed = createTestDelivery({
      event: 'message.ack',
      secret: TENANT_SECRET,
      set: { 'data.status': undefined },
      allowInvalid: true,
    });
    expect(removed.paired).toEqual([]);
    expect(removed.payload.data).toHaveProperty('status_code');
  });

  it('moves the device header along with an overridden device_id, so the receiver sees one device', async () => {
    const delivery = createTestDelivery({ event: 'device.status', secret: TENANT_SECRET, set: { device_id: 'dev-9' } });
    expect(delivery.headers['X-Service-Device-ID']).toBe('dev-9');
    await expect(verifyWebhook(delivery.request, { secret: TENANT_SECRET })).resolves.toMatchObject({
      device_id: 'dev-9',
    });
  });

  it('removes a field set to undefined', () => {
    const delivery = createTestDelivery({
      event: 'message.received',
      secret: TENANT_SECRET,
      set: { 'data.text': undefined },
    });
    expect(delivery.payload.data).not.toHaveProperty('text');
    expect(delivery.issues).toEqual([]);
  });

  it('says a required field removed by an override "is required", rather than what zod expected', () => {
    expect(() =>
      createTestDelivery({ event: 'message.received', secret: TENANT_SECRET, set: { 'data.sender': undefined } }),
    ).toThrow(/message\.received payload invalid: data\.sender: is required\. Fix the override/);
    const sent = createTestDelivery({
      event: 'message.received',
      secret: TENANT_SECRET,
      set: { 'data.sender': undefined },
      allowInvalid: true,
    });
    expect(sent.issues).toEqual([{ path: ['data', 'sender'], message: 'is required', code: 'invalid_type' }]);
  });

  it('throws naming the field and the rule when an override makes the payload invalid', () => {
    expect(() =>
      createTestDelivery({
        event: 'message.ack',
        secret: TENANT_SECRET,
        set: { 'data.status': 'read', 'data.status_code': 2 },
      }),
    ).toThrow(/message\.ack payload invalid: data\.status_code: status_code must match status .*allowInvalid: true/);
    expect(() =>
      createTestDelivery({ event: 'message.received', secret: TENANT_SECRET, set: { 'data.sender': 628 } }),
    ).toThrow(/data\.sender: .*expected string/);
  });

  it('throws for a path that is no field of the event, listing the fields, instead of adding a field receivers ignore', () => {
    expect(() =>
      createTestDelivery({ event: 'message.ack', secret: TENANT_SECRET, set: { 'data.stauts': 'read' } }),
    ).toThrow(
      /data\.stauts: "stauts" is not a field of data; its fields are message_id, chat_jid, recipient, status.*pass allowInvalid: true to add the field anyway \(receivers must accept fields they do not know\)/,
    );
  });

  it('builds an invalid payload with allowInvalid and lists its issues, so the receiver can be seen refusing it', async () => {
    const delivery = createTestDelivery({
      event: 'message.ack',
      secret: TENANT_SECRET,
      set: { 'data.status_code': 9 },
      allowInvalid: true,
    });
    expect(delivery.issues.map((i) => i.path.join('.'))).toContain('data.status_code');
    const handler = createWebhookHandler({ secret: TENANT_SECRET, on: {} });
    const answer = await handler(delivery.request);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: 'invalid_payload' });
  });

  it('refuses paths that would reach a prototype, or go through a field that is not an object', () => {
    expect(() =>
      createTestDelivery({ event: 'message.ack', secret: TENANT_SECRET, set: { '__proto__.polluted': true } }),
    ).toThrow(/options\.set\["__proto__\.polluted"\] is not a dot path of field names/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(() =>
      createTestDelivery({ event: 'message.ack', secret: TENANT_SECRET, set: { 'data.status.x': 1 } }),
    ).toThrow(/data\.status is a string, so it has no field "x"; set data\.status itself/);
    expect(() => createTestDelivery({ event: 'message.ack', secret: TENANT_SECRET, set: { 'data..x': 1 } })).toThrow(
      /not a dot path/,
    );
  });

  it("changes a copy: the caller's event object stays as it was", () => {
    const event = structuredClone(messageAck);
    createTestDelivery({ event, secret: TENANT_SECRET, set: { 'data.message_id': 'other' } });
    expect(event).toEqual(messageAck);
  });

  it('still builds invalid data given without set, for tests of the receiver refusing it', () => {
    const delivery = createTestDelivery({
      event: { ...messageAck, data: { ...messageAck.data, status_code: 1 } },
      secret: TENANT_SECRET,
    });
    expect(delivery.issues).toEqual([]);
    expect(JSON.parse(delivery.body).data.status_code).toBe(1);
  });
});
