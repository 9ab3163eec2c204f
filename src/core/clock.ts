/** A scheduled callback that can be cancelled. */
export interface Timer {
  /** Cancels the callback if it has not run yet. */
  cancel(): void;
}

/**
 * Where time comes from. Everything that waits or compares times (rate-limit windows, retries, circuits,
 * QR refresh) takes a Clock, so tests can use a manual one and never sleep.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `fn` once after `ms` milliseconds. */
  setTimeout(fn: () => void, ms: number): Timer;
}

/** The real clock: `Date.now()` and the runtime's timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const handle = setTimeout(fn, Math.max(0, ms));
    // Don't keep a Node process alive just for a pending retry or window reset.
    (handle as { unref?: () => void }).unref?.();
    return { cancel: () => clearTimeout(handle) };
  },
};

/** Resolves after `ms` on `clock`, or rejects with the signal's reason when it aborts first. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      timer.cancel();
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
