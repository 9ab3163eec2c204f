/** Consecutive failures that open a circuit (spec, Webhook delivery circuit). */
export const CIRCUIT_THRESHOLD = 5;
/** How long an open circuit drops requests, in ms (spec: 30 seconds). */
export const CIRCUIT_OPEN_MS = 30_000;

/** A circuit's state: `closed` delivers, `open` drops with 503, `half-open` lets one probe through. */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** What the circuit says about an attempt that wants to go out now. */
export type Admission =
  /** The circuit is closed: the attempt goes out. `epoch` says which closed period let it through. */
  | { kind: 'pass'; epoch: number }
  /** The circuit is half-open and this attempt is its one probe. */
  | { kind: 'probe'; epoch: number }
  /** The circuit is open until `until`. */
  | { kind: 'blocked'; until: number }
  /** The circuit is half-open and its probe, sent at `probeStartedAt`, has not answered yet. */
  | { kind: 'awaiting-probe'; probeStartedAt: number };

/** An admission that let an attempt go out to the receiver. */
export type Passage = Extract<Admission, { kind: 'pass' | 'probe' }>;

/** How an attempt that went out ended, as far as the circuit is concerned. */
export type CircuitOutcome =
  /** HTTP 200. */
  | 'success'
  /** Timeout, connection error or 5xx. */
  | 'failure'
  /** Any other answer: the receiver is alive, so the failure streak ends. */
  | 'answer';

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

/** An attempt parked behind a half-open circuit's probe, with the latest time it goes (the probe's deadline). */
export interface ParkedAttempt<T> {
  item: T;
  at: number;
}

/**
 * The circuit of one receiver URL. 5 consecutive failures (timeout, connection error or 5xx) open it for 30 s;
 * after that one probe goes through: success closes it, failure re-opens it for another 30 s (observed behaviour).
 * While it is open or half-open only the probe's answer changes it: an attempt that was already in flight when it
 * opened is answered into the void, whatever it says. Attempts that meet the probe in flight are parked here until
 * it answers. `T` is what the caller parks (the engine's jobs).
 */
export class CircuitBreaker<T = unknown> {
  readonly url: string;
  readonly #parked: ParkedAttempt<T>[] = [];
  #failures = 0;
  #openUntil: number | null = null;
  #probeInFlight = false;
  #probeStartedAt = 0;
  // Counts closed periods: an attempt let through in an earlier one no longer speaks for the receiver.
  #epoch = 0;

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
    if (state === 'closed') return { kind: 'pass', epoch: this.#epoch };
    if (state === 'open') return { kind: 'blocked', until: this.#openUntil as number };
    if (this.#probeInFlight) return { kind: 'awaiting-probe', probeStartedAt: this.#probeStartedAt };
    this.#probeInFlight = true;
    this.#probeStartedAt = now;
    return { kind: 'probe', epoch: this.#epoch };
  }

  /**
   * Records how an attempt the circuit let through ended; returns the transition it caused, if any. The probe's
   * answer closes (success or answer) or re-opens (failure) the circuit; an attempt let through while it was closed
   * counts only if the circuit has not opened since.
   */
  record(passage: Passage, outcome: CircuitOutcome, now: number): CircuitTransition | null {
    if (passage.kind === 'probe') {
      const from = this.state(now);
      this.#probeInFlight = false;
      if (outcome === 'failure') {
        this.#failures++;
        return this.#open(from, now);
      }
      return this.#close(from, now);
    }
    if (passage.epoch !== this.#epoch || this.#openUntil !== null) return null;
    if (outcome !== 'failure') {
      this.#failures = 0;
      return null;
    }
    this.#failures++;
    return this.#failures >= CIRCUIT_THRESHOLD ? this.#open('closed', now) : null;
  }

  /**
   * Parks an attempt that met the probe in flight (admission `awaiting-probe`) until the probe answers; `at` is the
   * latest time that happens.
   */
  park(item: T, at: number): void {
    this.#parked.push({ item, at });
  }

  /** The attempts parked behind the probe, in the order they came. */
  parked(): readonly ParkedAttempt<T>[] {
    return this.#parked;
  }

  /**
   * Once the probe has answered (after {@link record}): hands back the parked attempts with when they go, `null` for
   * now (the probe closed the circuit) or the time the circuit half-opens again (the probe failed).
   */
  releaseParked(now: number): { items: T[]; at: number | null } {
    const items = this.#parked.splice(0).map((p) => p.item);
    return { items, at: this.state(now) === 'open' ? this.#openUntil : null };
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

  #open(from: CircuitState, now: number): CircuitTransition {
    this.#openUntil = now + CIRCUIT_OPEN_MS;
    return { url: this.url, from, to: 'open', openUntil: this.#openUntil, at: now };
  }

  #close(from: CircuitState, now: number): CircuitTransition {
    this.#failures = 0;
    this.#openUntil = null;
    this.#epoch++;
    return { url: this.url, from, to: 'closed', openUntil: null, at: now };
  }
}
