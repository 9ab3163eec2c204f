import { describe, expect, it } from 'vitest';
import { classify } from '../../../mock/delivery/delivery-attempt.js';
import { decideDelivery } from '../../../mock/delivery/delivery-decision.js';
import { RetrySchedule } from '../../../mock/delivery/retry-schedule.js';

// The engine's decision after each attempt, without a receiver, a clock or a timer: the spec's delivery rules.
describe('decideDelivery', () => {
  const schedule = new RetrySchedule();

  it('holds an event delivered when its receiver answered 200', () => {
    expect(decideDelivery(classify({ status: 200, body: '', error: null }), 1, 0, schedule)).toEqual({
      kind: 'delivered',
    });
  });

  it('retries a failed event after 3, 6, 12, 24 and 48 s, counted from the end of the failed attempt', () => {
    const waits = [1, 2, 3, 4, 5].map((attempt) => {
      const decision = decideDelivery('failed', attempt, 100_000, schedule);
      return decision.kind === 'retry' ? decision.at - 100_000 : decision;
    });
    expect(waits).toEqual([3_000, 6_000, 12_000, 24_000, 48_000]);
  });

  it('dead-letters an event as exhausted when its 6th attempt fails', () => {
    expect(decideDelivery('failed', 6, 0, schedule)).toEqual({ kind: 'dead-letter', reason: 'exhausted' });
  });

  it('counts timeouts, connection errors and 5xx as failures to retry, other answers as rejections', () => {
    const timeout = classify({ status: null, body: '', error: 'timeout after 8000 ms' });
    const serverError = classify({ status: 503, body: 'busy', error: null });
    const notFound = classify({ status: 404, body: 'no such hook', error: null });
    expect(decideDelivery(timeout, 1, 0, schedule)).toEqual({ kind: 'retry', at: 3_000 });
    expect(decideDelivery(serverError, 2, 0, schedule)).toEqual({ kind: 'retry', at: 6_000 });
    expect(decideDelivery(notFound, 1, 0, schedule)).toEqual({ kind: 'dead-letter', reason: 'rejected' });
  });

  it('dead-letters a rejected event at once, whatever retries it has left', () => {
    expect(decideDelivery('rejected', 1, 0, schedule)).toEqual({ kind: 'dead-letter', reason: 'rejected' });
  });

  it('adds the jitter of the schedule to the wait', () => {
    const jittered = new RetrySchedule({ jitterMs: 1_000, random: () => 0.5 });
    expect(decideDelivery('failed', 1, 0, jittered)).toEqual({ kind: 'retry', at: 3_500 });
  });
});
