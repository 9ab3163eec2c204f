// The guides state the delivery engine's numbers in prose; each sentence is checked against the engine's constants,
// so a changed schedule fails here instead of leaving the guides wrong.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CIRCUIT_OPEN_MS, CIRCUIT_THRESHOLD } from '../../../mock/delivery/circuit-breaker.js';
import { DEAD_LETTER_CAPACITY } from '../../../mock/delivery/dead-letter-queue.js';
import { ACK_TIMEOUT_MS } from '../../../mock/delivery/delivery-attempt.js';
import { RETRY_DELAYS_MS } from '../../../mock/delivery/retry-schedule.js';

/** A guide's text with every run of whitespace as one space, so sentences may wrap anywhere. */
const guide = (name: string) =>
  readFileSync(new URL(`../../../docs/guides/${name}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');

const s = (ms: number) => ms / 1000;
/** `3, 6, 12, 24 and 48 s`, from the engine's retry delays. */
const delays = `${RETRY_DELAYS_MS.slice(0, -1).map(s).join(', ')} and ${s(RETRY_DELAYS_MS.at(-1)!)} s`;
/** The attempt after which an event is dead-lettered: the first one plus every retry. */
const lastAttempt = RETRY_DELAYS_MS.length + 1;

describe("the guides' delivery numbers are the engine's", () => {
  it('gateway-simulator.md: deadline, retry delays, circuit threshold and open time, dead-letter capacity', () => {
    const text = guide('gateway-simulator.md');
    expect(text).toContain(`an ${s(ACK_TIMEOUT_MS)}-second deadline`);
    expect(text).toContain(`retries timeouts and 5xx answers after **${delays}**`);
    expect(text).toContain(`circuit** after ${CIRCUIT_THRESHOLD} consecutive failures`);
    expect(text).toContain(`dropped with 503 for ${s(CIRCUIT_OPEN_MS)} s`);
    expect(text).toContain(`re-opens it for another ${s(CIRCUIT_OPEN_MS)} s`);
    expect(text).toContain(`(${DEAD_LETTER_CAPACITY} per tenant, oldest evicted first)`);
    expect(text).toContain(`timeout (${s(ACK_TIMEOUT_MS)} s)`);
  });

  it('webhooks.md: retry delays, the attempt that dead-letters, capacity, circuit', () => {
    const text = guide('webhooks.md');
    expect(text).toContain(`is retried after ${delays} (plus jitter)`);
    expect(text).toContain(`after the ${lastAttempt}th failed attempt the event goes to a dead-letter queue`);
    expect(text).toContain(`(${DEAD_LETTER_CAPACITY} per tenant)`);
    expect(text).toContain(
      `${CIRCUIT_THRESHOLD} consecutive failures open the endpoint's circuit for ${s(CIRCUIT_OPEN_MS)} s`,
    );
  });

  it('running-on-many-processes.md: retry delays', () => {
    expect(guide('running-on-many-processes.md')).toContain(`(${delays} after each failure)`);
  });
});
