// `linkgate trigger`: sends spec-exact, correctly signed deliveries to any receiver, in any language, and says whether
// it answered as the gateway expects. The deliveries come from createTestDelivery, the same builder receivers test with.
import { parseArgs } from 'node:util';
import { EVENT_NAMES, type EventName } from '../../src/schemas/events.js';
import { sampleEventData } from '../../src/webhooks/sample-events.js';
import { createTestDelivery, type TestDelivery } from '../../src/webhooks/test-delivery.js';
import { renderQrDataUri } from '../shared/qr-png.js';
import { cryptoRandom, randomHex } from '../shared/random-text.js';
import { PAIRING_QR_OPTIONS } from '../simulators/pairing-simulator.js';
import { postToReceiver, type ReceiverAnswer } from './receiver-exchange.js';
import { formatReport, type TriggerOutcome, type TriggerReport } from './trigger-report.js';
import { expectationOf, judge, type TriggerCheck } from './trigger-verdict.js';

/** `linkgate trigger --help`. */
export const TRIGGER_HELP = `Usage: linkgate trigger <event> --to <url> --secret <secret> [options]
       linkgate trigger --all --to <url> --secret <secret> [options]

Sends one delivery, exactly as the gateway does (every header of the spec, a realistic payload valid against the
event's schema, a fresh delivery id, the current time), to your webhook receiver, in any language, and prints its
status, body and time. Exit code 0 when the receiver answered as the gateway expects, 1 when it did not (or could not
be reached), 2 for a mistake in the command.

Events: ${EVENT_NAMES.join(', ')}

Options:
  --to <url>            the receiver's URL; http:// or https://                 (required)
  --secret <secret>     the receiver's webhook secret (whsec_live_… or whsec_dev_…);
                        never printed                                            (default: $WEBHOOK_SECRET)
  --set <path=value>    change a field of the payload by dot path from the envelope,
                        e.g. --set data.status=read --set data.status_code=3; the
                        value is JSON when it parses (3, true, null, {"a":1}, "x"),
                        else text, and always text where the schema wants text
                        (data.sender=628123 stays "628123"); repeatable         (default: none)
  --device <id>         the device id, in the header and the payload's device_id (default device-1)
  --delivery-id <id>    the X-Service-Delivery-ID                               (default: fresh)
  --duplicate           send the same delivery twice; the second must get 200 too
  --stale               send it stamped an hour ago; the receiver must refuse it
  --wrong-secret        send it with another secret; the receiver must refuse it
  --all                 send one of every event in the catalog
  --allow-invalid       send a payload --set made invalid (to test the receiver's
                        own 400) instead of refusing the command; the receiver
                        must refuse it
  --timeout <time>      how long to wait for the answer, e.g. 8s or 500ms      (default 8s, the gateway's)
  --json                print one JSON document instead of lines
  -h, --help            show this help

Examples:
  npx linkgate trigger message.received --to http://localhost:8000/webhooks --secret whsec_live_0123…
  npx linkgate trigger message.ack --set data.status=read --set data.status_code=3 --to … --secret …
  npx linkgate trigger --all --wrong-secret --to … --secret …
`;

/** The flags `linkgate trigger` accepts, for node:util parseArgs. */
const FLAGS = {
  to: { type: 'string' },
  secret: { type: 'string' },
  set: { type: 'string', multiple: true },
  device: { type: 'string' },
  'delivery-id': { type: 'string' },
  duplicate: { type: 'boolean' },
  stale: { type: 'boolean' },
  'wrong-secret': { type: 'boolean' },
  all: { type: 'boolean' },
  'allow-invalid': { type: 'boolean' },
  timeout: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** How far back --stale stamps a delivery: far outside the few minutes receivers allow. */
const STALE_BY_SECONDS = 3600;
const DEFAULT_TIMEOUT_MS = 8000;
// Header values: visible ASCII, so the id reaches the receiver exactly as typed.
const HEADER_SAFE = /^[\x21-\x7e]{1,200}$/;

/** A command-line mistake: printed without a stack trace, exit code 2. */
class TriggerUsageError extends Error {
  override name = 'TriggerUsageError';
}

/** One --set, as typed and as read. */
interface Override {
  path: string;
  text: string;
  value: unknown;
}

/** What the flags ask for. */
interface TriggerOptions {
  events: EventName[];
  to: URL;
  secret: string;
  overrides: Override[];
  deviceId: string | undefined;
  deliveryId: string | undefined;
  check: Exclude<TriggerCheck, 'invalid'>;
  allowInvalid: boolean;
  timeoutMs: number;
  json: boolean;
}

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
    const parsed = parseFlags(argv);
    if (parsed === 'help') {
      io.out(TRIGGER_HELP);
      return 0;
    }
    options = checkOptions(parsed, io.env);
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
      answers,
      ...verdict,
    });
  }
  const ok = deliveries.every((d) => d.ok);
  const report: TriggerReport = { receiver: options.to.href, ok, exitCode: ok ? 0 : 1, deliveries };
  io.out(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.exitCode;
}

type Flags = ReturnType<typeof parseArgs<{ options: typeof FLAGS; allowPositionals: true; strict: true }>>;

function parseFlags(argv: string[]): Flags | 'help' {
  let parsed: Flags;
  try {
    parsed = parseArgs({ args: argv, options: FLAGS, allowPositionals: true, strict: true });
  } catch (error) {
    const err = error as NodeJS.ErrnoException;
    if (err.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new TriggerUsageError(err.message);
    const flag = /'([^']+)'/.exec(err.message)?.[1] ?? 'given';
    const known = Object.keys(FLAGS).map((name) => `--${name}`);
    throw new TriggerUsageError(`Unknown option ${flag}; the options of trigger are ${known.join(', ')}.`);
  }
  return parsed.values.help ? 'help' : parsed;
}

/** Turns the flags into options, or throws a usage error naming the flag and its rule. */
function checkOptions({ values, positionals }: Flags, env: TriggerIo['env']): TriggerOptions {
  const [event, extra] = positionals;
  if (extra !== undefined) throw new TriggerUsageError(`Unexpected argument "${extra}"; options start with --.`);
  let events: EventName[];
  if (values.all) {
    if (event !== undefined) throw new TriggerUsageError(`Pass an event or --all, not both; got "${event}" and --all.`);
    if (values.set) throw new TriggerUsageError("--set changes one event's payload; pass an event instead of --all.");
    if (values['delivery-id']) {
      throw new TriggerUsageError('--delivery-id names one delivery; with --all each event gets its own fresh id.');
    }
    events = [...EVENT_NAMES];
  } else if (event === undefined) {
    throw new TriggerUsageError(`No event given; pass one of ${EVENT_NAMES.join(', ')}, or --all.`);
  } else if (!(EVENT_NAMES as readonly string[]).includes(event)) {
    throw new TriggerUsageError(`Unknown event "${event}"; the events are ${EVENT_NAMES.join(', ')}.`);
  } else {
    events = [event as EventName];
  }
  const checks = (['duplicate', 'stale', 'wrong-secret'] as const).filter((flag) => values[flag]);
  if (checks.length > 1) {
    throw new TriggerUsageError(
      `--${checks[0]} and --${checks[1]} each send their own kind of delivery; pass one of them per command.`,
    );
  }
  return {
    events,
    to: parseReceiverUrl(values.to),
    secret: parseSecret(values.secret, env),
    overrides: (values.set ?? []).map(parseOverride),
    deviceId: headerValue('--device', 'device id', values.device),
    deliveryId: headerValue('--delivery-id', 'delivery id', values['delivery-id']),
    check: checks[0] ?? 'delivery',
    allowInvalid: values['allow-invalid'] ?? false,
    timeoutMs: parseTimeout(values.timeout),
    json: values.json ?? false,
  };
}

function parseReceiverUrl(value: string | undefined): URL {
  if (value === undefined) {
    throw new TriggerUsageError("--to is required: the receiver's URL, e.g. --to http://localhost:3000/webhooks.");
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TriggerUsageError(
      `--to must be a full http:// or https:// URL, e.g. http://localhost:3000/webhooks; got "${value}".`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TriggerUsageError(`--to must be an http:// or https:// URL; got the scheme "${url.protocol}".`);
  }
  if (url.username || url.password) {
    throw new TriggerUsageError('--to must not carry a user name or password; the secret goes in --secret.');
  }
  return url;
}

function parseSecret(flag: string | undefined, env: TriggerIo['env']): string {
  const secret = flag ?? env.WEBHOOK_SECRET;
  const source = flag === undefined ? 'WEBHOOK_SECRET' : '--secret';
  if (secret === undefined) {
    throw new TriggerUsageError(
      '--secret is required: the webhook secret your receiver checks (whsec_live_… or whsec_dev_…), or set WEBHOOK_SECRET.',
    );
  }
  // The rule, never the value: the secret must not reach the terminal or a CI log.
  if (!HEADER_SAFE.test(secret)) {
    throw new TriggerUsageError(
      `${source} must be 1-200 visible characters without spaces (it is sent as the X-Service-Secret header); the value given is not.`,
    );
  }
  return secret;
}

function parseOverride(text: string): Override {
  const at = text.indexOf('=');
  if (at <= 0) {
    throw new TriggerUsageError(`--set takes path=value, e.g. --set data.status=read; got "${text}".`);
  }
  const path = text.slice(0, at);
  const raw = text.slice(at + 1);
  if (
    path.split('.').some((key) => key === '' || key === '__proto__' || key === 'prototype' || key === 'constructor')
  ) {
    throw new TriggerUsageError(
      `--set ${path}: the path must be field names separated by single dots, such as data.status (__proto__, prototype and constructor are not allowed).`,
    );
  }
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // Not JSON: the text itself.
  }
  return { path, text: raw, value };
}

function headerValue(flag: string, what: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!HEADER_SAFE.test(value)) {
    throw new TriggerUsageError(
      `${flag} must be 1-200 visible characters without spaces (it is sent as a header); got ${JSON.stringify(value)} as the ${what}.`,
    );
  }
  return value;
}

function parseTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  const match = /^(\d{1,6}(?:\.\d{1,3})?)(ms|s)?$/.exec(value);
  const ms = match ? Number(match[1]) * (match[2] === 'ms' ? 1 : 1000) : Number.NaN;
  if (!(ms >= 1 && ms <= 600_000)) {
    throw new TriggerUsageError(
      `--timeout must be a time from 1ms to 600s, such as 8s, 2.5s or 500ms (a bare number is seconds); got "${value}".`,
    );
  }
  return ms;
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
      const message = (error as Error).message.replace(
        /options\.set\[("(?:[^"\\]|\\.)*")\]/g,
        (_, quoted: string) => `--set ${JSON.parse(quoted)}`,
      );
      throw new TriggerUsageError(message.replace(/^createTestDelivery: /, ''));
    }
  };
  let overrides = options.overrides;
  let delivery = build(overrides);
  // A phone number or id typed as digits parses as a JSON number; where the schema wants text, the text is meant.
  const wrongType = (d: TestDelivery, path: string) =>
    d.issues.some((i) => i.code === 'invalid_type' && i.path.map(String).join('.') === path);
  const retyped = overrides.filter((o) => typeof o.value !== 'string' && wrongType(delivery, o.path));
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
    throw new TriggerUsageError(
      `--set makes the ${event} payload invalid: ${listed}. Fix the value, or pass --allow-invalid to ${breaking.length === 0 ? 'add the field anyway (receivers must accept fields they do not know)' : "send it anyway (to test your receiver's 400)"}.`,
    );
  }
  const check: TriggerCheck = breaking.length > 0 && options.check === 'delivery' ? 'invalid' : options.check;
  return { event, delivery, check };
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
