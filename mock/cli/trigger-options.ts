// `linkgate trigger`'s command line: its help, its flags, and the options they ask for, each mistake named with its
// flag and rule (exit code 2), in the style of `linkgate mock`.
import { parseArgs } from 'node:util';
import { EVENT_NAMES, type EventName } from '../../src/schemas/events.js';
import { isOverridePath } from '../../src/webhooks/payload-overrides.js';
import type { TriggerCheck } from './trigger-verdict.js';

/** `linkgate trigger --help`. */
export const TRIGGER_HELP = `Usage: linkgate trigger <event> --to <url> --secret <secret> [options]
       linkgate trigger --all --to <url> --secret <secret> [options]

Sends one delivery, exactly as the gateway does (every documented header, a realistic payload valid against the
event's schema, a fresh delivery id, the current time), to your webhook receiver, in any language, and prints its
status, body and time. Exit code 0 when the receiver answered as the gateway expects, 1 when it did not (or could not
be reached), 2 for a mistake in the command.

Events: ${EVENT_NAMES.join(', ')}

Options:
  --to <url>            the receiver's URL; http:// or https://                 (required)
  --secret <secret>     the receiver's webhook secret (whsec_live_… or whsec_dev_…);
                        never printed                                            (default: $WEBHOOK_SECRET)
  --set <path=value>    change a field of the payload by dot path from the envelope,
                        e.g. --set data.status=read; a field that must agree with
                        it follows (data.status_code=3) unless you set both; the
                        value is JSON when it parses (3, true, null, {"a":1}, "x"),
                        else text, and always text where the schema wants text
                        (data.sender=628123 stays "628123"); repeatable         (default: none)
  --unset <path>        remove a field of the payload by dot path, e.g. --unset data.text,
                        to see your receiver refuse what lacks a required field
                        (with --allow-invalid) or accept what lacks an optional one;
                        repeatable                                              (default: none)
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
  npx linkgate trigger message.ack --set data.status=read --to … --secret …
  npx linkgate trigger message.received --unset data.sender --allow-invalid --to … --secret …
  npx linkgate trigger --all --wrong-secret --to … --secret …
`;

/** The flags `linkgate trigger` accepts, for node:util parseArgs. */
const FLAGS = {
  to: { type: 'string' },
  secret: { type: 'string' },
  set: { type: 'string', multiple: true },
  unset: { type: 'string', multiple: true },
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

const DEFAULT_TIMEOUT_MS = 8000;
// Header values: visible ASCII, so the id reaches the receiver exactly as typed.
const HEADER_SAFE = /^[\x21-\x7e]{1,200}$/;

/** A command-line mistake: printed without a stack trace, exit code 2. */
export class TriggerUsageError extends Error {
  override name = 'TriggerUsageError';
}

/** One --set (or --unset), as typed and as read. */
export interface Override {
  path: string;
  text: string;
  /** undefined for an --unset: the builder removes the field. */
  value: unknown;
  /** Given as --unset: the field is removed, never retyped. */
  unset?: boolean;
}

/** What the flags ask for. */
export interface TriggerOptions {
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
function checkOptions({ values, positionals }: Flags, env: Environment): TriggerOptions {
  const [event, extra] = positionals;
  if (extra !== undefined) throw new TriggerUsageError(`Unexpected argument "${extra}"; options start with --.`);
  let events: EventName[];
  if (values.all) {
    if (event !== undefined) throw new TriggerUsageError(`Pass an event or --all, not both; got "${event}" and --all.`);
    const change = values.set ? '--set' : values.unset ? '--unset' : undefined;
    if (change) throw new TriggerUsageError(`${change} changes one event's payload; pass an event instead of --all.`);
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
    overrides: [...(values.set ?? []).map(parseOverride), ...(values.unset ?? []).map(parseRemoval)],
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

function parseSecret(flag: string | undefined, env: Environment): string {
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
  const path = checkPath('--set', text.slice(0, at));
  const raw = text.slice(at + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // Not JSON: the text itself.
  }
  return { path, text: raw, value };
}

function parseRemoval(path: string): Override {
  return { path: checkPath('--unset', path), text: '', value: undefined, unset: true };
}

/** A payload path typed after `flag`: field names between single dots, none that would reach a prototype. */
function checkPath(flag: string, path: string): string {
  if (!isOverridePath(path)) {
    throw new TriggerUsageError(
      `${flag} ${path}: the path must be field names separated by single dots, such as data.status (__proto__, prototype and constructor are not allowed).`,
    );
  }
  return path;
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

/** Where the secret may come from besides --secret. */
type Environment = Record<string, string | undefined>;

/** The options `linkgate trigger <argv>` asks for, or 'help'; throws a {@link TriggerUsageError} on a mistake. */
export function readTriggerOptions(argv: string[], env: Environment): TriggerOptions | 'help' {
  const parsed = parseFlags(argv);
  return parsed === 'help' ? 'help' : checkOptions(parsed, env);
}
