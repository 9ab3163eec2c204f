// What a receiver's answers to `linkgate trigger` mean, judged the way the gateway judges them (spec, Delivery rules).
import type { ReceiverAnswer } from './receiver-exchange.js';

/** What a trigger sends: a plain delivery, the same one twice, or one a receiver must refuse. */
export type TriggerCheck = 'delivery' | 'duplicate' | 'stale' | 'wrong-secret' | 'invalid';

/** The answer a receiver owes each check. */
export type Expectation = 'acknowledged' | 'refused';

/** Whether the receiver answered as it must, and why, in a sentence. */
export interface Verdict {
  ok: boolean;
  verdict: string;
}

/** Plain deliveries and duplicates must be acknowledged with 200; the others refused with a 4xx. */
export function expectationOf(check: TriggerCheck): Expectation {
  return check === 'delivery' || check === 'duplicate' ? 'acknowledged' : 'refused';
}

/** Judges the answers (two for a duplicate, else one) to a check. */
export function judge(check: TriggerCheck, answers: readonly ReceiverAnswer[], timeoutMs: number): Verdict {
  const [first, second] = answers as [ReceiverAnswer, ReceiverAnswer | undefined];
  if (expectationOf(check) === 'refused') return judgeRefusal(check, first, timeoutMs);
  const firstVerdict = judgeAcknowledgement(first, timeoutMs);
  if (check !== 'duplicate' || !firstVerdict.ok || !second) return firstVerdict;
  const again = judgeAcknowledgement(second, timeoutMs);
  if (!again.ok) {
    return {
      ok: false,
      verdict: `the first copy was acknowledged, the second (same delivery id) was not: ${again.verdict}; a repeat must be answered 200 without handling it again`,
    };
  }
  return {
    ok: true,
    verdict:
      'both copies (same delivery id) were acknowledged with 200; whether the second was handled again does not show in the answer: a receiver that drops repeats answers 200 without running its handler, so check its log or store',
  };
}

function judgeAcknowledgement(answer: ReceiverAnswer, timeoutMs: number): Verdict {
  const { status } = answer;
  if (status === null) return { ok: false, verdict: noAnswer(answer, timeoutMs) };
  if (status === 200 && (answer.bodyCut === 'size' || answer.bodyCut === 'time')) {
    const how = answer.bodyCut === 'size' ? 'went on past 1 MB' : 'was still arriving at the deadline';
    return {
      ok: false,
      verdict: `answered 200, but its body ${how}: a gateway that reads the answer to its end (the reference mock does, within 8 s) counts a timeout and retries; answer {"status":"success"} and end the body`,
    };
  }
  if (status === 200) return { ok: true, verdict: 'acknowledged with 200' };
  if (status >= 500) {
    return { ok: false, verdict: `failed with ${status}: the gateway would retry it after 3, 6, 12, 24 and 48 s` };
  }
  if (status === 401 || status === 403) {
    return {
      ok: false,
      verdict: `refused with ${status}: check that --secret is the secret this receiver is configured with`,
    };
  }
  if (status === 400) {
    return {
      ok: false,
      verdict: 'refused with 400: the receiver found the delivery malformed; its answer may say why',
    };
  }
  if (status >= 300 && status < 400) {
    return {
      ok: false,
      verdict: `answered ${status}: the gateway does not follow redirects; point --to at the final URL`,
    };
  }
  return {
    ok: false,
    verdict: `answered ${status}: the gateway counts only 200 as acknowledged and dead-letters the event without retrying`,
  };
}

const REFUSAL_DUTY: Record<Exclude<TriggerCheck, 'delivery' | 'duplicate'>, string> = {
  'wrong-secret': 'a delivery with the wrong X-Service-Secret; compare the header with your secret before processing',
  stale: 'a delivery stamped an hour ago (a replay); refuse X-Service-Timestamp values older than a few minutes',
  invalid: 'a payload that breaks the event schema; validate the body before processing',
};

function judgeRefusal(check: TriggerCheck, answer: ReceiverAnswer, timeoutMs: number): Verdict {
  const duty = REFUSAL_DUTY[check as keyof typeof REFUSAL_DUTY];
  const { status } = answer;
  if (status === null) return { ok: false, verdict: `${noAnswer(answer, timeoutMs)}; it should have refused ${duty}` };
  if (status >= 400 && status < 500) return { ok: true, verdict: `refused with ${status}, as it must` };
  if (status >= 200 && status < 300) return { ok: false, verdict: `ACCEPTED with ${status}: it must refuse ${duty}` };
  return {
    ok: false,
    verdict: `answered ${status} instead of refusing it with a 4xx${status >= 500 ? ' (a 5xx makes the gateway retry it)' : ''}: it should refuse ${duty}`,
  };
}

function noAnswer(answer: ReceiverAnswer, timeoutMs: number): string {
  if (answer.error === 'timeout') {
    return `no answer within ${timeoutMs / 1000} s${timeoutMs >= 8000 ? ': the gateway gives up after 8 s and retries' : ' (--timeout)'}`;
  }
  return `no answer: ${answer.error}`;
}
