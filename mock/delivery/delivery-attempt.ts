import type { EventName } from '../../src/schemas/events.js';
import type { Clock } from '../../src/shared/clock.js';

/** The receiver must answer within this time (spec, Delivery rules: HTTP 200 within 8 seconds). */
export const ACK_TIMEOUT_MS = 8_000;
/** Recorded answer bodies are cut at this many characters. */
export const RECORDED_BODY_LIMIT = 20 * 1024;

/** How an attempt ended. */
export type AttemptOutcome =
  /** HTTP 200 in time. */
  | 'delivered'
  /** Timeout, connection error or 5xx: counts toward the circuit and is retried. */
  | 'failed'
  /** Any other answer: not retried, the event is dead-lettered with the answer. */
  | 'rejected'
  /** Dropped with 503 by an open circuit without calling the receiver; does not use up a retry. */
  | 'circuit-open';

/** One recorded attempt, for inspection (`gateway.attempts()` and `GET /__mock/attempts`). */
export interface AttemptRecord {
  /** Sequence number of the record. */
  seq: number;
  deliveryId: string;
  tenant: string;
  deviceId: string;
  event: EventName;
  url: string;
  /** 1 for the first attempt, up to 6 (the first + 5 retries); a circuit drop keeps the number of the attempt it stood for. */
  attempt: number;
  /** The request exactly as sent, including `X-Service-Secret` (see Decisions: inspection shows secrets). */
  request: { headers: Record<string, string>; body: string };
  /** The receiver's answer (body cut at 20 KB); the circuit's own 503 for a drop; null on timeout/connection error. */
  response: { status: number; body: string } | null;
  /** `timeout` or the connection error's message, else null. */
  error: string | null;
  outcome: AttemptOutcome;
  /** Clock time the attempt started (ms since the epoch). */
  startedAt: number;
  /** Clock time it took, in ms. */
  durationMs: number;
  /**
   * When the event is tried next (ms since the epoch), or null when it is not (delivered, dead-lettered). For an
   * attempt held behind a half-open circuit's probe: the latest time the probe answers (it goes at once if the probe
   * closes the circuit, when the circuit half-opens again otherwise).
   */
  nextAttemptAt: number | null;
  /** Faults injected into this attempt, if any. */
  faults: string[];
  /** True for the one attempt a half-open circuit lets through: only its answer closes or re-opens the circuit. */
  probe: boolean;
}

/** What one HTTP exchange produced. */
export interface ExchangeResult {
  status: number | null;
  body: string;
  error: string | null;
}

/**
 * Sends one POST to a receiver with an 8 s deadline on the injected clock (so a ManualClock can time it out without
 * real waiting), and reads the answer as text.
 */
export async function exchange(
  fetchFn: typeof fetch,
  clock: Clock,
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs = ACK_TIMEOUT_MS,
): Promise<ExchangeResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = clock.setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, timeoutMs);
  try {
    const res = await fetchFn(url, { method: 'POST', headers, body, signal: controller.signal, redirect: 'manual' });
    const text = await res.text();
    return {
      status: res.status,
      body: text.length > RECORDED_BODY_LIMIT ? text.slice(0, RECORDED_BODY_LIMIT) : text,
      error: null,
    };
  } catch (err) {
    if (timedOut) return { status: null, body: '', error: 'timeout' };
    return { status: null, body: '', error: describeNetworkError(err) };
  } finally {
    timer.cancel();
  }
}

/** Classifies an exchange: 200 delivers, timeout/connection error/5xx fails (retried), anything else is rejected. */
export function classify(result: ExchangeResult): 'delivered' | 'failed' | 'rejected' {
  if (result.status === null) return 'failed';
  if (result.status === 200) return 'delivered';
  return result.status >= 500 ? 'failed' : 'rejected';
}

function describeNetworkError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return `connection error: ${cause.code}`;
  if (err instanceof Error) return `connection error: ${cause?.message ?? err.message}`;
  return 'connection error';
}
