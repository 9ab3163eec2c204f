import { createWebhookHandler, toNodeHandler } from 'linkgate/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { Gateway } from '../../../mock/gateway/gateway.js';
import { ManualClock } from '../../../mock/shared/manual-clock.js';
import { manualGateway } from '../support/gateway.js';
import { startNodeListener, startReceiver } from '../support/receiver.js';
import { seeded } from '../support/seeded.js';

describe('X-Service-Timestamp on a manual clock', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it("is accepted by a receiver with linkgate's defaults however far the clock moves, while the stale fault is still refused", async () => {
    const secret = `whsec_live_${'d'.repeat(32)}`;
    const handled: number[] = [];
    const rx = await startNodeListener(
      toNodeHandler(
        createWebhookHandler({
          secret,
          onError: () => {},
          on: { 'message.received': (e) => void handled.push(e.timestamp) },
        }),
      ) as never,
    );
    closers.push(rx.close);
    const { gateway, clock } = manualGateway();
    gateway.routing.setTenant('default', { url: rx.url, secret });
    const device = gateway.devices.add();
    const t0 = clock.now();
    for (const step of [0, 10 * 60_000, 24 * 3_600_000]) {
      await clock.advance(step);
      gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
      await gateway.drain();
    }
    expect(gateway.attempts().map((a) => a.outcome)).toEqual(['delivered', 'delivered', 'delivered']);
    // The payload keeps the mock's time; the header carries the real time of each attempt.
    expect(handled.map((t) => t - t0 / 1000)).toEqual([0, 600, 600 + 86_400]);
    expect(gateway.deadLetters.list()).toEqual([]);

    gateway.faults.next({ staleTimestamp: true });
    gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    await gateway.drain();
    expect(gateway.attempts().at(-1)).toMatchObject({ outcome: 'rejected', response: { status: 401 } });
    expect(gateway.attempts().at(-1)!.response!.body).toContain('stale_timestamp');
  });

  it('stamps the mock clock instead when timestampClock is given, for a receiver that checks against that clock', async () => {
    const rx = await startReceiver();
    closers.push(rx.close);
    const clock = new ManualClock();
    const gateway = new Gateway(clock, seeded(), { timestampClock: clock });
    gateway.routing.setTenant('default', { url: rx.url });
    await clock.advance(10 * 60_000);
    gateway.simulate.message({ device_id: gateway.devices.add().id, sender: '15551234567' });
    await gateway.drain();
    expect(rx.received[0]!.headers['x-service-timestamp']).toBe(String(Math.floor(clock.now() / 1000)));
  });
});
