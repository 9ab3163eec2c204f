/** Consecutive failures that open a circuit (spec, Webhook delivery circuit). */
export const CIRCUIT_THRESHOLD = 5;
/** How long an open circuit drops requests, in ms (spec: 30 seconds). */
export const CIRCUIT_OPEN_MS = 30_000;

/** A circuit's state: `closed` delivers, `open` drops with 503, `half-open` lets one probe through. */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** What the circuit says about an attempt that wants to go out now. */
export type Admission =
  | { kind: 'pass' }
  | { kind: 'probe' }
  | { kind: 'blocked'; until: number }
  | { kind: 'awaiting-probe' };

/** A change of state, reported to lifecycle listeners. */
export interface CircuitTransition {
  url: string;
  from: CircuitState;
  to: CircuitState;
  /** When an open circuit half-opens (ms since the epoch), for transitions to `open`. */
  openUntil: number | null;
  at: number;
}

/** A circuit's state for inspection (`GET /__mock/circuits`). */
export interface CircuitSnapshot {
  url: string;
  state: CircuitState;
  consecutiveFailures: number;
  openUntil: number | null;
  probeInFlight: boolean;
}

/**
 * The circuit of one receiver URL. 5 consecutive failures (timeout, connection error or 5xx) open it for 30 s;
 * after that one probe goes through: success closes it, failure re-opens it for another 30 s (observed behaviour).
 */
export class CircuitBreaker {
  readonly url: string;
  #failures = 0;
  #openUntil: number | null = null;
  #probeInFlight = false;

  constructor(url: string) {
    this.url = url;
  }

  /** The state at time `now` (an open circuit becomes half-open once its 30 s have passed). */
  state(now: number): CircuitState {
    if (this.#openUntil === null) return 'closed';
    return now < this.#openUntil ? 'open' : 'half-open';
  }

  /** Asks whether an attempt may go out at `now`; the first one after the open period becomes the probe. */
  admit(now: number): Admission {
    const state = this.state(now);
    if (state === 'closed') return { kind: 'pass' };
    if (state === 'open') return { kind: 'blocked', until: this.#openUntil! };
    if (this.#probeInFlight) return { kind: 'awaiting-probe' };
    this.#probeInFlight = true;
    return { kind: 'probe' };
  }

  /** Records a success; returns the transition when it closed the circuit. */
  recordSuccess(now: number): CircuitTransition | null {
    const from = this.state(now);
    this.#failures = 0;
    this.#probeInFlight = false;
    this.#openUntil = null;
    return from === 'closed' ? null : this.#transition(from, 'closed', now);
  }

  /** Records a failure; returns the transition when it opened (or re-opened) the circuit. */
  recordFailure(now: number): CircuitTransition | null {
    const from = this.state(now);
    this.#failures++;
    const wasProbe = this.#probeInFlight;
    this.#probeInFlight = false;
    if (wasProbe || (from === 'closed' && this.#failures >= CIRCUIT_THRESHOLD)) {
      this.#openUntil = now + CIRCUIT_OPEN_MS;
      return this.#transition(from, 'open', now);
    }
    return null;
  }

  /** Records an answer that is neither success nor failure (e.g. 4xx): the receiver is alive, so the streak ends. */
  recordAnswer(now: number): CircuitTransition | null {
    // A probe answered by a live receiver closes the circuit as well.
    return this.recordSuccess(now);
  }

  /** The circuit's state for inspection. */
  snapshot(now: number): CircuitSnapshot {
    return {
      url: this.url,
      state: this.state(now),
      consecutiveFailures: this.#failures,
      openUntil: this.#openUntil,
      probeInFlight: this.#probeInFlight,
    };
  }

  #transition(from: CircuitState, to: CircuitState, at: number): CircuitTransition {
    return { url: this.url, from, to, openUntil: to === 'open' ? this.#openUntil : null, at };
  }
}
