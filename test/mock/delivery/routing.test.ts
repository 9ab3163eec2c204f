import { createWebhookHandler, type ParsedWebhookEvent, toNodeHandler, verifyWebhook } from 'linkgate/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { manualGateway } from '../support/gateway.js';
import { type Receiver, startNodeListener, startReceiver } from '../support/receiver.js';

describe('routing of tenant and device events', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('sends each device event to its own endpoint with the whsec_dev_ secret, the rest to the tenant with whsec_live_', async () => {
    const { gateway } = manualGateway();
    const tenantEvents: ParsedWebhookEvent[] = [];
    const deviceEvents: ParsedWebhookEvent[] = [];
    // Each receiver is the webhook toolkit itself with its defaults (the system clock), configured with its secret only.
    const tenantSecret = `whsec_live_${'a'.repeat(32)}`;
    const deviceSecret = `whsec_dev_${'b'.repeat(32)}`;
    const record = (list: ParsedWebhookEvent[]) => ({
      'message.received': (e: ParsedWebhookEvent) => void list.push(e),
      'device.status': (e: ParsedWebhookEvent) => void list.push(e),
    });
    const tenantRx = await startNodeListener(
      toNodeHandler(createWebhookHandler({ secret: tenantSecret, on: record(tenantEvents) })) as never,
    );
    const deviceRx = await startNodeListener(
      toNodeHandler(createWebhookHandler({ secret: deviceSecret, on: record(deviceEvents) })) as never,
    );
    closers.push(tenantRx.close, deviceRx.close);
    const plain = gateway.devices.add({ id: 'plain' });
    const special = gateway.devices.add({ id: 'special' });
    gateway.routing.setTenant('default', { url: tenantRx.url, secret: tenantSecret });
    gateway.routing.setDevice(special.id, { url: deviceRx.url, secret: deviceSecret });

    gateway.simulate.message({ device_id: plain.id, sender: '15551230001', text: 'to tenant' });
    gateway.simulate.message({ device_id: special.id, sender: '15551230002', text: 'to device' });
    gateway.simulate.status({ device_id: special.id, status: 'HIBERNATED', reason: 'idle' });
    await gateway.drain();

    expect(gateway.attempts().every((a) => a.outcome === 'delivered')).toBe(true);
    expect(tenantEvents.map((e) => [e.event, e.device_id])).toEqual([['message.received', 'plain']]);
    expect(deviceEvents.map((e) => [e.event, e.device_id])).toEqual([
      ['message.received', 'special'],
      ['device.status', 'special'],
    ]);
    expect(deviceEvents[1]!.data).toMatchObject({ status: 'HIBERNATED', reason: 'idle', device_name: special.name });
  });

  it('delivers only the catalog defaults to a tenant without a selection, and optional events once selected', async () => {
    const rx = await startReceiver();
    closers.push(rx.close);
    const { gateway } = manualGateway();
    const device = gateway.devices.add();
    gateway.routing.setTenant('default', { url: rx.url });
    gateway.simulate.ack({ device_id: device.id, message_id: 'M1', recipient: '15551234567', status: 'read' });
    gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    await gateway.drain();
    expect(rx.received.map((r) => r.json.event)).toEqual(['message.received']);
    expect(gateway.dropped()).toEqual([expect.objectContaining({ event: 'message.ack', reason: 'not_selected' })]);

    gateway.routing.setTenant('default', { url: rx.url, events: ['message.ack'] });
    gateway.simulate.ack({ device_id: device.id, message_id: 'M1', recipient: '15551234567', status: 'read' });
    await gateway.drain();
    expect(rx.received.at(-1)!.json).toMatchObject({ event: 'message.ack', data: { status: 'read', status_code: 3 } });
  });

  it('lets a device endpoint without events inherit the tenant selection, and one with events use only those', async () => {
    const rx = await startReceiver();
    closers.push(rx.close);
    const { gateway } = manualGateway();
    const a = gateway.devices.add({ id: 'a' });
    const b = gateway.devices.add({ id: 'b' });
    gateway.routing.setTenant('default', { url: rx.url, events: ['device.status'] });
    gateway.routing.setDevice(a.id, { url: rx.url, events: [] });
    gateway.routing.setDevice(b.id, { url: rx.url, events: ['message.received'] });
    for (const id of ['a', 'b']) {
      gateway.simulate.status({ device_id: id, status: 'OFFLINE' });
      gateway.simulate.message({ device_id: id, sender: '15551234567' });
    }
    await gateway.drain();
    expect(rx.received.map((r) => [r.json.device_id, r.json.event])).toEqual([
      ['a', 'device.status'],
      ['b', 'message.received'],
    ]);
  });

  it('never delivers group, story or channel events, recording them as dropped', async () => {
    const rx = await startReceiver();
    closers.push(rx.close);
    const { gateway } = manualGateway();
    const device = gateway.devices.add();
    gateway.routing.setTenant('default', { url: rx.url, events: ['message.received', 'message.ack'] });
    gateway.simulate.message({ device_id: device.id, sender: '15551234567', chat_jid: '1203630@g.us' });
    gateway.simulate.message({ device_id: device.id, sender: '15551234567', chat_jid: 'status@broadcast' });
    gateway.simulate.message({ device_id: device.id, sender: '15551234567', chat_type: 'channel' });
    gateway.simulate.ack({
      device_id: device.id,
      message_id: 'X',
      recipient: '15551234567',
      status: 'sent',
      chat_jid: '99@newsletter',
    });
    await gateway.drain();
    expect(rx.received).toHaveLength(0);
    expect(gateway.dropped().map((d) => d.reason)).toEqual(['group', 'story', 'channel', 'channel']);
  });

  it('puts the spec headers on every attempt and they verify with the configured secret', async () => {
    const rx: Receiver = await startReceiver();
    closers.push(rx.close);
    const { gateway, clock } = manualGateway();
    const device = gateway.devices.add();
    const { secret } = gateway.routing.setTenant('default', { url: rx.url });
    gateway.simulate.message({ device_id: device.id, sender: '15551234567', text: 'hi' });
    await gateway.drain();
    const [req] = rx.received;
    expect(req!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'linkgate-webhook-engine/2.0',
      'x-service-secret': secret,
      'x-service-event': 'message.received',
      'x-service-device-id': device.id,
    });
    // The header carries the real time of the attempt, the payload the mock's (manual) time.
    expect(Math.abs(Number(req!.headers['x-service-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(req!.json.timestamp).toBe(Math.floor(clock.now() / 1000));
    expect(secret).toMatch(/^whsec_live_[0-9a-f]{32}$/);
    const event = await verifyWebhook({ headers: req!.headers as never, body: req!.body }, { secret });
    expect(event).toMatchObject({ event: 'message.received', device_id: device.id, data: { text: 'hi' } });
  });

  it('refuses receiver URLs that are not HTTPS unless they are loopback', () => {
    const { gateway } = manualGateway();
    expect(() => gateway.routing.setTenant('default', { url: 'http://example.com/hook' })).toThrow(
      /url must use HTTPS/,
    );
    expect(() => gateway.routing.setTenant('default', { url: 'not a url' })).toThrow(/url must be an absolute URL/);
    expect(() =>
      gateway.routing.setTenant('default', { url: 'https://x.test', secret: `whsec_dev_${'0'.repeat(32)}` }),
    ).toThrow(/secret must be "whsec_live_"/);
    expect(() => gateway.routing.setTenant('default', { url: 'https://x.test', events: ['message.nope'] })).toThrow(
      /events\[0\] must be one of/,
    );
    for (const url of [
      'http://127.0.0.1:9/h',
      'http://localhost/h',
      'http://[::1]:8080/h',
      'https://hooks.example.com/x',
    ]) {
      expect(gateway.routing.setTenant('default', { url }).url).toBe(new URL(url).href);
    }
  });

  it('accepts plain-http receivers on any host only when allowHttpReceivers is on, and names that opt-in when refusing', () => {
    const url = 'http://receiver:3000/webhooks';
    const strict = manualGateway().gateway;
    expect(() => strict.routing.setTenant('default', { url })).toThrow(
      /--allow-http-receivers.*allowHttpReceivers: true/,
    );
    const device = strict.devices.add();
    expect(() => strict.routing.setDevice(device.id, { url })).toThrow(/url must use HTTPS/);
    const open = manualGateway({ allowHttpReceivers: true }).gateway;
    expect(open.routing.setTenant('default', { url }).url).toBe(url);
    expect(open.routing.setDevice(open.devices.add().id, { url: 'http://10.0.0.7/hook' }).url).toBe(
      'http://10.0.0.7/hook',
    );
    // HTTPS-only remains for every other scheme.
    expect(() => open.routing.setTenant('default', { url: 'ftp://receiver/hook' })).toThrow(/url must use HTTPS/);
  });
});
