// How `linkgate trigger` tells what happened: lines for people, or one JSON document for scripts (--json).
import type { PairedOverride } from '../../src/webhooks/payload-overrides.js';
import { ANSWER_BODY_LIMIT, ANSWER_READ_LIMIT, type ReceiverAnswer } from './receiver-exchange.js';
import type { Expectation, TriggerCheck } from './trigger-verdict.js';

/** One delivery sent (twice for a duplicate) and how the receiver answered. */
export interface TriggerOutcome {
  event: string;
  check: TriggerCheck;
  expected: Expectation;
  deliveryId: string;
  deviceId: string;
  /** `X-Service-Timestamp`, Unix seconds. */
  timestamp: number;
  /** The headers sent, the secret shown as `[hidden]`. */
  headers: Record<string, string>;
  /** The JSON body sent. */
  payload: unknown;
  /** What breaks the event's schema in the payload (kept with --allow-invalid), as `path: rule`. */
  issues: string[];
  /** Fields set to agree with one --set alone changed (`data.status_code` 3 for `data.status=read`). */
  paired: PairedOverride[];
  /** The receiver's answers: two for --duplicate, else one. */
  answers: ReceiverAnswer[];
  ok: boolean;
  verdict: string;
}

/** The whole run, as --json prints it. */
export interface TriggerReport {
  receiver: string;
  ok: boolean;
  exitCode: number;
  deliveries: TriggerOutcome[];
}

/** Answer bodies are shown up to this many characters in the human output (--json has all that was read). */
const SHOWN_BODY_CHARS = 1000;

/** The report as lines for a terminal. */
export function formatReport(report: TriggerReport): string {
  const blocks = report.deliveries.map((d) => {
    const lines = [
      `${d.event} -> ${report.receiver}${d.check === 'delivery' ? '' : ` (${d.check})`}`,
      `  sent     delivery ${d.deliveryId}, device ${d.deviceId}, X-Service-Timestamp ${d.timestamp}`,
      `  payload  ${shorten(JSON.stringify(d.payload), 400)}`,
      ...d.paired.map(
        (p) =>
          `  matched  ${p.path}=${JSON.stringify(p.value)} to agree with --set ${p.matches} (set both to choose both)`,
      ),
      ...(d.issues.length > 0 ? [`  invalid  ${d.issues.join('; ')}`] : []),
      ...d.answers.map(
        (a, i) => `  ${(d.answers.length > 1 ? `answer ${i + 1}` : 'answer').padEnd(8)} ${formatAnswer(a)}`,
      ),
      `  ${(d.ok ? 'ok' : 'FAILED').padEnd(8)} ${d.verdict}`,
    ];
    return lines.join('\n');
  });
  const failed = report.deliveries.filter((d) => !d.ok);
  const summary =
    report.deliveries.length === 1
      ? ''
      : `\n${failed.length === 0 ? `All ${report.deliveries.length} deliveries were answered as they must be.` : `${failed.length} of ${report.deliveries.length} deliveries were not answered as they must be: ${failed.map((d) => d.event).join(', ')}.`}\n`;
  return `${blocks.join('\n\n')}\n${summary}`;
}

function formatAnswer(answer: ReceiverAnswer): string {
  const time = `${Math.round(answer.ms)} ms`;
  if (answer.status === null) return `none after ${time}: ${answer.error}`;
  const cut =
    answer.bodyCut === 'size'
      ? ` (not read to its end: it went on past ${ANSWER_READ_LIMIT / 1024 / 1024} MB)`
      : answer.bodyCut === 'time'
        ? ' (not read to its end: it was still arriving at the deadline)'
        : answer.bodyCut === 'closed'
          ? ' (the connection closed mid-body)'
          : answer.bodyBytes > ANSWER_BODY_LIMIT
            ? ` (the first ${ANSWER_BODY_LIMIT / 1024} KB of ${answer.bodyBytes} bytes)`
            : '';
  const body = answer.body === '' ? '(empty body)' : shorten(printable(answer.body), SHOWN_BODY_CHARS);
  return `${answer.status} in ${time}: ${body}${cut}`;
}

/** Control characters (a receiver could send terminal escapes) and newlines shown as escapes, on one line. */
function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters being escaped
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length - max} more characters)`;
}
