import type { DeadLetter } from './dead-letter-queue.js';
import type { RetrySchedule } from './retry-schedule.js';

/** How an attempt's exchange ended: HTTP 200, a failure worth retrying (timeout, connection error, 5xx), or another answer. */
export type AttemptOutcome = 'delivered' | 'failed' | 'rejected';

/** What becomes of an event after one of its attempts: the engine only carries this out. */
export type DeliveryDecision =
  /** The receiver took it. */
  | { kind: 'delivered' }
  /** Try again at `at` (ms since the epoch). */
  | { kind: 'retry'; at: number }
  /** Give up and put it in the dead-letter queue: retries used up (`exhausted`) or refused by a 4xx (`rejected`). */
  | { kind: 'dead-letter'; reason: DeadLetter['reason'] };

/**
 * The delivery rule in one place: a 200 is delivered; any other answer below 500 is dead-lettered at once as
 * `rejected`; a failure is retried after the schedule's wait for attempt number `attempt` (1-based), until the
 * schedule has no wait left and the event is dead-lettered as `exhausted`. Pure but for the schedule's jitter.
 *
 * @example
 * decideDelivery('failed', 1, 10_000, new RetrySchedule()); // { kind: 'retry', at: 13_000 }
 * decideDelivery('failed', 6, 10_000, new RetrySchedule()); // { kind: 'dead-letter', reason: 'exhausted' }
 */
export function decideDelivery(
  outcome: AttemptOutcome,
  attempt: number,
  endedAt: number,
  schedule: Pick<RetrySchedule, 'delayAfter'>,
): DeliveryDecision {
  if (outcome === 'delivered') return { kind: 'delivered' };
  if (outcome === 'rejected') return { kind: 'dead-letter', reason: 'rejected' };
  const delay = schedule.delayAfter(attempt);
  return delay === null ? { kind: 'dead-letter', reason: 'exhausted' } : { kind: 'retry', at: endedAt + delay };
}
