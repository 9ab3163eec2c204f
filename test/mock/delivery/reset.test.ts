import { createMockBackend, ManualClock } from 'linkgate/mock';
import { afterEach, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../support/receiver.js';

describe('backend.reset() and the gateway', () => {
  let rx: Receiver;
  afterEach(() => rx?.close());

  it('forgets endpoints, devices, created keys, dead letters and pending receipts, and keeps the seeded key', async () => {
    const clock = new ManualClock();
    const KEY = 'gw_live_Seeded0123456789abcdefghijkl';
    const backend = createMockBackend({ clock, gateway: { messagingKey: KEY } });
    const gw = backend.gateway;
    // A receiver that refuses with 400, so the one inbound message is dead-lettered at once.
    rx = await startReceiver(() => ({ status: 400 }));
    gw.routing.setTenant('default', { url: rx.url });
    const device = gw.devices.add();
    gw.simulate.message({ device_id: device.id, sender: '15551234567' });
    await gw.drain();
    expect(gw.deadLetters.list()).toHaveLength(1);
    expect(gw.attempts()).toHaveLength(1);
    const extra = gw.keys.create({ label: 'extra' });
    gw.messages.send('default', { device_id: device.id, phone: '15551234567', message: 'hi' });
    const pendingBefore = clock.pending;
    expect(pendingBefore).toBeGreaterThan(0);
    backend.reset();
    expect(clock.pending).toBe(0);
    expect(gw.routing.listTenants()).toEqual([]);
    expect(gw.devices.list()).toEqual([]);
    expect(gw.keys.authenticate(`Bearer ${extra.key}`)).toBeNull();
    expect(gw.keys.authenticate(`Bearer ${KEY}`)).not.toBeNull();
    expect(gw.attempts()).toEqual([]);
    expect(gw.deadLetters.list()).toEqual([]);
  });

  it('adds the seeded devices again after a reset, ONLINE in the default tenant unless they say otherwise', () => {
    const backend = createMockBackend({
      gateway: { devices: [{ id: 'phone-1' }, { id: 'phone-2', tenant: 'acme', status: 'OFFLINE' }] },
    });
    const seeded = () => backend.gateway.devices.list().map((d) => [d.id, d.tenant, d.status]);
    const expected = [
      ['phone-1', 'default', 'ONLINE'],
      ['phone-2', 'acme', 'OFFLINE'],
    ];
    expect(seeded()).toEqual(expected);
    backend.gateway.devices.add({ id: 'extra' });
    backend.reset();
    expect(seeded()).toEqual(expected);
  });

  it('names the option and the rule when a seeded device is invalid', () => {
    expect(() => createMockBackend({ gateway: { devices: [{ id: 'ok' }, { id: 'auto' }] } })).toThrow(
      'gateway.devices[1].id must not be "auto" (reserved for "first online device")',
    );
  });
});
