/** Faults the gateway can inject into its next attempts, to test the receiver's defences. */
export interface Faults {
  /** Send the attempt twice with the same delivery id (a receiver should process it once). */
  duplicate?: boolean;
  /** Send an `X-Service-Timestamp` this many seconds in the past (true = 1 hour), to trip a freshness check. */
  staleTimestamp?: boolean | number;
  /** Send a well-shaped but wrong `X-Service-Secret` (the receiver must reject it). */
  wrongSecret?: boolean;
}

/** Default age of a stale timestamp, in seconds. */
export const STALE_TIMESTAMP_SECONDS = 3_600;

/**
 * A queue of faults for the receiver side of tests: each call to {@link FaultInjector.next} arms faults for the
 * next attempt(s) the gateway makes, whatever the endpoint.
 *
 * @example
 * gateway.faults.next({ duplicate: true });       // the next attempt is sent twice
 * gateway.faults.next({ wrongSecret: true }, 3);  // the next 3 attempts carry a wrong secret
 */
export class FaultInjector {
  readonly #queue: Faults[] = [];

  /** Arms `faults` for the next `times` attempts. @default times 1 */
  next(faults: Faults, times = 1): void {
    for (let i = 0; i < times; i++) this.#queue.push({ ...faults });
  }

  /** Takes the faults for the attempt about to go out (none when nothing is armed). */
  take(): Faults | undefined {
    return this.#queue.shift();
  }

  /** How many attempts still have faults armed. */
  get armed(): number {
    return this.#queue.length;
  }

  /** Disarms everything. */
  clear(): void {
    this.#queue.length = 0;
  }
}
