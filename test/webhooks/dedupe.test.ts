import { describe, expect, it, vi } from 'vitest';
import {
  createTestDelivery,
  createWebhookHandler,
  createWebhookVerifier,
  type DedupeStore,
  MemoryDedupeStore,
  verifyWebhook,
  verifyWebhookSync,
} from '../../src/webhooks/index.js';
import { verifyWebhookDelivery } from '../../src/webhooks/verify.js';
import { clockAtNow, messageReceived, NOW_S, TENANT_SECRET } from './support/fixtures.js';

const send = (deliveryId = 'd-1') =>
  createTestDelivery({ event: messageReceived, secret: TENANT_SECRET, timestamp: NOW_S, deliveryId });

/** A handler that dedupes with `dedupe`, routes `message.received` to `handled` and reports to `onError`. */
const dedupingHandler = (
  dedupe: DedupeStore | true,
  handled: () => unknown,
  onError: (error: unknown) => void = () => {},
) =>
  createWebhookHandler({
    secret: TENANT_SECRET,
    clock: clockAtNow(),
    dedupe,
    on: { 'message.received': handled },
    onError,
  });

/** An async store over `ids`, as a Redis-backed one without addIfAbsent behaves. */
const asyncSetStore = (ids: Set<string>): DedupeStore => ({
  has: async (id) => ids.has(id),
  add: async (id) => void ids.add(id),
  delete: async (id) => void ids.delete(id),
});

describe('MemoryDedupeStore', () => {
  it('remembers an id until its TTL runs out', () => {
    let now = 0;
    const store = new MemoryDedupeStore({ now: () => now });
    store.add('a', 1000);
    now = 999;
    expect(store.has('a')).toBe(true);
    now = 1000;
    expect(store.has('a')).toBe(false);
  });

  it('evicts the oldest id once max is passed', () => {
    const store = new MemoryDedupeStore({ max: 3 });
    for (const id of ['a', 'b', 'c', 'd']) store.add(id, 60_000);
    expect(store.size).toBe(3);
    expect(['a', 'b', 'c', 'd'].map((id) => store.has(id))).toEqual([false, true, true, true]);
  });

  it('counts a re-added id as the newest', () => {
    const store = new MemoryDedupeStore({ max: 2 });
    store.add('a', 60_000);
    store.add('b', 60_000);
    store.add('a', 60_000);
    store.add('c', 60_000);
    expect([store.has('a'), store.has('b'), store.has('c')]).toEqual([true, false, true]);
  });

  it('keeps ids for its own ttlMs when given, whatever the verifier asks', () => {
    let now = 0;
    const store = new MemoryDedupeStore({ ttlMs: 100, now: () => now });
    store.add('a', 86_400_000);
    now = 100;
    expect(store.has('a')).toBe(false);
  });

  it('refuses a max that is not a positive integer', () => {
    expect(() => new MemoryDedupeStore({ max: 0 })).toThrow(/options\.max must be a positive integer/);
  });
});

describe('a repeated delivery is acknowledged, not handled twice', () => {
  it("a verifier's verifyDelivery reports the second arrival as a duplicate", async () => {
    const verifier = createWebhookVerifier({
      secret: TENANT_SECRET,
      clock: clockAtNow(),
      dedupe: new MemoryDedupeStore(),
    });
    expect((await verifier.verifyDelivery(send().request)).duplicate).toBe(false);
    const again = await verifier.verifyDelivery(send().request);
    expect(again).toMatchObject({ duplicate: true, deliveryId: 'd-1', event: { event: 'message.received' } });
  });

  it("a verifier's verifySync throws a duplicate error for the second arrival", () => {
    const verifier = createWebhookVerifier({
      secret: TENANT_SECRET,
      clock: clockAtNow(),
      dedupe: new MemoryDedupeStore(),
    });
    const { headers, body } = send();
    verifier.verifySync({ headers, body });
    expect(() => verifier.verifySync({ headers, body })).toThrow(expect.objectContaining({ code: 'duplicate' }));
  });

  it('is refused by the one-call functions, which would forget every id, naming the verifier to use instead', async () => {
    const options = { secret: TENANT_SECRET, clock: clockAtNow(), dedupe: true };
    const { headers, body, request } = send();
    const fix =
      'create one verifier with createWebhookVerifier({ secret, dedupe }) (or one handler with createWebhookHandler)';
    expect(() => verifyWebhookSync({ headers, body }, options)).toThrow(
      new TypeError(
        `options.dedupe is not an option of verifyWebhookSync, which keeps nothing between calls: ${fix} and reuse it for every delivery.`,
      ),
    );
    await expect(verifyWebhook(request, options)).rejects.toThrow('options.dedupe is not an option of verifyWebhook,');
    await expect(verifyWebhookDelivery(request, options)).rejects.toThrow(
      'options.dedupe is not an option of verifyWebhookDelivery,',
    );
  });

  it('does not record deliveries that fail verification', async () => {
    const dedupe = new MemoryDedupeStore();
    const { headers } = send();
    await expect(
      createWebhookVerifier({ secret: TENANT_SECRET, clock: clockAtNow(), dedupe }).verifyDelivery({
        headers,
        body: '{',
      }),
    ).rejects.toMatchObject({ code: 'invalid_json' });
    expect(dedupe.has('d-1')).toBe(false);
  });

  it('the handler answers 200 to a duplicate without calling the handler again', async () => {
    const handled = vi.fn();
    const handler = dedupingHandler(new MemoryDedupeStore(), handled);
    const first = await handler(send().request);
    const second = await handler(send().request);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await second.json()).toEqual({ status: 'success' });
    expect(handled).toHaveBeenCalledTimes(1);
  });

  it('dedupe: true gives the handler its own bounded in-memory store', async () => {
    const handled = vi.fn();
    const handler = dedupingHandler(true, handled);
    await handler(send().request);
    await handler(send().request);
    expect(handled).toHaveBeenCalledTimes(1);
  });

  it('forgets a delivery whose handler failed, so the gateway retry runs it again', async () => {
    const handled = vi.fn().mockRejectedValueOnce(new Error('db down')).mockResolvedValueOnce(undefined);
    const handler = dedupingHandler(new MemoryDedupeStore(), handled);
    expect((await handler(send().request)).status).toBe(500);
    expect((await handler(send().request)).status).toBe(200);
    expect(handled).toHaveBeenCalledTimes(2);
  });

  it('refuses a store without delete at set-up, since a failed delivery could then never run again', () => {
    const store = { has: () => false, add: () => {} } as unknown as DedupeStore;
    expect(() => createWebhookHandler({ secret: TENANT_SECRET, dedupe: store })).toThrow(
      'options.dedupe must be true or a store with has(id), add(id, ttlMs) and delete(id) methods (see DedupeStore); it has no delete.',
    );
  });

  it('works with an async store such as Redis', async () => {
    const ids = new Set<string>();
    const handled = vi.fn();
    const handler = dedupingHandler(asyncSetStore(ids), handled);
    await handler(send('x').request);
    await handler(send('x').request);
    await handler(send('y').request);
    expect(handled).toHaveBeenCalledTimes(2);
    expect([...ids]).toEqual(['x', 'y']);
  });

  it('handles two copies that arrive at the same moment once, answering the second 503 in_progress so the gateway retries it', async () => {
    const handled = vi.fn();
    const handler = dedupingHandler(new MemoryDedupeStore(), handled);
    const answers = await Promise.all([handler(send('same').request), handler(send('same').request)]);
    expect(answers.map((a) => a.status)).toEqual([200, 503]);
    expect(await answers[1]!.json()).toMatchObject({ status: 'error', code: 'in_progress' });
    expect(handled).toHaveBeenCalledTimes(1);
    // The gateway's retry of the second copy finds the first one done.
    expect((await handler(send('same').request)).status).toBe(200);
    expect(handled).toHaveBeenCalledTimes(1);
  });

  it('claims through addIfAbsent when the store has it, so concurrent copies are handled once across instances', async () => {
    const ids = new Set<string>();
    const store: DedupeStore = {
      ...asyncSetStore(ids),
      // A has() that always answers "new" shows the verifier does not rely on has-then-add here.
      has: async () => false,
      addIfAbsent: async (id) => {
        if (ids.has(id)) return false;
        ids.add(id);
        return true;
      },
    };
    const handled = vi.fn();
    const handler = dedupingHandler(store, handled);
    await Promise.all([handler(send('z').request), handler(send('z').request), handler(send('z').request)]);
    expect(handled).toHaveBeenCalledTimes(1);
  });

  it('answers 500 (so the gateway retries) when the store itself fails', async () => {
    const store: DedupeStore = {
      has: async () => Promise.reject(new Error('redis down')),
      add: () => {},
      delete: () => {},
    };
    const onError = vi.fn();
    const handler = dedupingHandler(store, () => {}, onError);
    const response = await handler(send().request);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ status: 'error', code: 'internal_error' });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'redis down' }), {
      event: 'message.received',
      deliveryId: 'd-1',
      acknowledged: false,
      dedupeStep: 'claim',
    });
  });
});

describe('a claim while the handler runs, a done mark once it answered', () => {
  /** A handler whose runs end when the test says. */
  const heldHandler = () => {
    const ends: (() => void)[] = [];
    const fn = vi.fn(() => new Promise<void>((resolve) => ends.push(resolve)));
    return { fn, end: () => ends.shift()?.() };
  };

  it('answers a copy 503 in_progress while the first copy is handled, and 200 once that one is done', async () => {
    const held = heldHandler();
    const handler = dedupingHandler(new MemoryDedupeStore(), held.fn);
    const first = handler(send().request);
    await vi.waitFor(() => expect(held.fn).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    const copy = await handler(send().request);
    expect(copy.status).toBe(503);
    expect(await copy.json()).toEqual({
      status: 'error',
      code: 'in_progress',
      message: expect.stringContaining('answering 503 so the gateway retries it later'),
    });
    held.end();
    expect((await first).status).toBe(200);
    expect((await handler(send().request)).status).toBe(200);
    expect(held.fn).toHaveBeenCalledTimes(1);
  });

  it('handles the retry once the claim of a receiver that died mid-handler has expired', async () => {
    let now = 0;
    const store = new MemoryDedupeStore({ now: () => now });
    // What the dead receiver left: a claim, never marked done nor released.
    store.claim('d-1', 30_000);
    const handled = vi.fn();
    const handler = dedupingHandler(store, handled);
    now = 29_999;
    expect((await handler(send().request)).status).toBe(503);
    now = 30_000;
    expect((await handler(send().request)).status).toBe(200);
    expect(handled).toHaveBeenCalledTimes(1);
  });

  it('keeps a handled delivery for dedupeTtlMs, long after the claim TTL', async () => {
    let now = 0;
    const store = new MemoryDedupeStore({ now: () => now });
    const handled = vi.fn();
    const handler = createWebhookHandler({
      secret: TENANT_SECRET,
      clock: clockAtNow(),
      dedupe: store,
      dedupeClaimTtlMs: 10_000,
      dedupeTtlMs: 3_600_000,
      on: { 'message.received': handled },
    });
    await handler(send().request);
    now = 3_599_999;
    expect((await handler(send().request)).status).toBe(200);
    now = 3_600_000;
    await handler(send().request);
    expect(handled).toHaveBeenCalledTimes(2);
  });

  it('claims for dedupeClaimTtlMs, and refuses one not longer than ackTimeoutMs', async () => {
    const claims: number[] = [];
    const store = new MemoryDedupeStore();
    const claim = store.claim.bind(store);
    store.claim = (id, ttlMs) => {
      claims.push(ttlMs);
      return claim(id, ttlMs);
    };
    const handler = createWebhookHandler({
      secret: TENANT_SECRET,
      clock: clockAtNow(),
      dedupe: store,
      on: { 'message.received': () => {} },
    });
    await handler(send().request);
    expect(claims).toEqual([30_000]);
    expect(() =>
      createWebhookHandler({ secret: TENANT_SECRET, dedupe: true, dedupeClaimTtlMs: 7_000, ackTimeoutMs: 7_000 }),
    ).toThrow(
      new TypeError(
        'options.dedupeClaimTtlMs must be a number of ms above ackTimeoutMs (a claim expiring mid-handler lets a copy run too); got 7000.',
      ),
    );
  });

  it('acknowledges an event nobody handles without asking the store', async () => {
    const broken: DedupeStore = {
      has: () => Promise.reject(new Error('redis down')),
      add: () => Promise.reject(new Error('redis down')),
      delete: () => Promise.reject(new Error('redis down')),
      claim: () => Promise.reject(new Error('redis down')),
      markDone: () => Promise.reject(new Error('redis down')),
    };
    const handler = createWebhookHandler({ secret: TENANT_SECRET, clock: clockAtNow(), dedupe: broken, on: {} });
    expect((await handler(send().request)).status).toBe(200);
  });

  it('answers 200 when only the done mark fails, telling onError, since the event was handled', async () => {
    const store = new MemoryDedupeStore();
    store.markDone = () => {
      throw new Error('redis down');
    };
    const onError = vi.fn();
    const handled = vi.fn();
    const handler = dedupingHandler(store, handled, onError);
    expect((await handler(send().request)).status).toBe(200);
    expect(handled).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'redis down' }), {
      event: 'message.received',
      deliveryId: 'd-1',
      acknowledged: true,
      dedupeStep: 'markDone',
    });
  });

  it('refuses a store whose claim() answers something else, naming the values it must return', async () => {
    const store = new MemoryDedupeStore();
    store.claim = () => 'ok' as never;
    const onError = vi.fn();
    const handler = dedupingHandler(store, () => {}, onError);
    expect((await handler(send().request)).status).toBe(500);
    expect(onError.mock.calls[0]![0].message).toBe(
      `The dedupe store's claim() returned "ok"; it must return 'claimed', 'in_progress' or 'done'.`,
    );
  });
});
