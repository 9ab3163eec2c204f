import { afterEach, describe, expect, it } from 'vitest';
import type { DeadLetter } from '../../../mock/delivery/dead-letter-queue.js';
import { manualGateway } from '../support/gateway.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

describe('dead-letter queue', () => {
  let receiver: Receiver;
  afterEach(() => receiver?.close());

  it('dead-letters at once, without retrying, an answer that is neither 200 nor 5xx, recording the answer', async () => {
    receiver = await startReceiver(() => ({ status: 410, body: '{"gone":true}' }));
    const { gateway, clock } = manualGateway();
    gateway.routing.setTenant('default', { url: receiver.url });
    const device = gateway.devices.add();
    gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    await gateway.drain();
    await clock.advance(600_000);
    await gateway.drain();
    expect(receiver.received).toHaveLength(1);
    expect(gateway.deadLetters.list()).toEqual([
      expect.objectContaining({ reason: 'rejected', attempts: 1, lastStatus: 410, lastResponse: '{"gone":true}' }),
    ]);
  });

  it('holds 200 items per tenant, evicting the oldest first and counting evictions', async () => {
    receiver = await startReceiver(() => ({ status: 400 }));
    const { gateway } = manualGateway();
    gateway.routing.setTenant('default', { url: receiver.url });
    gateway.routing.setTenant('other', { url: receiver.url });
    const device = gateway.devices.add();
    const otherDevice = gateway.devices.add({ tenant: 'other' });
    const evicted: DeadLetter[] = [];
    gateway.on('evicted', (d) => evicted.push(d));
    const ids: string[] = [];
    for (let i = 0; i < 203; i++) {
      const r = gateway.simulate.message({ device_id: device.id, sender: '15551234567', text: `#${i}` });
      if (r.delivery.queued) ids.push(r.delivery.deliveryId);
      if (i % 50 === 0) await gateway.drain();
    }
    gateway.simulate.message({ device_id: otherDevice.id, sender: '15551234567' });
    await gateway.drain();
    const items = gateway.deadLetters.list('default');
    expect(items).toHaveLength(200);
    expect(gateway.deadLetters.evicted('default')).toBe(3);
    expect(evicted.map((d) => d.deliveryId).sort()).toEqual(ids.slice(0, 3).sort());
    expect(new Set(items.map((d) => d.deliveryId))).toEqual(new Set(ids.slice(3)));
    expect(gateway.deadLetters.list('other')).toHaveLength(1);
    expect(gateway.deadLetters.evicted('other')).toBe(0);
  });

  it('replays one item with the same delivery id and fresh retries, then the rest, and purges', async () => {
    receiver = await startReceiver(() => ({ status: 400 }));
    const { gateway } = manualGateway();
    gateway.routing.setTenant('default', { url: receiver.url });
    const device = gateway.devices.add();
    for (let i = 0; i < 3; i++) gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    await gateway.drain();
    const [first, ...rest] = gateway.deadLetters.list();
    receiver.answer(() => ({ status: 200 }));
    expect(gateway.replay(first!.deliveryId)).toEqual({ deliveryId: first!.deliveryId, url: receiver.url });
    await gateway.drain();
    expect(receiver.received).toHaveLength(4);
    expect(receiver.received.at(-1)!.headers['x-service-delivery-id']).toBe(first!.deliveryId);
    expect(receiver.received.at(-1)!.body).toBe(first!.body);
    expect(gateway.deadLetters.list()).toHaveLength(2);
    expect(gateway.replayAll()).toEqual({ replayed: 2, skipped: 0 });
    await gateway.drain();
    expect(gateway.deadLetters.list()).toHaveLength(0);
    expect(receiver.received).toHaveLength(6);
    expect(
      receiver.received
        .slice(-2)
        .map((r) => r.headers['x-service-delivery-id'])
        .sort(),
    ).toEqual(rest.map((d) => d.deliveryId).sort());
    receiver.answer(() => ({ status: 400 }));
    gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    await gateway.drain();
    expect(gateway.deadLetters.purge()).toBe(1);
    expect(gateway.deadLetters.list()).toHaveLength(0);
  });

  it('refuses to replay an unknown id with a clear error', () => {
    const { gateway } = manualGateway();
    expect(() => gateway.replay('01NOPE')).toThrow(/deliveryId does not name an item in the dead-letter queue/);
  });
});
