// What every DedupeStore promises, as one spec run against each store: MemoryDedupeStore here, RedisDedupeStore on
// node-redis and on ioredis in test/redis/. Time is real (Redis expires keys on its own clock), with windows of a few
// hundred ms.
import { expect, it } from 'vitest';
import type { DedupeStore } from '../../../src/webhooks/dedupe.js';

const DAY_MS = 86_400_000;
const SHORT_MS = 200;
/** Past SHORT_MS with room for a loaded machine. */
const AFTER_SHORT_MS = 450;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Registers the contract's tests. `store()` gives the store under test, empty of the ids the tests use (each test
 * takes fresh ids from `id()`, so stores may be shared between tests).
 */
export function dedupeStoreContract(store: () => DedupeStore): void {
  let n = 0;
  const id = () => `contract-${process.pid}-${Date.now()}-${++n}`;

  it('knows an added id until it is deleted', async () => {
    const s = store();
    const a = id();
    expect(await s.has(a)).toBe(false);
    await s.add(a, DAY_MS);
    expect(await s.has(a)).toBe(true);
    await s.delete(a);
    expect(await s.has(a)).toBe(false);
  });

  it('forgets an added id once its TTL has run out', async () => {
    const s = store();
    const a = id();
    await s.add(a, SHORT_MS);
    expect(await s.has(a)).toBe(true);
    await sleep(AFTER_SHORT_MS);
    expect(await s.has(a)).toBe(false);
  });

  it('adds with addIfAbsent only when the id is not held', async () => {
    const s = store();
    const a = id();
    expect(await s.addIfAbsent!(a, DAY_MS)).toBe(true);
    expect(await s.addIfAbsent!(a, DAY_MS)).toBe(false);
    expect(await s.has(a)).toBe(true);
    await s.delete(a);
    expect(await s.addIfAbsent!(a, DAY_MS)).toBe(true);
  });

  it('claims an id once: then it is in progress, and done once marked done', async () => {
    const s = store();
    const a = id();
    expect(await s.claim!(a, DAY_MS)).toBe('claimed');
    expect(await s.has(a)).toBe(true);
    expect(await s.claim!(a, DAY_MS)).toBe('in_progress');
    await s.markDone!(a, DAY_MS);
    expect(await s.claim!(a, DAY_MS)).toBe('done');
    expect(await s.has(a)).toBe(true);
  });

  it('grants exactly one of many claims made at the same moment', async () => {
    const s = store();
    const a = id();
    const found = await Promise.all(Array.from({ length: 10 }, () => s.claim!(a, DAY_MS)));
    expect(found.filter((f) => f === 'claimed')).toHaveLength(1);
    expect(found.filter((f) => f === 'in_progress')).toHaveLength(9);
  });

  it('lets a claim expire after its claim TTL, so a receiver that died mid-handler does not lose the event', async () => {
    const s = store();
    const a = id();
    expect(await s.claim!(a, SHORT_MS)).toBe('claimed');
    await sleep(AFTER_SHORT_MS);
    expect(await s.has(a)).toBe(false);
    expect(await s.claim!(a, SHORT_MS)).toBe('claimed');
  });

  it('keeps a done mark for its own TTL, past the claim TTL', async () => {
    const s = store();
    const a = id();
    expect(await s.claim!(a, SHORT_MS)).toBe('claimed');
    await s.markDone!(a, DAY_MS);
    await sleep(AFTER_SHORT_MS);
    expect(await s.claim!(a, SHORT_MS)).toBe('done');
  });

  it('frees a released claim, so the retry of a failed delivery is handled', async () => {
    const s = store();
    const a = id();
    expect(await s.claim!(a, DAY_MS)).toBe('claimed');
    await s.delete(a);
    expect(await s.has(a)).toBe(false);
    expect(await s.claim!(a, DAY_MS)).toBe('claimed');
  });

  it('treats an id added with add as done', async () => {
    const s = store();
    const a = id();
    await s.add(a, DAY_MS);
    expect(await s.claim!(a, DAY_MS)).toBe('done');
    expect(await s.addIfAbsent!(a, DAY_MS)).toBe(false);
  });

  it('keeps ids apart: one id claimed or done says nothing of another', async () => {
    const s = store();
    const [a, b] = [id(), id()];
    await s.claim!(a, DAY_MS);
    await s.markDone!(a, DAY_MS);
    expect(await s.has(b)).toBe(false);
    expect(await s.claim!(b, DAY_MS)).toBe('claimed');
  });
}
