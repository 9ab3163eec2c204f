/** A scheduled callback that can be cancelled. */
export interface Timer {
  /** Cancels the callback if it has not run yet. */
  cancel(): void;
}

/** How a callback is scheduled. */
export interface TimerOptions {
  /**
   * True when someone awaits this timer (a rate-limit wait, a retry back-off, a request timeout): the runtime must
   * stay alive until it fires or is cancelled. False for background work (the mock's scheduled deliveries), which
   * must not keep a Node process running by itself.
   * @default false
   */
  keepAlive?: boolean;
}

/**
 * Where time comes from. Everything that waits or compares times (rate-limit windows, retries, circuits,
 * QR refresh) takes a Clock, so tests can use a manual one and never sleep.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `fn` once after `ms` milliseconds. Clocks without a process to keep alive may ignore `options`. */
  setTimeout(fn: () => void, ms: number, options?: TimerOptions): Timer;
}

/** The real clock: `Date.now()` and the runtime's timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms, options) {
    const handle = setTimeout(fn, Math.max(0, ms));
    // Background timers must not keep Node alive; a timer somebody awaits must, or a plain script exits mid-wait.
    if (!options?.keepAlive) (handle as { unref?: () => void }).unref?.();
    return { cancel: () => clearTimeout(handle) };
  },
};

/** Keeps the process alive while it waits: a caller is awaiting it. */
const AWAITED: TimerOptions = { keepAlive: true };

/**
 * Resolves after `ms` on `clock`, or rejects with the signal's reason when it aborts first. The timer keeps the
 * process alive while pending and is cleared on abort, so nothing lingers once the caller stops waiting.
 */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      timer.cancel();
      reject(signal?.reason);
    };
    const timer = clock.setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      ms,
      AWAITED,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Schedules a callback somebody awaits (see {@link TimerOptions.keepAlive}). */
export function awaitedTimeout(clock: Clock, fn: () => void, ms: number): Timer {
  return clock.setTimeout(fn, ms, AWAITED);
}
