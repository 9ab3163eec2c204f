import { createWebhookHandler, MemoryDedupeStore, toNodeHandler, type WebhookHandlerOptions } from 'linkgate/webhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createMockBackend } from '../../../mock/index.js';
import { manualGateway } from '../support/gateway.js';
import { type Receiver, startNodeListener, startReceiver } from '../support/receiver.js';

const idOf = (r: Receiver, n: number) => String(r.received[n]!.headers['x-service-delivery-id']);

describe('the perAttemptDeliveryIds production variant', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
  });

  async function failingOnce(options: { perAttemptDeliveryIds?: boolean } = {}) {
    const rx = await startReceiver((n) => (n === 0 ? { status: 500 } : { status: 200 }));
    closers.push(rx.close);
    const { gateway, clock } = manualGateway(options);
    gateway.routing.setTenant('default', { url: rx.url });
    const published = gateway.simulate.message({ device_id: gateway.devices.add().id, sender: '15551234567' });
    await gateway.drain();
    await gateway.advance(3_000);
    await gateway.drain();
    return { rx, gateway, clock, published };
  }

  it('sends a retry with a new delivery id, the first attempt with the id the records show', async () => {
    const { rx, gateway } = await failingOnce({ perAttemptDeliveryIds: true });
    expect(rx.received).toHaveLength(2);
    const [first, retry] = gateway.attempts();
    expect(first!.request.headers['X-Service-Delivery-ID']).toBe(first!.deliveryId);
    expect(idOf(rx, 0)).toBe(first!.deliveryId);
    expect(idOf(rx, 1)).not.toBe(idOf(rx, 0));
    expect(idOf(rx, 1)).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    // The records still group the attempts under the event's id; the header shows what was sent.
    expect(retry!.deliveryId).toBe(first!.deliveryId);
    expect(retry!.request.headers['X-Service-Delivery-ID']).toBe(idOf(rx, 1));
    // The body is the same event, so only its own identity can tell the two attempts are one event.
    expect(rx.received[1]!.body).toBe(rx.received[0]!.body);
  });

  it('keeps one delivery id across retries without the variant (the spec)', async () => {
    const { rx } = await failingOnce();
    expect(rx.received).toHaveLength(2);
    expect(idOf(rx, 1)).toBe(idOf(rx, 0));
  });

  it('sends the copy of an injected duplicate with a new id', async () => {
    const rx = await startReceiver();
    closers.push(rx.close);
    const { gateway } = manualGateway({ perAttemptDeliveryIds: true });
    gateway.routing.setTenant('default', { url: rx.url });
    gateway.faults.next({ duplicate: true });
    gateway.simulate.message({ device_id: gateway.devices.add().id, sender: '15551234567' });
    await gateway.drain();
    expect(rx.received).toHaveLength(2);
    expect(idOf(rx, 1)).not.toBe(idOf(rx, 0));
    expect(rx.received[1]!.body).toBe(rx.received[0]!.body);
  });

  it('sends a replayed dead letter with a new id; the queue and replay still go by the event id', async () => {
    const rx = await startReceiver(() => ({ status: 400 }));
    closers.push(rx.close);
    const { gateway } = manualGateway({ perAttemptDeliveryIds: true });
    gateway.routing.setTenant('default', { url: rx.url });
    gateway.simulate.message({ device_id: gateway.devices.add().id, sender: '15551234567' });
    await gateway.drain();
    const [dead] = gateway.deadLetters.list();
    expect(dead!.deliveryId).toBe(idOf(rx, 0));
    rx.answer(() => ({ status: 200 }));
    gateway.replay(dead!.deliveryId);
    await gateway.drain();
    expect(rx.received).toHaveLength(2);
    expect(idOf(rx, 1)).not.toBe(idOf(rx, 0));
  });

  it('is switched on by createMockBackend({ variants: ["perAttemptDeliveryIds"] })', async () => {
    const rx = await startReceiver((n) => (n === 0 ? { status: 503 } : { status: 200 }));
    closers.push(rx.close);
    const { ManualClock } = await import('../../../mock/shared/manual-clock.js');
    const backend = createMockBackend({ clock: new ManualClock(), variants: ['perAttemptDeliveryIds'] });
    expect(backend.options.variants.perAttemptDeliveryIds).toBe(true);
    const { gateway } = backend;
    gateway.routing.setTenant('default', { url: rx.url });
    gateway.simulate.message({ device_id: gateway.devices.add().id, sender: '15551234567' });
    await gateway.drain();
    await gateway.advance(3_000);
    await gateway.drain();
    expect(rx.received).toHaveLength(2);
    expect(idOf(rx, 1)).not.toBe(idOf(rx, 0));
  });
});

describe("a receiver's dedupeKey against the perAttemptDeliveryIds variant", () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
  });

  /** Sends one message twice (the duplicate fault) to a deduping receiver; returns the delivery ids it handled. */
  async function handledIds(dedupeKey: WebhookHandlerOptions['dedupeKey']): Promise<string[]> {
    const { gateway } = manualGateway({ perAttemptDeliveryIds: true });
    const secret = `whsec_live_${'d'.repeat(32)}`;
    const handled: string[] = [];
    const rx = await startNodeListener(
      toNodeHandler(
        createWebhookHandler({
          secret,
          dedupe: new MemoryDedupeStore(),
          dedupeKey,
          on: { 'message.received': (_e, ctx) => void handled.push(String(ctx.deliveryId)) },
        }),
      ) as never,
    );
    closers.push(rx.close);
    gateway.routing.setTenant('default', { url: rx.url, secret });
    gateway.faults.next({ duplicate: true });
    gateway.simulate.message({ device_id: gateway.devices.add().id, sender: '15551234567', text: 'once' });
    await gateway.drain();
    expect(gateway.attempts().map((a) => a.response?.status)).toEqual([200, 200]);
    return handled;
  }

  it('handles a resent event twice with the default key, the delivery id', async () => {
    const ids = await handledIds(undefined);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });

  it("handles it once with dedupeKey: 'event'", async () => {
    expect(await handledIds('event')).toHaveLength(1);
  });
});
