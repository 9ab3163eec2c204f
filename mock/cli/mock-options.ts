// `linkgate mock`'s command line: its help, its flags, and the server options they ask for, each mistake named with
// its flag and rule (exit code 2). Pure: it reads only its arguments, so every flag case is tested in-process.
import { parseArgs } from 'node:util';
import { MESSAGING_KEY_PATTERN } from '../../src/schemas/messaging.js';
import { systemClock } from '../../src/shared/clock.js';
import type { MockBackendOptions } from '../backend.js';
import type { RateLimitOptions } from '../management/rate-limit.js';
import { PRODUCTION_VARIANT_NAMES, type ProductionVariantName } from '../management/variants.js';
import { type DeviceInput, DeviceRegistry } from '../messaging/device-registry.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';
import { ManualClock } from '../shared/manual-clock.js';

/** `linkgate mock --help`. */
export const MOCK_HELP = `Usage: linkgate mock [options]
       linkgate trigger <event> --to <url> --secret <secret>   (linkgate trigger --help)
       linkgate check --base-url <url> --api-key <key>         (linkgate check --help)
       linkgate proxy --upstream <url> [-- <command>]          (linkgate proxy --help)

Serves a stateful reference backend of the management API (/api/...) and the messaging gateway over HTTP,
with CORS for browser apps. Data lives in memory and is gone when the server stops, unless --state keeps it.

Inspector: the banner prints a link, http://<host>:<port>/#token=<control token>; open it in a browser
for a live page of the data, deliveries, circuits, dead letters and pairing. The token stays in the
link's fragment, so it is never sent in a request line or printed in the log.

Options:
  --port <n>            TCP port, 0 for any free port                    (default 4010)
  --host <address>      interface to bind; 0.0.0.0 exposes it on the LAN (default 127.0.0.1)
  --admin-key <key>     API key of the admin user                       (default: generated)
  --seed <demo|empty>   demo: users, domains, pixels, QR codes, plans;  (default demo)
                        empty: the admin user alone
  --rate-limit <rule>   per-key management limit as <requests>/<seconds>s
                        (e.g. 30/60s) or "off"                          (default 30/60s)
  --messaging-key <key> messaging API key (gw_live_ + 24+ letters/digits) for
                        the "default" tenant                            (default: none)
  --device <id>         an ONLINE device of the "default" tenant, so messages
                        can be sent at once; repeatable                 (default: none)
  --control-token <t>   token of the /__mock/ control API: 8 or more
                        characters, no spaces                          (default: generated)
  --clock <real|manual> manual: time moves only with POST /__mock/clock/advance,
                        so retries, circuits and rate windows are
                        deterministic in tests in any language          (default real)
  --allow-http-receivers
                        accept plain-http receiver URLs on any host, e.g.
                        http://receiver:3000/hooks in docker-compose    (default: loopback only)
  --variant <names>     reproduce behaviours of some production versions,
                        comma-separated: overlayCollection (overlays under
                        "overlay", not "cta"), stringIds (new domain/pixel ids
                        as "12"), negativeRemaining (X-RateLimit-Remaining: -1
                        when over the limit), perAttemptDeliveryIds (a new
                        webhook delivery id on every retry and replay);
                        repeatable                                      (default none)
  --state <file>        load the state from this JSON file (created when missing)
                        and keep it current: written at most once a second,
                        atomically, and on Ctrl+C/SIGTERM (exit 1 if that write
                        fails); one server per file; created 0600 (holds
                        secrets: keys, webhook secrets)     (default: memory only)
  --fixture <file>      load a fixture (the POST /__mock/fixture format: users,
                        domains, pixels, qrs, devices) at start; with --state,
                        only when the state file is created; its variants
                        key is merged with --variant                 (default: none)
  --faults <file>       arm a fault plan at start: {"seed": n, "faults": [...]},
                        the POST /__mock/faults body (e.g. {"operation":
                        "listDomains", "fault": "status", "status": 503})
                        so CI runs fail the same calls every time  (default: none)
  --quiet               print only the banner: no line per request, delivery
                        attempt, circuit change or dead letter          (default: print them)
  -h, --help            show this help

Stop with Ctrl+C (SIGINT) or SIGTERM.
`;

/** The flags `linkgate mock` accepts, for node:util parseArgs. */
const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'admin-key': { type: 'string' },
  seed: { type: 'string' },
  'rate-limit': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  'messaging-key': { type: 'string' },
  device: { type: 'string', multiple: true },
  'control-token': { type: 'string' },
  clock: { type: 'string' },
  'allow-http-receivers': { type: 'boolean' },
  variant: { type: 'string', multiple: true },
  quiet: { type: 'boolean' },
  state: { type: 'string' },
  fixture: { type: 'string' },
  faults: { type: 'string' },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof FLAGS; allowPositionals: true; strict: true }>>['values'];

/** What the flags ask for: the server's options and how talkative to be. */
export type MockCliOptions = MockBackendOptions & {
  port: number;
  host: string;
  quiet: boolean;
  /** `--state`: the state file to load and keep current. */
  state?: string;
  /** `--fixture`: a fixture to load at start. */
  fixture?: string;
  /** `--faults`: a fault plan to arm at start. */
  faults?: string;
};

/** A command-line mistake: printed without a stack trace, exit code 2. */
export class MockUsageError extends Error {
  override name = 'MockUsageError';
}

/**
 * Reads `linkgate <argv>` for the mock command (argv starts with `mock`, as typed after `linkgate`): `'help'` for
 * `--help`, else the server's options; throws a {@link MockUsageError} naming the flag and its rule.
 */
export function readMockOptions(argv: string[]): MockCliOptions | 'help' {
  let parsed: { values: Flags; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: FLAGS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new MockUsageError(flagError(error as NodeJS.ErrnoException));
  }
  const { values, positionals } = parsed;
  const [command, ...extra] = positionals;
  if (values.help && (command === undefined || command === 'mock')) return 'help';
  if (command !== 'mock') {
    throw new MockUsageError(
      command === undefined
        ? 'No command given; the commands are "mock", "trigger", "check" and "proxy".'
        : `Unknown command "${command}"; the commands are "mock", "trigger", "check" and "proxy".`,
    );
  }
  if (extra.length > 0) throw new MockUsageError(`Unexpected argument "${extra[0]}"; options start with --.`);
  return serverOptions(values);
}

/** parseArgs' message, with the list of known flags when the flag was unknown. */
function flagError(error: NodeJS.ErrnoException): string {
  if (error.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return error.message;
  const flag = /'([^']+)'/.exec(error.message)?.[1] ?? 'given';
  const known = Object.keys(FLAGS).map((name) => `--${name}`);
  return `Unknown option ${flag}; the options are ${known.join(', ')}.`;
}

/** Turns the flags into startMockServer options, or throws a MockUsageError naming the flag and its rule. */
function serverOptions(values: Flags): MockCliOptions {
  const options: MockCliOptions = {
    port: parsePort(values.port),
    host: values.host ?? '127.0.0.1',
    seed: parseSeed(values.seed),
    rateLimit: parseRateLimit(values['rate-limit']),
    quiet: values.quiet ?? false,
  };
  if (values.host !== undefined && values.host.trim() === '') {
    throw new MockUsageError('--host must be an interface address such as 127.0.0.1 or 0.0.0.0; got an empty value.');
  }
  if (values['admin-key'] !== undefined) {
    const key = values['admin-key'];
    if (key === '' || /\s/.test(key))
      throw new MockUsageError('--admin-key must be a non-empty string without spaces.');
    options.adminKey = key;
  }
  const messagingKey = values['messaging-key'];
  if (messagingKey !== undefined && !MESSAGING_KEY_PATTERN.test(messagingKey)) {
    throw new MockUsageError('--messaging-key must be "gw_live_" followed by 24 or more letters or digits.');
  }
  const controlToken = values['control-token'];
  if (controlToken !== undefined && (controlToken.length < 8 || /\s/.test(controlToken))) {
    throw new MockUsageError('--control-token must be at least 8 characters without spaces.');
  }
  options.gateway = {
    messagingKey,
    controlToken,
    devices: parseDevices(values.device),
    allowHttpReceivers: values['allow-http-receivers'] ?? false,
  };
  const clock = values.clock ?? 'real';
  if (clock !== 'real' && clock !== 'manual')
    throw new MockUsageError(`--clock must be "real" or "manual"; got "${clock}".`);
  // A manual clock starts at the real time so records carry plausible dates.
  if (clock === 'manual') options.clock = new ManualClock(Date.now());
  for (const flag of ['state', 'fixture', 'faults'] as const) {
    const file = values[flag];
    if (file === undefined) continue;
    if (file.trim() === '') throw new MockUsageError(`--${flag} must be a file path; got an empty value.`);
    options[flag] = file;
  }
  const variants = parseVariants(values.variant);
  if (variants.length > 0) options.variants = variants;
  return options;
}

/** `--device a --device b` as devices to seed, checked by the registry's own rules so the CLI cannot drift from them. */
function parseDevices(ids: string[] | undefined): DeviceInput[] {
  const devices = (ids ?? []).map((id) => ({ id }));
  const registry = new DeviceRegistry(systemClock);
  for (const device of devices) {
    try {
      registry.add(device);
    } catch (error) {
      if (!(error instanceof GatewayInputError)) throw error;
      throw new MockUsageError(`--device ${JSON.stringify(device.id)}: a device id ${error.rule}.`);
    }
  }
  return devices;
}

/** `--variant a,b --variant c` as a list of variant names, or a MockUsageError naming the unknown one. */
function parseVariants(values: string[] | undefined): ProductionVariantName[] {
  const names = (values ?? []).flatMap((value) => value.split(',')).map((name) => name.trim());
  for (const name of names) {
    if (!(PRODUCTION_VARIANT_NAMES as readonly string[]).includes(name)) {
      throw new MockUsageError(
        `--variant ${name === '' ? 'got an empty name' : `"${name}" is not a known variant`}; the variants are ${PRODUCTION_VARIANT_NAMES.join(', ')}.`,
      );
    }
  }
  return [...new Set(names)] as ProductionVariantName[];
}

function parsePort(value: string | undefined): number {
  return readPortFlag(value, 4010, (message) => new MockUsageError(message));
}

/**
 * A `--port` flag's value (`fallback` when not given), or the error `fail` makes of what is wrong with it: shared by
 * `linkgate mock` and `linkgate proxy`, which throw their own usage errors.
 */
export function readPortFlag(value: string | undefined, fallback: number, fail: (message: string) => Error): number {
  if (value === undefined) return fallback;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw fail(`--port must be a whole number from 0 to 65535 (0 picks a free port); got "${value}".`);
  }
  return port;
}

function parseSeed(value: string | undefined): 'demo' | 'empty' {
  if (value === undefined) return 'demo';
  if (value === 'demo' || value === 'empty') return value;
  throw new MockUsageError(`--seed must be "demo" or "empty"; got "${value}".`);
}

function parseRateLimit(value: string | undefined): RateLimitOptions | false | undefined {
  if (value === undefined) return undefined;
  if (value === 'off') return false;
  const match = /^(\d+)\/(\d+)s$/.exec(value);
  const limit = Number(match?.[1]);
  const seconds = Number(match?.[2]);
  if (!match || limit < 1 || seconds < 1) {
    throw new MockUsageError(
      `--rate-limit must be <requests>/<seconds>s with both at least 1 (e.g. 30/60s), or "off"; got "${value}".`,
    );
  }
  return { limit, windowMs: seconds * 1000 };
}
