import { describe, expect, it } from 'vitest';
import { CIRCUIT_OPEN_MS, CircuitBreaker } from '../../../mock/delivery/circuit-breaker.js';

/** A breaker whose circuit opened at 0 through 5 failures, half-open from 30 s on. */
function openedAtZero(): CircuitBreaker<string> {
  const breaker = new CircuitBreaker<string>('https://hooks.example/in');
  for (let i = 0; i < 5; i++) breaker.record(breaker.admit(0) as { kind: 'pass'; epoch: number }, 'failure', 0);
  return breaker;
}

// The half-open probe in one place: who goes, who waits behind it, and when the waiting go.
describe('CircuitBreaker: the half-open probe', () => {
  it('lets one probe through once the circuit has been open 30 s, and parks who comes while it is out', () => {
    const breaker = openedAtZero();
    expect(breaker.admit(CIRCUIT_OPEN_MS - 1)).toEqual({ kind: 'blocked', until: CIRCUIT_OPEN_MS });
    expect(breaker.admit(CIRCUIT_OPEN_MS)).toMatchObject({ kind: 'probe' });
    expect(breaker.admit(CIRCUIT_OPEN_MS + 5)).toEqual({ kind: 'awaiting-probe', probeStartedAt: CIRCUIT_OPEN_MS });
    breaker.park('evt_2', CIRCUIT_OPEN_MS + 8_000);
    breaker.park('evt_3', CIRCUIT_OPEN_MS + 8_000);
    expect(breaker.parked()).toEqual([
      { item: 'evt_2', at: CIRCUIT_OPEN_MS + 8_000 },
      { item: 'evt_3', at: CIRCUIT_OPEN_MS + 8_000 },
    ]);
  });

  it('releases the parked attempts to go at once when the probe closes the circuit', () => {
    const breaker = openedAtZero();
    const probe = breaker.admit(CIRCUIT_OPEN_MS) as { kind: 'probe'; epoch: number };
    breaker.park('evt_2', CIRCUIT_OPEN_MS + 8_000);
    expect(breaker.record(probe, 'success', CIRCUIT_OPEN_MS + 100)).toMatchObject({ from: 'half-open', to: 'closed' });
    expect(breaker.releaseParked(CIRCUIT_OPEN_MS + 100)).toEqual({ items: ['evt_2'], at: null });
    expect(breaker.parked()).toEqual([]);
  });

  it('releases the parked attempts to go when the circuit half-opens again after a failed probe', () => {
    const breaker = openedAtZero();
    const probe = breaker.admit(CIRCUIT_OPEN_MS) as { kind: 'probe'; epoch: number };
    breaker.park('evt_2', CIRCUIT_OPEN_MS + 8_000);
    const failedAt = CIRCUIT_OPEN_MS + 8_000;
    expect(breaker.record(probe, 'failure', failedAt)).toMatchObject({
      to: 'open',
      openUntil: failedAt + CIRCUIT_OPEN_MS,
    });
    expect(breaker.releaseParked(failedAt)).toEqual({ items: ['evt_2'], at: failedAt + CIRCUIT_OPEN_MS });
  });
});
