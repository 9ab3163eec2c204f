/**
 * A small deterministic generator (mulberry32): numbers in [0, 1), the same sequence for the same seed in every run
 * and runtime. A fault's chance and jitter draw from one, so a seeded plan faults the same calls every time.
 *
 * @example
 * const random = seededRandom(42);
 * random(); // 0.6011037519201636, every time
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
