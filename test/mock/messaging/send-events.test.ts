import { createMockBackend, ManualClock } from 'linkgate/mock';
import { afterEach, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../support/receiver.js';

const KEY = 'gw_live_Seeded0123456789abcdefghijkl';

describe('sending a message', () => {
  let rx: Receiver;
  afterEach(() => rx?.close());

  async function setup() {
    rx = await startReceiver();
    const clock = new ManualClock();
    const backend = createMockBackend({ clock, gateway: { messagingKey: KEY } });
    backend.gateway.routing.setTenant('default', { url: rx.url, events: ['message.sent', 'message.ack'] });
    const device = backend.gateway.devices.add();
    const send = async (body: Record<string, unknown>) => {
      const res = await backend.fetch('http://localhost/api/v1/wa/messages/send', {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    };
    return { clock, backend, device, send };
  }

  it('produces message.sent and ack "sent" at +1 s, "delivered" at +2 s and "read" at +3 s', async () => {
    const { clock, backend, device, send } = await setup();
    const t0 = Math.floor(clock.now() / 1000);
    const res = await send({ device_id: device.id, phone: '15551234567', message: 'hello' });
    expect(res.status).toBe(200);
    const id = res.body.data.message_id;
    for (let s = 1; s <= 4; s++) {
      await clock.advance(1_000);
      await backend.gateway.drain();
    }
    // Events due at the same second travel concurrently; compare them in time, then name order.
    const seen = rx.received.map((r) => [r.json.event, r.json.data.status ?? null, r.json.timestamp - t0] as const);
    seen.sort((a, b) => a[2] - b[2] || a[0].localeCompare(b[0]));
    expect(seen).toEqual([
      ['message.ack', 'sent', 1],
      ['message.sent', 'sent', 1],
      ['message.ack', 'delivered', 2],
      ['message.ack', 'read', 3],
    ]);
    expect(rx.received.find((r) => r.json.event === 'message.sent')!.json.data).toMatchObject({
      message_id: id,
      recipient: '15551234567',
      recipient_jid: '15551234567@s.whatsapp.net',
      text: 'hello',
    });
    const codes = rx.received.filter((r) => r.json.event === 'message.ack').map((r) => r.json.data.status_code);
    expect(codes.sort()).toEqual([1, 2, 3]);
    expect(rx.received.every((r) => r.json.data.message_id === id)).toBe(true);
  });

  it('adds "played" at +4 s for audio media', async () => {
    const { clock, backend, device, send } = await setup();
    await send({ device_id: device.id, phone: '15551234567', message: '', media_url: 'https://cdn.example.com/v.ogg' });
    await clock.advance(4_000);
    await backend.gateway.drain();
    const statuses = rx.received.filter((r) => r.json.event === 'message.ack').map((r) => r.json.data.status_code);
    expect(statuses.sort()).toEqual([1, 2, 3, 4]);
  });

  it('answers 404 DEVICE_NOT_FOUND, 409 DEVICE_NOT_ONLINE, 409 NO_ONLINE_DEVICE and 400 naming the field', async () => {
    const { backend, device, send } = await setup();
    expect(await send({ device_id: 'ghost', phone: '15551234567', message: 'x' })).toMatchObject({
      status: 404,
      body: { success: false, error: 'DEVICE_NOT_FOUND', field: 'device_id' },
    });
    backend.gateway.simulate.status({ device_id: device.id, status: 'LOGGED_OUT' });
    expect(await send({ device_id: device.id, phone: '15551234567', message: 'x' })).toMatchObject({
      status: 409,
      body: { error: 'DEVICE_NOT_ONLINE' },
    });
    expect(await send({ device_id: 'auto', phone: '15551234567', message: 'x' })).toMatchObject({
      status: 409,
      body: { error: 'NO_ONLINE_DEVICE' },
    });
    const bad = await send({ device_id: 'auto', phone: '+1 555', message: 'x' });
    expect(bad).toMatchObject({ status: 400, body: { error: 'VALIDATION_ERROR', field: 'phone' } });
    expect(bad.body.message).toMatch(/^phone must be/);
  });

  it('tells a missing field from one of the wrong type in its 400 message', async () => {
    const { send } = await setup();
    expect((await send({ phone: '15551234567', message: 'x' })).body).toMatchObject({
      field: 'device_id',
      message: 'device_id is required and must be a string',
    });
    expect((await send({ device_id: 5, phone: '15551234567', message: 'x' })).body).toMatchObject({
      field: 'device_id',
      message: 'device_id must be a string (got a number)',
    });
  });

  it("treats another tenant's device as unknown", async () => {
    const { backend, send } = await setup();
    backend.gateway.devices.add({ tenant: 'acme', id: 'acme-1' });
    expect((await send({ device_id: 'acme-1', phone: '15551234567', message: 'x' })).status).toBe(404);
  });
});
