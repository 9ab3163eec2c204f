import { createMockBackend, ManualClock } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';

describe('backend.reset() and the gateway', () => {
  it('forgets endpoints, devices, created keys, dead letters and pending receipts, and keeps the seeded key', async () => {
    const clock = new ManualClock();
    const KEY = 'gw_live_Seeded0123456789abcdefghijkl';
    const backend = createMockBackend({ clock, gateway: { messagingKey: KEY } });
    const gw = backend.gateway;
    gw.routing.setTenant('default', { url: 'https://hooks.example.com/x' });
    const device = gw.devices.add();
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
  });
});
