import { createMockBackend, ManualClock } from 'linkgate/mock';
import { afterEach, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../support/receiver.js';

const TOKEN = 'ctl-advance-test';

/** A backend on a manual clock delivering to `receiver` over real HTTP, driven through its control API. */
function backendFor(receiver: Receiver) {
  const clock = new ManualClock();
  const backend = createMockBackend({ clock, gateway: { controlToken: TOKEN } });
  backend.gateway.routing.setTenant('default', { url: receiver.url });
  const device = backend.gateway.devices.add();
  const control = async (path: string, body: unknown = {}) => {
    const res = await backend.fetch(`http://localhost/__mock/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const send = () => backend.gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
  return { clock, gateway: backend.gateway, control, send };
}

describe('moving a manual clock past attempts in flight', () => {
  let receiver: Receiver;
  afterEach(() => receiver?.close());

  it('answers clock/advance promptly over a receiver that never answers, timing the attempt out and scheduling its retry', async () => {
    receiver = await startReceiver(() => 'hang');
    const { clock, gateway, control, send } = backendFor(receiver);
    const t0 = clock.now();
    send();
    const started = performance.now();
    const res = await control('clock/advance', { ms: 8_000 });
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(res).toMatchObject({ status: 200, body: { now: t0 + 8_000, inFlight: [] } });
    expect(gateway.attempts()).toEqual([
      expect.objectContaining({ outcome: 'failed', error: 'timeout', durationMs: 8_000, nextAttemptAt: t0 + 11_000 }),
    ]);
    expect(gateway.scheduled()).toEqual([expect.objectContaining({ attempt: 2, at: t0 + 11_000 })]);
  });

  it('answers drain within the answer grace over a receiver that never answers, naming the attempt and the way out', async () => {
    receiver = await startReceiver(() => 'hang');
    const { clock, control, send } = backendFor(receiver);
    const t0 = clock.now();
    send();
    const started = performance.now();
    const res = await control('drain');
    expect(performance.now() - started).toBeLessThan(6_000);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: false,
      now: t0,
      inFlight: [expect.objectContaining({ url: receiver.url, attempt: 1, startedAt: t0, deadline: t0 + 8_000 })],
    });
    expect(res.body.message).toContain('POST /__mock/clock/advance {"ms": 8000}');
  });

  it('never times out an attempt whose receiver answers, however far one advance jumps', async () => {
    // The first attempt fails; the retry, sent 3 s later on the clock, is answered 200 after 300 ms of real time.
    receiver = await startReceiver((n) =>
      n === 0 ? { status: 502 } : new Promise((r) => setTimeout(() => r({ status: 200 }), 300)),
    );
    const { gateway, control, send } = backendFor(receiver);
    send();
    const res = await control('clock/advance', { ms: 600_000 });
    expect(res.status).toBe(200);
    expect(gateway.attempts().map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'failed'],
      [2, 'delivered'],
    ]);
  });
});
