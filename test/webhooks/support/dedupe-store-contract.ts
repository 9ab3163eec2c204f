// What every DedupeStore promises, as one spec run against each store: MemoryDedupeStore, and RedisDedupeStore on
// node-redis and on ioredis (test/redis/dedupe-store-contract.test.ts). Time is real (Redis expires keys on its own clock), with windows of a few
// hundred ms.
import { expect, it } from 'vitest';
import type { DedupeStore } from '../../../src/webhooks/dedupe.js';

const DAY_MS = 86_400_000;
const SHORT_MS = 200;
/** Past SHORT_MS with room for a loaded machine. */
const AFTER_SHORT_MS = 450;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Registers the contract's tests. `store()` is called for every step and gives the store under test: one store, or
 * (for a shared store) stores of different connections in turn, so each rule is also proven across processes. Each
 * test takes fresh ids, so stores may be shared between tests.
 */
export function dedupeStoreContract(store: () => DedupeStore): void {
  let n = 0;
  const id = () => `contract-${process.pid}-${Date.now()}-${++n}`;

  it('knows an added id until it is deleted', async () => {
    const a = id();
    expect(await store().has(a)).toBe(false);
    await store().add(a, DAY_MS);
    expect(await store().has(a)).toBe(true);
    await store().delete(a);
    expect(await store().has(a)).toBe(false);
  });

  it('forgets an added id once its TTL has run out', async () => {
    const a = id();
    await store().add(a, SHORT_MS);
    expect(await store().has(a)).toBe(true);
    await sleep(AFTER_SHORT_MS);
    expect(await store().has(a)).toBe(false);
  });

  it('adds with addIfAbsent only when the id is not held', async () => {
    const a = id();
    expect(await store().addIfAbsent!(a, DAY_MS)).toBe(true);
    expect(await store().addIfAbsent!(a, DAY_MS)).toBe(false);
    expect(await store().has(a)).toBe(true);
    await store().delete(a);
    expect(await store().addIfAbsent!(a, DAY_MS)).toBe(true);
  });

  it('claims an id once: then it is in progress, and done once marked done', async () => {
    const a = id();
    expect(await store().claim!(a, DAY_MS)).toBe('claimed');
    expect(await store().has(a)).toBe(true);
    expect(await store().claim!(a, DAY_MS)).toBe('in_progress');
    await store().markDone!(a, DAY_MS);
    expect(await store().claim!(a, DAY_MS)).toBe('done');
    expect(await store().has(a)).toBe(true);
  });

  it('grants exactly one of many claims made at the same moment', async () => {
    const a = id();
    const found = await Promise.all(Array.from({ length: 10 }, () => store().claim!(a, DAY_MS)));
    expect(found.filter((f) => f === 'claimed')).toHaveLength(1);
    expect(found.filter((f) => f === 'in_progress')).toHaveLength(9);
  });

  it('lets a claim expire after its claim TTL, so a receiver that died mid-handler does not lose the event', async () => {
    const a = id();
    expect(await store().claim!(a, SHORT_MS)).toBe('claimed');
    await sleep(AFTER_SHORT_MS);
    expect(await store().has(a)).toBe(false);
    expect(await store().claim!(a, SHORT_MS)).toBe('claimed');
  });

  it('keeps a done mark for its own TTL, past the claim TTL', async () => {
    const a = id();
    expect(await store().claim!(a, SHORT_MS)).toBe('claimed');
    await store().markDone!(a, DAY_MS);
    await sleep(AFTER_SHORT_MS);
    expect(await store().claim!(a, SHORT_MS)).toBe('done');
  });

  it('frees a released claim, so the retry of a failed delivery is handled', async () => {
    const a = id();
    expect(await store().claim!(a, DAY_MS)).toBe('claimed');
    await store().delete(a);
    expect(await store().has(a)).toBe(false);
    expect(await store().claim!(a, DAY_MS)).toBe('claimed');
  });

  it('treats an id added with add as done', async () => {
    const a = id();
    await store().add(a, DAY_MS);
    expect(await store().claim!(a, DAY_MS)).toBe('done');
    expect(await store().addIfAbsent!(a, DAY_MS)).toBe(false);
  });

  it('keeps ids apart: one id claimed or done says nothing of another', async () => {
    const [a, b] = [id(), id()];
    await store().claim!(a, DAY_MS);
    await store().markDone!(a, DAY_MS);
    expect(await store().has(b)).toBe(false);
    expect(await store().claim!(b, DAY_MS)).toBe('claimed');
  });
}
