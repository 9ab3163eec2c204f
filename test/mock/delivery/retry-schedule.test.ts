import { afterEach, describe, expect, it } from 'vitest';
import { manualGateway } from '../support/gateway.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

describe('retry schedule', () => {
  let receiver: Receiver;
  afterEach(() => receiver?.close());

  it('retries a failing delivery after 3, 6, 12, 24 and 48 s, then dead-letters it', async () => {
    receiver = await startReceiver(() => ({ status: 500, body: 'boom' }));
    const { gateway, clock } = manualGateway();
    gateway.routing.setTenant('default', { url: receiver.url });
    const device = gateway.devices.add();
    const t0 = clock.now();
    gateway.simulate.message({ device_id: device.id, sender: '15551234567', text: 'hello' });
    await gateway.drain();
    for (const wait of [3_000, 6_000, 12_000, 24_000, 48_000]) {
      await clock.advance(wait - 1);
      await gateway.drain();
      const before = receiver.received.length;
      await clock.advance(1);
      await gateway.drain();
      expect(receiver.received.length).toBe(before + 1);
    }
    const attempts = gateway.attempts();
    expect(attempts.map((a) => (a.startedAt - t0) / 1000)).toEqual([0, 3, 9, 21, 45, 93]);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(attempts.at(-1)!.nextAttemptAt).toBeNull();
    const [dead] = gateway.deadLetters.list('default');
    expect(dead).toMatchObject({ reason: 'exhausted', attempts: 6, lastStatus: 500, lastResponse: 'boom' });
    await clock.advance(600_000);
    await gateway.drain();
    expect(receiver.received).toHaveLength(6);
  });

  it('keeps one delivery id across every retry of an event', async () => {
    receiver = await startReceiver((n) => (n < 2 ? { status: 503 } : { status: 200 }));
    const { gateway, clock } = manualGateway();
    gateway.routing.setTenant('default', { url: receiver.url });
    const device = gateway.devices.add();
    gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    await gateway.drain();
    await clock.advance(3_000);
    await gateway.drain();
    await clock.advance(6_000);
    await gateway.drain();
    const ids = receiver.received.map((r) => r.headers['x-service-delivery-id']);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(gateway.attempts().at(-1)!.outcome).toBe('delivered');
    expect(gateway.deadLetters.list()).toHaveLength(0);
  });

  it('adds seeded jitter below jitterMs to each wait, the same for the same seed', async () => {
    receiver = await startReceiver(() => ({ status: 500 }));
    /** The five retry waits of one failing event on a fresh gateway (seeded with the same default seed). */
    const waits = async () => {
      const { gateway, clock } = manualGateway({ jitterMs: 1_000 });
      gateway.routing.setTenant('default', { url: receiver.url });
      const device = gateway.devices.add();
      gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
      await gateway.drain();
      for (let retry = 0; retry < 5; retry++) {
        await clock.advanceTo(gateway.attempts().at(-1)!.nextAttemptAt!);
        await gateway.drain();
      }
      const attempts = gateway.attempts();
      expect(attempts).toHaveLength(6);
      return attempts.slice(0, 5).map((a) => a.nextAttemptAt! - (a.startedAt + a.durationMs));
    };
    const first = await waits();
    const jitter = first.map((wait, i) => wait - [3_000, 6_000, 12_000, 24_000, 48_000][i]!);
    for (const j of jitter) {
      expect(j).toBeGreaterThanOrEqual(0);
      expect(j).toBeLessThan(1_000);
    }
    // Jitter is really added: five draws of a seeded generator are not all zero.
    expect(jitter.some((j) => j > 0)).toBe(true);
    expect(await waits()).toEqual(first);
  });
});
