// The scenarios of docs/guides/gateway-simulator.md, run as written, so the guide cannot drift from the gateway.
import { createMockBackend, ManualClock } from 'linkgate/mock';
import { createWebhookHandler } from 'linkgate/webhooks';
import { describe, expect, it } from 'vitest';

const secret = `whsec_live_${'0'.repeat(32)}`;

/**
 * The guide's set-up: a receiver that fails while `state.failing`, and a mock gateway delivering to it in-process.
 * `dedupe` gives the receiver an in-memory dedupe store, as the guide's "correct receiver" has.
 */
function setUp({ dedupe = false }: { dedupe?: boolean } = {}) {
  const clock = new ManualClock();
  const state = { failing: true, handled: [] as string[] };
  const receiver = createWebhookHandler({
    secret,
    // No clock: X-Service-Timestamp carries the real time, so the default freshness check passes on a manual clock.
    dedupe,
    on: {
      'message.received': (event) => {
        if (state.failing) throw new Error('database down');
        state.handled.push(event.data.message_id);
      },
    },
    onError: () => {},
  });
  const backend = createMockBackend({
    clock,
    gateway: { fetch: async (url, init) => receiver(new Request(url, init)) },
  });
  const { gateway } = backend;
  gateway.routing.setTenant('default', { url: 'https://receiver.test/webhooks', secret });
  const device = gateway.devices.add();
  const send = (text: string) => gateway.simulate.message({ device_id: device.id, sender: '15551234567', text });
  return { clock, state, gateway, send };
}

describe('docs/guides/gateway-simulator.md', () => {
  it('retries a failed delivery after 3 s, then 6 s, and stops once the receiver answers 200', async () => {
    const { clock, state, gateway, send } = setUp();
    send('hello');
    await gateway.drain();
    expect(gateway.attempts().map((a) => a.outcome)).toEqual(['failed']);

    await clock.advance(3_000);
    await gateway.drain();
    expect(gateway.attempts().map((a) => a.outcome)).toEqual(['failed', 'failed']);

    state.failing = false;
    await clock.advance(6_000);
    await gateway.drain();
    expect(gateway.attempts().map((a) => a.outcome)).toEqual(['failed', 'failed', 'delivered']);
    expect(state.handled).toHaveLength(1);
  });

  it('opens the circuit after 5 consecutive failures, drops with 503 for 30 s, then lets one probe through', async () => {
    const { clock, state, gateway, send } = setUp();
    for (let i = 0; i < 5; i++) send(`m${i}`);
    await gateway.drain();
    expect(gateway.circuits()[0]?.state).toBe('open');

    send('while open');
    await gateway.drain();
    expect(gateway.attempts().at(-1)?.outcome).toBe('circuit-open');
    expect(gateway.attempts().at(-1)?.response?.status).toBe(503);

    state.failing = false;
    await clock.advance(30_000);
    await gateway.drain();
    expect(gateway.circuits()[0]?.state).toBe('closed');
  });

  it('dead-letters an event after its 6th failed attempt, and replays it with the same delivery id', async () => {
    const { clock, state, gateway, send } = setUp();
    const published = send('important');
    await clock.runAll();
    await gateway.drain();
    const [dead] = gateway.deadLetters.list();
    expect(dead).toMatchObject({ reason: 'exhausted', attempts: 6 });
    expect(published.delivery.queued && published.delivery.deliveryId).toBe(dead!.deliveryId);

    state.failing = false;
    gateway.replay(dead!.deliveryId);
    await gateway.drain();
    // The last failure re-opened the circuit: the replay waits for it, then goes out as the probe.
    expect(gateway.attempts().at(-1)?.outcome).toBe('circuit-open');
    await clock.advance(30_000);
    await gateway.drain();
    expect(gateway.deadLetters.list()).toEqual([]);
    expect(gateway.attempts({ deliveryId: dead!.deliveryId }).at(-1)?.outcome).toBe('delivered');
    expect(state.handled).toHaveLength(1);
  });

  it('sends an armed duplicate twice with one delivery id', async () => {
    const { gateway, send } = setUp();
    gateway.faults.next({ duplicate: true });
    send('twice');
    await gateway.drain();
    const ids = gateway.attempts().map((a) => a.deliveryId);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
  });

  it('has a receiver with dedupe handle an armed duplicate once, and refuse a wrong secret or a stale timestamp with 401, which the gateway dead-letters as rejected', async () => {
    const { state, gateway, send } = setUp({ dedupe: true });
    state.failing = false;
    gateway.faults.next({ duplicate: true });
    send('twice');
    await gateway.drain();
    expect(state.handled).toHaveLength(1);
    expect(gateway.attempts().map((a) => a.response?.status)).toEqual([200, 200]);

    gateway.faults.next({ wrongSecret: true }, 3);
    gateway.faults.next({ staleTimestamp: true });
    for (let i = 0; i < 4; i++) send(`forged ${i}`);
    await gateway.drain();
    const forged = gateway.attempts().slice(2);
    expect(forged.map((a) => [a.outcome, a.response?.status])).toEqual(Array(4).fill(['rejected', 401]));
    expect(forged.map((a) => JSON.parse(a.response!.body).code).sort()).toEqual([
      'secret_mismatch',
      'secret_mismatch',
      'secret_mismatch',
      'stale_timestamp',
    ]);
    expect(gateway.deadLetters.list().map((d) => d.reason)).toEqual(Array(4).fill('rejected'));
    expect(state.handled).toHaveLength(1);
  });
});
