// `createMockBackend({ clock })` keeps the clock's type, so `backend.gateway.clock.advance(ms)` (the API)
// type-checks without a cast; `npm run typecheck` covers this file.
import { afterEach, describe, expect, it } from 'vitest';
import { createMockBackend, ManualClock } from '../../../mock/index.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

describe('the gateway of a backend on a ManualClock', () => {
  let receiver: Receiver;
  afterEach(() => receiver?.close());

  it('moves time with backend.gateway.clock.advance(ms), making the next retry due', async () => {
    receiver = await startReceiver((n) => (n < 1 ? { status: 503 } : { status: 200 }));
    const backend = createMockBackend({ clock: new ManualClock() });
    const { gateway } = backend;
    expect(gateway.clock).toBe(backend.clock);
    gateway.routing.setTenant('default', { url: receiver.url });
    const device = gateway.devices.add();
    gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    await gateway.drain();
    expect(receiver.received).toHaveLength(1);
    await gateway.clock.advance(3_000);
    await gateway.drain();
    expect(receiver.received).toHaveLength(2);
    expect(gateway.attempts().at(-1)!.outcome).toBe('delivered');
  });
});
