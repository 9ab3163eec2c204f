import { afterEach, describe, expect, it } from 'vitest';
import type { CircuitTransition } from '../../../mock/gateway/CircuitBreaker.js';
import { manualGateway } from './support/gateway.js';
import { type Receiver, startReceiver } from './support/receiver.js';

describe('webhook delivery circuit', () => {
  let receiver: Receiver;
  afterEach(() => receiver?.close());

  async function failingSetup() {
    receiver = await startReceiver(() => ({ status: 502 }));
    const { gateway, clock } = manualGateway();
    gateway.routing.setTenant('default', { url: receiver.url });
    const device = gateway.devices.add();
    const transitions: CircuitTransition[] = [];
    gateway.on('circuit', (t) => transitions.push(t));
    const send = () => gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    return { gateway, clock, send, transitions };
  }

  it('opens at the fifth consecutive failure and then drops attempts with 503 without calling the receiver', async () => {
    const { gateway, clock, send, transitions } = await failingSetup();
    const t0 = clock.now();
    for (let i = 0; i < 4; i++) send();
    await gateway.drain();
    expect(gateway.circuits()[0]).toMatchObject({ state: 'closed', consecutiveFailures: 4 });
    send();
    await gateway.drain();
    expect(transitions).toEqual([{ url: receiver.url, from: 'closed', to: 'open', openUntil: t0 + 30_000, at: t0 }]);
    expect(gateway.circuits()[0]).toMatchObject({ state: 'open', openUntil: t0 + 30_000 });

    send();
    await gateway.drain();
    expect(receiver.received).toHaveLength(5);
    const dropped = gateway.attempts().at(-1)!;
    expect(dropped).toMatchObject({
      outcome: 'circuit-open',
      attempt: 1,
      response: { status: 503 },
      nextAttemptAt: t0 + 30_000,
    });
  });

  it('does not use up retries while open, and a successful probe after 30 s closes it and releases the others', async () => {
    const { gateway, clock, send, transitions } = await failingSetup();
    const t0 = clock.now();
    for (let i = 0; i < 5; i++) send();
    await gateway.drain();
    // The retries due at +3 s meet the open circuit and are moved to when it half-opens.
    await clock.advance(3_000);
    await gateway.drain();
    expect(receiver.received).toHaveLength(5);
    expect(gateway.engine.scheduled().map((s) => [s.at - t0, s.attempt])).toEqual(Array(5).fill([30_000, 2]));

    receiver.answer(() => ({ status: 200 }));
    await clock.advance(27_000);
    await gateway.drain();
    expect(transitions.map((t) => t.to)).toEqual(['open', 'closed']);
    expect(receiver.received).toHaveLength(10);
    const probe = receiver.received[5]!;
    expect(
      gateway.attempts({ deliveryId: String(probe.headers['x-service-delivery-id']) }).map((a) => a.outcome),
    ).toEqual(['failed', 'circuit-open', 'delivered']);
    expect(gateway.circuits()[0]).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
    expect(gateway.deadLetters.list()).toHaveLength(0);
  });

  it('re-opens for another 30 s when the probe fails, holding the others back', async () => {
    const { gateway, clock, send, transitions } = await failingSetup();
    const t0 = clock.now();
    for (let i = 0; i < 5; i++) send();
    await gateway.drain();
    await clock.advance(30_000);
    await gateway.drain();
    // One probe went through and failed; the other due attempts did not reach the receiver.
    expect(receiver.received).toHaveLength(6);
    expect(transitions.map((t) => [t.from, t.to])).toEqual([
      ['closed', 'open'],
      ['half-open', 'open'],
    ]);
    expect(gateway.circuits()[0]).toMatchObject({ state: 'open', openUntil: t0 + 60_000 });
    // The probe's own next retry is due 6 s after it (and will meet the open circuit); the four held back wait for
    // the circuit at +60 s still on their second attempt, having used up no retry.
    expect(
      gateway.engine
        .scheduled()
        .map((s) => [s.at - t0, s.attempt])
        .sort((a, b) => a[0]! - b[0]!),
    ).toEqual([[36_000, 3], ...Array(4).fill([60_000, 2])]);
  });
});
