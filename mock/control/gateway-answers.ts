import type { InFlightAttempt } from '../delivery/in-flight-attempt.js';
import { redactSecret } from '../delivery/redact-secret.js';
import type { Gateway } from '../gateway/gateway.js';

/** What `POST /__mock/drain` answers: drained, or which attempts still wait for their receiver and what to do. */
export interface DrainAnswer {
  /** True when nothing is in flight or due now. */
  ok: boolean;
  /** The clock's time (ms since the epoch). */
  now: number;
  /** Attempts whose receivers have not answered within the answer grace. */
  inFlight: InFlightAttempt[];
  /** Present when `ok` is false: why, and how to time the attempts out. */
  message?: string;
}

/**
 * Drains without hanging: waits for attempts in flight (each gets the answer grace of real time, or until its
 * deadline on the real clock) and answers 200 either way, saying which receivers have not answered.
 */
export async function drainAnswer(gateway: Gateway): Promise<DrainAnswer> {
  const inFlight = await gateway.settle();
  const now = gateway.clock.now();
  if (inFlight.length === 0) return { ok: true, now, inFlight };
  // reduce, not Math.max(...): a spread of a long list overflows the stack.
  const waits = inFlight.reduce((most, a) => Math.max(most, a.deadline - now), 0);
  return {
    ok: false,
    now,
    inFlight,
    message: `${inFlight.length} attempt(s) still wait for their receiver, which has not answered; on a manual clock, POST /__mock/clock/advance {"ms": ${waits}} times them out (deadline 8 s on the mock's clock), or make the receiver answer.`,
  };
}

/**
 * `GET /__mock/webhooks`: every endpoint, with secrets shown by their prefix unless `redact=0` (or `false`) asks for
 * them in full. The secret is answered in full once, when the endpoint is created.
 */
export function webhookList(gateway: Gateway, hide: boolean): { tenants: unknown[]; devices: unknown[] } {
  const show = <T extends { secret: string }>(e: T): T => (hide ? { ...e, secret: redactSecret(e.secret) } : e);
  return { tenants: gateway.routing.listTenants().map(show), devices: gateway.routing.listDevices().map(show) };
}
