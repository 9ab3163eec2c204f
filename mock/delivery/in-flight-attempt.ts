/** One attempt out at a receiver: what it is and how long it has been waiting for its answer. */
export interface InFlightAttempt {
  deliveryId: string;
  url: string;
  /** 1 for the first attempt, up to 6. */
  attempt: number;
  /** Clock time it was sent (ms since the epoch). */
  startedAt: number;
  /** Clock time it times out (ms since the epoch): 8 s after it was sent, on the mock's clock. */
  deadline: number;
  /** Real milliseconds it has been waiting for an answer. */
  waitingMs: number;
}

/** What the engine knows of an attempt while it is out. */
export interface Flight {
  deliveryId: string;
  url: string;
  attempt: number;
  startedAt: number;
  deadline: number;
  /** `Date.now()` when it was sent: the answer grace counts in real time. */
  sentAt: number;
  /** `Date.now()` when the clock was first seen past the deadline (the abort is then on its way). */
  overdueSince?: number;
}

/**
 * How much longer (real ms) it is worth waiting for `flight` before moving on. An attempt gets `graceMs` of real
 * time to be answered; once the clock has passed its deadline, it gets `graceMs` more to record its timeout. On the
 * system clock the deadline itself comes in real time, so the wait lasts until then.
 */
export function graceLeft(flight: Flight, clockNow: number, realClock: boolean, graceMs: number): number {
  const now = Date.now();
  if (clockNow >= flight.deadline) {
    flight.overdueSince ??= now;
    return graceMs - (now - flight.overdueSince);
  }
  if (realClock) return flight.deadline - clockNow + graceMs;
  return graceMs - (now - flight.sentAt);
}

/** The public view of a flight. */
export function viewFlight(flight: Flight): InFlightAttempt {
  return {
    deliveryId: flight.deliveryId,
    url: flight.url,
    attempt: flight.attempt,
    startedAt: flight.startedAt,
    deadline: flight.deadline,
    waitingMs: Date.now() - flight.sentAt,
  };
}
