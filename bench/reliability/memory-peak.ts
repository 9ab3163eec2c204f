// Peak memory of this process while an attack runs, sampled on a timer. RSS is what the OS sees, but pages freed
// earlier are reused without growing it; heap + external (strings, arrays, fetch and socket buffers) counts what
// the attack makes the process hold, whether or not RSS had room for it already.

/** Growth over the baseline taken when sampling started, in MB. */
export interface MemoryGrowth {
  /** Peak resident set size minus the baseline. */
  rssMb: number;
  /** Peak JavaScript heap in use plus external memory (Buffers, ArrayBuffers) minus the baseline. */
  heapMb: number;
}

const MB = 1024 * 1024;

/** Samples memory every `everyMs` until `stop()`, which returns the peak growth. */
export function sampleMemory(everyMs = 10): { stop(): MemoryGrowth; peek(): MemoryGrowth } {
  globalThis.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed + base.external;
  const sample = () => {
    const now = process.memoryUsage();
    if (now.rss > peakRss) peakRss = now.rss;
    if (now.heapUsed + now.external > peakHeap) peakHeap = now.heapUsed + now.external;
  };
  const timer = setInterval(sample, everyMs);
  const growth = () => ({ rssMb: (peakRss - base.rss) / MB, heapMb: (peakHeap - base.heapUsed - base.external) / MB });
  return {
    peek: () => {
      sample();
      return growth();
    },
    stop: () => {
      clearInterval(timer);
      sample();
      return growth();
    },
  };
}
