// `linkgate trigger`: sends spec-exact, correctly signed deliveries to any receiver, in any language, and says whether
// it answered as the gateway expects. The deliveries come from createTestDelivery, the same builder receivers test with.
import type { EventName } from '../../src/schemas/events.js';
import { sampleEventData } from '../../src/webhooks/sample-events.js';
import { createTestDelivery, type TestDelivery } from '../../src/webhooks/test-delivery.js';
import { renderQrDataUri } from '../shared/qr-png.js';
import { cryptoRandom, randomHex } from '../shared/random-text.js';
import { PAIRING_QR_OPTIONS } from '../simulators/pairing-simulator.js';
import { postToReceiver, type ReceiverAnswer } from './receiver-exchange.js';
import {
  type Override,
  readTriggerOptions,
  TRIGGER_HELP,
  type TriggerOptions,
  TriggerUsageError,
} from './trigger-options.js';
import { formatReport, type TriggerOutcome, type TriggerReport } from './trigger-report.js';
import { expectationOf, judge, type TriggerCheck } from './trigger-verdict.js';

/** How far back --stale stamps a delivery: far outside the few minutes receivers allow. */
const STALE_BY_SECONDS = 3600;

/** Where the command writes, and the environment it reads the secret from. */
export interface TriggerIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Record<string, string | undefined>;
}

/** Runs `linkgate trigger <argv>` and resolves with its exit code. */
export async function runTrigger(argv: string[], io: TriggerIo): Promise<number> {
  let options: TriggerOptions;
  try {
    const read = readTriggerOptions(argv, io.env);
    if (read === 'help') {
      io.out(TRIGGER_HELP);
      return 0;
    }
    options = read;
  } catch (error) {
    return usageFailure(error, io);
  }
  if (options.to.protocol === 'http:' && !isLoopback(options.to.hostname)) {
    io.err(
      `linkgate: note: ${options.to.host} is not this machine and --to is plain http, so the secret crosses the network unencrypted; use https:// for anything but a test receiver.\n`,
    );
  }
  const wrongSecret = options.check === 'wrong-secret' ? otherSecret(options.secret) : undefined;
  const hide = hider([options.secret, wrongSecret]);
  let planned: Planned[];
  try {
    planned = [];
    for (const event of options.events) planned.push(await plan(event, options, wrongSecret));
  } catch (error) {
    return usageFailure(error, io);
  }
  const deliveries: TriggerOutcome[] = [];
  for (const { event, delivery, check } of planned) {
    const answers: ReceiverAnswer[] = [];
    const sends = check === 'duplicate' ? 2 : 1;
    for (let i = 0; i < sends; i++) {
      const answer = await postToReceiver(options.to.href, delivery.headers, delivery.body, options.timeoutMs);
      answers.push({ ...answer, body: hide(answer.body), error: answer.error === null ? null : hide(answer.error) });
    }
    const verdict = judge(check, answers, options.timeoutMs);
    deliveries.push({
      event,
      check,
      expected: expectationOf(check),
      deliveryId: delivery.deliveryId,
      deviceId: delivery.headers['X-Service-Device-ID'] as string,
      timestamp: Number(delivery.headers['X-Service-Timestamp']),
      headers: { ...delivery.headers, 'X-Service-Secret': '[hidden]' },
      payload: delivery.payload,
      issues: delivery.issues.map(describeIssue),
      paired: delivery.paired,
      answers,
      ...verdict,
    });
  }
  const ok = deliveries.every((d) => d.ok);
  const report: TriggerReport = { receiver: options.to.href, ok, exitCode: ok ? 0 : 1, deliveries };
  io.out(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.exitCode;
}

/** A delivery ready to send, and the check it makes. */
interface Planned {
  event: EventName;
  delivery: TestDelivery;
  check: TriggerCheck;
}

/** Builds the delivery for one event, refusing an override that makes it invalid unless --allow-invalid. */
async function plan(event: EventName, options: TriggerOptions, wrongSecret: string | undefined): Promise<Planned> {
  const now = Math.floor(Date.now() / 1000);
  const timestamp = options.check === 'stale' ? now - STALE_BY_SECONDS : now;
  const data = sampleEventData(event, timestamp);
  // The builder's stand-in image is a dot; a person pairing a test device wants a code they can scan.
  if (event === 'device.qr' && 'qr_code' in data)
    data.qr_image_url = await renderQrDataUri(data.qr_code, PAIRING_QR_OPTIONS);
  const deliveryId = options.deliveryId ?? crypto.randomUUID();
  const build = (overrides: readonly Override[]) => {
    try {
      return createTestDelivery({
        event,
        data,
        secret: wrongSecret ?? options.secret,
        timestamp,
        deliveryId,
        url: options.to.href,
        ...(options.deviceId !== undefined && { deviceId: options.deviceId }),
        ...(overrides.length > 0 && { set: Object.fromEntries(overrides.map((o) => [o.path, o.value])) }),
        allowInvalid: true,
      } as Parameters<typeof createTestDelivery>[0]);
    } catch (error) {
      // The builder names its option; the user typed a flag.
      const message = (error as Error).message.replace(/options\.set\[("(?:[^"\\]|\\.)*")\]/g, (_, quoted: string) => {
        const path = JSON.parse(quoted) as string;
        return `${overrides.some((o) => o.unset && o.path === path) ? '--unset' : '--set'} ${path}`;
      });
      throw new TriggerUsageError(message.replace(/^createTestDelivery: /, ''));
    }
  };
  let overrides = options.overrides;
  let delivery = build(overrides);
  // A phone number or id typed as digits parses as a JSON number; where the schema wants text, the text is meant.
  const wrongType = (d: TestDelivery, path: string) =>
    d.issues.some((i) => i.code === 'invalid_type' && i.path.map(String).join('.') === path);
  const retyped = overrides.filter((o) => !o.unset && typeof o.value !== 'string' && wrongType(delivery, o.path));
  if (retyped.length > 0) {
    const asText = overrides.map((o) => (retyped.includes(o) ? { ...o, value: o.text } : o));
    const candidate = build(asText);
    overrides = overrides.map((o, i) =>
      retyped.includes(o) && !wrongType(candidate, o.path) ? (asText[i] as Override) : o,
    );
    delivery = build(overrides);
  }
  // A field the schema does not know is only likely a typo: receivers must accept it, so it is no refusal check.
  const breaking = delivery.issues.filter((i) => i.code !== 'unrecognized_keys');
  if (delivery.issues.length > 0 && !options.allowInvalid) {
    const listed = delivery.issues.map(describeIssue).join('; ');
    const { flags, fix } = changedBy(options.overrides);
    throw new TriggerUsageError(
      `${flags} the ${event} payload invalid: ${listed}. ${fix}, or pass --allow-invalid to ${breaking.length === 0 ? 'add the field anyway (receivers must accept fields they do not know)' : "send it anyway (to test your receiver's 400)"}.`,
    );
  }
  const check: TriggerCheck = breaking.length > 0 && options.check === 'delivery' ? 'invalid' : options.check;
  return { event, delivery, check };
}

/** How a refusal names the flags that changed the payload (with the verb) and what to change instead. */
function changedBy(overrides: readonly Override[]): { flags: string; fix: string } {
  const unset = overrides.some((o) => o.unset);
  if (unset && overrides.every((o) => o.unset)) return { flags: '--unset makes', fix: 'Keep the field' };
  return { flags: unset ? '--set and --unset make' : '--set makes', fix: 'Fix the value' };
}

/** `data.status_code: <rule>`, as the receivers' own refusals word it. */
function describeIssue(issue: TestDelivery['issues'][number]): string {
  return `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`;
}

/** A secret of the same shape that is not the given one, so only the comparison can tell them apart. */
function otherSecret(secret: string): string {
  const prefix = /^whsec_(?:live|dev)_/i.exec(secret)?.[0] ?? 'whsec_live_';
  let other = secret;
  while (other === secret) other = `${prefix}${randomHex(32, cryptoRandom)}`;
  return other;
}

/** Replaces every occurrence of the secrets in text a receiver sent back (it may echo headers). */
function hider(secrets: (string | undefined)[]): (text: string) => string {
  const present = secrets.filter((s): s is string => s !== undefined && s.length > 0);
  return (text) => present.reduce((out, secret) => out.split(secret).join('[secret]'), text);
}

function isLoopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname) ||
    hostname === '[::1]'
  );
}

function usageFailure(error: unknown, io: TriggerIo): number {
  if (!(error instanceof TriggerUsageError)) throw error;
  io.err(`linkgate: ${error.message}\nRun "linkgate trigger --help" for usage.\n`);
  return 2;
}
