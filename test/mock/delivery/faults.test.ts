import { createWebhookHandler, MemoryDedupeStore, toNodeHandler } from 'linkgate/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { manualGateway } from '../support/gateway.js';
import { type Receiver, refusedUrl, startNodeListener, startReceiver } from '../support/receiver.js';

describe('timeouts, refused connections and injected faults', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
  });

  it('fails an attempt the receiver does not answer within 8 s on the clock, and retries it', async () => {
    const rx: Receiver = await startReceiver(() => 'hang');
    closers.push(rx.close);
    const { gateway, clock } = manualGateway();
    gateway.routing.setTenant('default', { url: rx.url });
    const device = gateway.devices.add();
    gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    await clock.advance(7_999);
    expect(gateway.attempts()).toHaveLength(0);
    await clock.advance(1);
    await gateway.drain();
    const [a] = gateway.attempts();
    expect(a).toMatchObject({ outcome: 'failed', error: 'timeout', response: null, durationMs: 8_000 });
    expect(a!.nextAttemptAt).toBe(a!.startedAt + 8_000 + 3_000);
  });

  it('counts a refused connection as a failure', async () => {
    const { gateway } = manualGateway();
    gateway.routing.setTenant('default', { url: await refusedUrl() });
    const device = gateway.devices.add();
    gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    await gateway.drain();
    expect(gateway.attempts()[0]).toMatchObject({ outcome: 'failed', response: null });
    expect(gateway.attempts()[0]!.error).toMatch(/^connection error/);
    expect(gateway.circuits()[0]!.consecutiveFailures).toBe(1);
  });

  it('injects a wrong secret, a stale timestamp and a duplicate, and the webhook toolkit rejects or dedupes each', async () => {
    const { gateway } = manualGateway();
    const secret = `whsec_live_${'c'.repeat(32)}`;
    const handled: string[] = [];
    const rx = await startNodeListener(
      toNodeHandler(
        createWebhookHandler({
          secret,
          dedupe: new MemoryDedupeStore(),
          onError: () => {},
          on: { 'message.received': (_e, ctx) => void handled.push(String(ctx.deliveryId)) },
        }),
      ) as never,
    );
    closers.push(rx.close);
    gateway.routing.setTenant('default', { url: rx.url, secret });
    const device = gateway.devices.add();

    gateway.faults.next({ wrongSecret: true });
    gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    await gateway.drain();
    gateway.faults.next({ staleTimestamp: true });
    gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    await gateway.drain();
    gateway.faults.next({ duplicate: true });
    gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    await gateway.drain();

    const attempts = gateway.attempts();
    expect(attempts[0]).toMatchObject({ faults: ['wrong-secret'], outcome: 'rejected', response: { status: 401 } });
    expect(attempts[0]!.request.headers['X-Service-Secret']).not.toBe(secret);
    expect(attempts[1]).toMatchObject({ faults: ['stale-timestamp'], outcome: 'rejected' });
    const staleBy = Date.now() / 1000 - Number(attempts[1]!.request.headers['X-Service-Timestamp']);
    expect(staleBy).toBeGreaterThan(3590);
    expect(staleBy).toBeLessThan(3610);
    // The duplicate: two requests with one delivery id, handled once.
    const dupes = attempts.filter((a) => a.faults.includes('duplicate'));
    expect(dupes).toHaveLength(2);
    expect(new Set(dupes.map((a) => a.deliveryId)).size).toBe(1);
    expect(dupes.every((a) => a.response?.status === 200)).toBe(true);
    expect(handled).toEqual([dupes[0]!.deliveryId]);
  });

  it('shows only the secret prefix in redacted attempt records', async () => {
    const rx = await startReceiver();
    closers.push(rx.close);
    const { gateway } = manualGateway();
    const { secret } = gateway.routing.setTenant('default', { url: rx.url });
    gateway.simulate.message({ device_id: gateway.devices.add().id, sender: '15551234567' });
    await gateway.drain();
    expect(gateway.attempts()[0]!.request.headers['X-Service-Secret']).toBe(secret);
    const redacted = JSON.stringify(gateway.attempts({ redact: true }));
    expect(redacted).not.toContain(secret);
    expect(redacted).toContain('whsec_live_[redacted]');
  });
});
