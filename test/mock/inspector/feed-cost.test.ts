import { describe, expect, it } from 'vitest';
import { measureReaders } from '../../../bench/reliability/inspector-readers.js';

// Issue 21: every update re-sent the whole data section to every reader, so a write cost store size × readers.
describe('what open inspector feeds cost a write (300 writes, real sockets, the standalone server)', () => {
  it('sends each reader about the same bytes per write whether the store holds 0 or 1,500 pixels', async () => {
    const small = await measureReaders({ pixels: 0, readers: 1, writes: 300 });
    const large = await measureReaders({ pixels: 1_500, readers: 1, writes: 300 });
    // Before: about 2 KB a write at 1,500 pixels (the whole data section with every update), 70 bytes at 0.
    expect(large.bytesPerReader / 300).toBeLessThan(300);
    expect(large.bytesPerReader).toBeLessThan(small.bytesPerReader * 2 + 10_000);
  }, 60_000);

  it('sends each of 300 readers (50 of them never reading) only what a write changed', async () => {
    const many = await measureReaders({ pixels: 1_500, readers: 300, stalled: 50, writes: 300 });
    // Before, each reader got 2 KB a write. The time a write and an unrelated GET take with 300 readers is a
    // benchmark's figure, not a test's (`npm run reliability -- inspector` judges it): a loaded machine moves it 3x.
    expect(many.bytesPerReader / 300).toBeLessThan(300);
  }, 90_000);
});
