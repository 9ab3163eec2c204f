import { afterEach, describe, expect, it } from 'vitest';
import type { CircuitTransition } from '../../../mock/delivery/circuit-breaker.js';
import { manualGateway } from '../support/gateway.js';
import { type Receiver, startReceiver } from '../support/receiver.js';

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
    expect(gateway.scheduled().map((s) => [s.at - t0, s.attempt])).toEqual(Array(5).fill([30_000, 2]));

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
      gateway
        .scheduled()
        .map((s) => [s.at - t0, s.attempt])
        .sort((a, b) => a[0]! - b[0]!),
    ).toEqual([[36_000, 3], ...Array(4).fill([60_000, 2])]);
  });
});

describe('webhook delivery circuit: only the probe changes an open circuit', () => {
  let receiver: Receiver;
  afterEach(() => receiver?.close());

  it.each([
    [200, 'delivered'],
    [400, 'rejected'],
  ] as const)('stays open when an attempt already in flight as it opened answers %i', async (status, outcome) => {
    let answerFirst: (reply: { status: number }) => void = () => {};
    const first = new Promise<{ status: number }>((resolve) => {
      answerFirst = resolve;
    });
    receiver = await startReceiver((n) => (n === 0 ? first : { status: 502 }));
    const { gateway, clock } = manualGateway();
    gateway.routing.setTenant('default', { url: receiver.url });
    const device = gateway.devices.add();
    const transitions: CircuitTransition[] = [];
    gateway.on('circuit', (t) => transitions.push(t));
    const t0 = clock.now();
    // Six events: the first stays in flight while the other five fail and open the circuit.
    for (let i = 0; i < 6; i++) gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    await until(() => gateway.attempts().length === 5);
    expect(gateway.circuits()[0]).toMatchObject({ state: 'open', openUntil: t0 + 30_000 });

    answerFirst({ status });
    await gateway.drain();
    expect(gateway.attempts().at(-1)).toMatchObject({ outcome, probe: false });
    expect(gateway.circuits()[0]).toMatchObject({ state: 'open', openUntil: t0 + 30_000 });

    // The five retries meet the open circuit at +3 s: the receiver hears nothing more until the probe at +30 s.
    receiver.answer(() => ({ status: 200 }));
    await clock.advance(3_000);
    await gateway.drain();
    expect(receiver.received).toHaveLength(6);
    await clock.advance(27_000);
    await gateway.drain();
    expect(transitions.map((t) => [t.from, t.to, t.at - t0])).toEqual([
      ['closed', 'open', 0],
      ['half-open', 'closed', 30_000],
    ]);
    expect(gateway.attempts().filter((a) => a.probe)).toHaveLength(1);
    expect(receiver.received).toHaveLength(11);
    // Every event is accounted for: the first delivered or dead-lettered by its own answer, the other five delivered.
    expect(gateway.stats()).toEqual({
      published: 6,
      replayed: 0,
      delivered: status === 200 ? 6 : 5,
      deadLettered: status === 200 ? 0 : 1,
      dropped: 0,
      pending: { inFlight: 0, waitingForSlot: 0, scheduled: 0, waitingForProbe: 0 },
    });
  });

  it('shows attempts held behind the probe as due when the probe answers at the latest, not as unscheduled', async () => {
    receiver = await startReceiver(() => ({ status: 502 }));
    const { gateway, clock } = manualGateway();
    gateway.routing.setTenant('default', { url: receiver.url });
    const device = gateway.devices.add();
    const t0 = clock.now();
    for (let i = 0; i < 5; i++) gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    await gateway.drain();
    receiver.answer(() => 'hang');
    await clock.advance(30_000);
    // One probe is out (hanging); the other four met the half-open circuit and wait for its answer.
    const held = gateway.attempts().filter((a) => a.outcome === 'circuit-open' && a.startedAt === t0 + 30_000);
    expect(held).toHaveLength(4);
    for (const a of held) expect(a.nextAttemptAt).toBe(t0 + 30_000 + 8_000);
    expect(gateway.scheduled().filter((s) => s.waitingFor === 'probe')).toHaveLength(4);
    expect(gateway.stats().pending).toMatchObject({ inFlight: 1, waitingForProbe: 4 });

    // The probe times out at +38 s: the circuit re-opens until +68 s, and the four go then.
    await clock.advance(8_000);
    await gateway.drain();
    expect(gateway.circuits()[0]).toMatchObject({ state: 'open', openUntil: t0 + 68_000 });
    const due = gateway.scheduled().map((s) => [s.at - t0, s.waitingFor]);
    expect(due).toEqual([[44_000, 'time'], ...Array(4).fill([68_000, 'time'])]);
  });
});

/** Waits (in real time, bounded) for something the receiver's answers bring about. */
async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
