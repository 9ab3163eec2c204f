// `linkgate mock`: the reference server of both APIs on plain node:http, for apps and tests in any language.
// No msw here: the CLI serves the runtime-neutral core through mock/adapters/node-server.ts only.
import { parseArgs } from 'node:util';
import { systemClock } from '../src/core/clock.js';
import { MESSAGING_KEY_PATTERN } from '../src/schemas/messaging.js';
import { type MockServer, startMockServer } from './adapters/node-server.js';
import { describeCaller, formatRequestLine, type RequestLogEntry } from './adapters/request-log.js';
import type { MockBackendOptions } from './backend.js';
import { runCheck } from './cli/check-command.js';
import { runProxy } from './cli/proxy-command.js';
import { runTrigger } from './cli/trigger-command.js';
import { GatewayInputError } from './gateway/gateway-input-error.js';
import type { RateLimitOptions } from './management/rate-limit.js';
import { PRODUCTION_VARIANT_NAMES, type ProductionVariantName } from './management/variants.js';
import { type DeviceInput, DeviceRegistry } from './messaging/device-registry.js';
import { ManualClock } from './shared/manual-clock.js';

const HELP = `Usage: linkgate mock [options]
       linkgate trigger <event> --to <url> --secret <secret>   (linkgate trigger --help)

Serves a stateful reference backend of the management API (/api/...) and the messaging gateway over HTTP,
with CORS for browser apps. Data lives in memory and is gone when the server stops.

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
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof FLAGS; allowPositionals: true; strict: true }>>['values'];

/** What the flags ask for: the server's options and how talkative to be. */
type CliOptions = MockBackendOptions & { port: number; host: string; quiet: boolean };

/** A command-line mistake: printed without a stack trace, exit code 2. */
class UsageError extends Error {
  override name = 'UsageError';
}

async function main(argv: string[]): Promise<void> {
  // `trigger`, `check` and `proxy` have flags of their own; the mock's parser never sees them.
  const commands = { trigger: runTrigger, check: runCheck, proxy: runProxy };
  const run = Object.hasOwn(commands, argv[0] ?? '') ? commands[argv[0] as keyof typeof commands] : undefined;
  if (run) {
    const write = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(text);
    process.exitCode = await run(argv.slice(1), {
      out: write(process.stdout),
      err: write(process.stderr),
      env: process.env,
    });
    return;
  }
  let parsed: { values: Flags; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: FLAGS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(flagError(error as NodeJS.ErrnoException));
  }
  const { values, positionals } = parsed;
  const [command, ...extra] = positionals;
  if (values.help && (command === undefined || command === 'mock')) {
    process.stdout.write(HELP);
    return;
  }
  if (command !== 'mock') {
    throw new UsageError(
      command === undefined
        ? 'No command given; the commands are "mock" and "trigger".'
        : `Unknown command "${command}"; the commands are "mock" and "trigger".`,
    );
  }
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}"; options start with --.`);

  const options = serverOptions(values);
  let server: MockServer;
  // Set once the server exists; requests cannot arrive before that.
  let log: ((entry: RequestLogEntry) => void) | undefined;
  try {
    const { quiet: _quiet, ...serverOpts } = options;
    server = await startMockServer({ ...serverOpts, onResponse: (entry) => log?.(entry) });
  } catch (error) {
    throw listenError(error, options.host, options.port);
  }
  printBanner(server, options);
  if (!values.quiet) log = logActivity(server);
  stopOnSignals(server);
}

/** parseArgs' message, with the list of known flags when the flag was unknown. */
function flagError(error: NodeJS.ErrnoException): string {
  if (error.code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return error.message;
  const flag = /'([^']+)'/.exec(error.message)?.[1] ?? 'given';
  const known = Object.keys(FLAGS).map((name) => `--${name}`);
  return `Unknown option ${flag}; the options are ${known.join(', ')}.`;
}

/** Turns the flags into startMockServer options, or throws a UsageError naming the flag and its rule. */
function serverOptions(values: Flags): CliOptions {
  const options: CliOptions = {
    port: parsePort(values.port),
    host: values.host ?? '127.0.0.1',
    seed: parseSeed(values.seed),
    rateLimit: parseRateLimit(values['rate-limit']),
    quiet: values.quiet ?? false,
  };
  if (values.host !== undefined && values.host.trim() === '') {
    throw new UsageError('--host must be an interface address such as 127.0.0.1 or 0.0.0.0; got an empty value.');
  }
  if (values['admin-key'] !== undefined) {
    const key = values['admin-key'];
    if (key === '' || /\s/.test(key)) throw new UsageError('--admin-key must be a non-empty string without spaces.');
    options.adminKey = key;
  }
  const messagingKey = values['messaging-key'];
  if (messagingKey !== undefined && !MESSAGING_KEY_PATTERN.test(messagingKey)) {
    throw new UsageError('--messaging-key must be "gw_live_" followed by 24 or more letters or digits.');
  }
  const controlToken = values['control-token'];
  if (controlToken !== undefined && (controlToken.length < 8 || /\s/.test(controlToken))) {
    throw new UsageError('--control-token must be at least 8 characters without spaces.');
  }
  options.gateway = {
    messagingKey,
    controlToken,
    devices: parseDevices(values.device),
    allowHttpReceivers: values['allow-http-receivers'] ?? false,
  };
  const clock = values.clock ?? 'real';
  if (clock !== 'real' && clock !== 'manual')
    throw new UsageError(`--clock must be "real" or "manual"; got "${clock}".`);
  // A manual clock starts at the real time so records carry plausible dates.
  if (clock === 'manual') options.clock = new ManualClock(Date.now());
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
      throw new UsageError(`--device ${JSON.stringify(device.id)}: a device id ${error.rule}.`);
    }
  }
  return devices;
}

/** `--variant a,b --variant c` as a list of variant names, or a UsageError naming the unknown one. */
function parseVariants(values: string[] | undefined): ProductionVariantName[] {
  const names = (values ?? []).flatMap((value) => value.split(',')).map((name) => name.trim());
  for (const name of names) {
    if (!(PRODUCTION_VARIANT_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(
        `--variant ${name === '' ? 'got an empty name' : `"${name}" is not a known variant`}; the variants are ${PRODUCTION_VARIANT_NAMES.join(', ')}.`,
      );
    }
  }
  return [...new Set(names)] as ProductionVariantName[];
}

function parsePort(value: string | undefined): number {
  if (value === undefined) return 4010;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new UsageError(`--port must be a whole number from 0 to 65535 (0 picks a free port); got "${value}".`);
  }
  return port;
}

function parseSeed(value: string | undefined): 'demo' | 'empty' {
  if (value === undefined) return 'demo';
  if (value === 'demo' || value === 'empty') return value;
  throw new UsageError(`--seed must be "demo" or "empty"; got "${value}".`);
}

function parseRateLimit(value: string | undefined): RateLimitOptions | false | undefined {
  if (value === undefined) return undefined;
  if (value === 'off') return false;
  const match = /^(\d+)\/(\d+)s$/.exec(value);
  const limit = Number(match?.[1]);
  const seconds = Number(match?.[2]);
  if (!match || limit < 1 || seconds < 1) {
    throw new UsageError(
      `--rate-limit must be <requests>/<seconds>s with both at least 1 (e.g. 30/60s), or "off"; got "${value}".`,
    );
  }
  return { limit, windowMs: seconds * 1000 };
}

function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new Error(
      `Port ${port} on ${host} is already in use; pass --port with another port, or --port 0 for any free one.`,
    );
  }
  if (code === 'EACCES') return new Error(`Not allowed to listen on port ${port}; use a port above 1023.`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new Error(`--host ${host} is not an address of this machine; use 127.0.0.1 or 0.0.0.0.`);
  }
  return new Error(`Could not start the mock server on ${host}:${port}: ${(error as Error).message}`);
}

function printBanner(server: MockServer, options: CliOptions): void {
  const { store, gateway } = server.backend;
  const users = [...store.users.values()];
  const width = Math.max(8, ...users.map((u) => u.username.length));
  const limit = options.rateLimit === false ? 'off' : describeLimit(server.backend.options.rateLimit);
  const variants = PRODUCTION_VARIANT_NAMES.filter((name) => server.backend.options.variants[name]);
  const owned = (userId: number) => {
    const count = (rows: Iterable<{ userId: number }>) => [...rows].filter((row) => row.userId === userId).length;
    const parts = [
      [count(store.domains.values()), 'domain'],
      [count(store.pixels.values()), 'pixel'],
      [count(store.qrs.values()), 'QR code'],
    ] as const;
    const owns = parts.filter(([n]) => n !== 0).map(([n, what]) => `${n} ${what}${n === 1 ? '' : 's'}`);
    return owns.length === 0 ? 'no data' : `owns ${owns.join(', ')}`;
  };
  const owners = users.filter((u) => owned(u.id) !== 'no data').map((u) => u.username);
  const admin = users.find((u) => u.admin);
  const auth = `-H "Authorization: Bearer ${gateway.controlToken}"`;
  const lines = [
    `linkgate mock listening on ${server.url}`,
    `  seed: ${options.seed}, rate limit: ${limit}, clock: ${options.clock ? 'manual (POST /__mock/clock/advance)' : 'real'}`,
    ...(variants.length > 0 ? [`  production variants: ${variants.join(', ')}`] : []),
    `  OpenAPI document: ${server.url}/openapi.json`,
    // The token rides in the fragment: browsers never send it, so no request log (ours or a proxy's) records it.
    `  Inspector (live page of data, deliveries, circuits, dead letters, pairing): ${server.url}/#token=${gateway.controlToken}`,
    '',
    `  API keys (send as "Authorization: Bearer <key>"); each user sees only their own data:`,
    ...users.map((u) => `    ${u.username.padEnd(width)}  ${u.apikey}  ${u.admin ? '(admin) ' : ''}${owned(u.id)}`),
    // The admin's key comes first, but its lists are empty: say whose key shows the demo data.
    ...(admin && owners.length > 0 && !owners.includes(admin.username)
      ? [
          `    The demo data belongs to ${owners.join(' and ')}: use their keys to see it; ${admin.username}'s lists are empty.`,
        ]
      : []),
    '',
    `  Messaging API (/api/v1/...): ${options.gateway?.messagingKey ? `key ${options.gateway.messagingKey} (tenant "default")` : 'no key yet; create one with POST /__mock/keys'}`,
    ...(options.gateway?.devices?.length
      ? [`  Online devices (tenant "default"): ${options.gateway.devices.map((d) => d.id).join(', ')}`]
      : []),
    `  Control API: ${server.url}/__mock/ lists its endpoints; token ${gateway.controlToken} (send "Authorization: Bearer <token>")`,
    `    reset to the start seed:  curl -X POST ${server.url}/__mock/reset ${auth}`,
    `    attach a webhook receiver (https, or plain http ${options.gateway?.allowHttpReceivers ? 'on any host' : 'on loopback; --allow-http-receivers for any host'}):`,
    `      curl ${server.url}/__mock/webhooks ${auth} -H "Content-Type: application/json" \\`,
    `        -d '{"url":"http://127.0.0.1:3000/webhooks"}'`,
    '',
    `Stop with Ctrl+C.${options.quiet ? '' : ' One line per request, delivery attempt, circuit change and dead letter follows (--quiet turns them off).'}`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

/** Prints a line per answered request and per delivery attempt, circuit change and dead letter; returns the request logger. */
function logActivity(server: MockServer): (entry: RequestLogEntry) => void {
  const { gateway } = server.backend;
  const print = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 23)} ${line}\n`);
  const at = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());
  gateway.on('attempt', (a) => {
    const answer = a.response ? `${a.response.status}` : (a.error ?? 'no answer');
    const next = a.nextAttemptAt === null ? '' : `, next attempt at ${at(a.nextAttemptAt)}`;
    print(
      `delivery ${a.event} ${a.deliveryId} attempt ${a.attempt}${a.probe ? ' (probe)' : ''} to ${a.url}: ${answer}, ${a.outcome}${next} ${a.durationMs.toFixed(0)} ms`,
    );
  });
  gateway.on('circuit', (c) => {
    print(`circuit ${c.url}: ${c.from} -> ${c.to}${c.openUntil === null ? '' : ` until ${at(c.openUntil)}`}`);
  });
  gateway.on('dead-lettered', (d) => {
    print(
      `dead letter ${d.event} ${d.deliveryId} to ${d.url}: ${d.reason} after ${d.attempts} attempt(s), last ${d.lastStatus ?? 'no answer'}`,
    );
  });
  return (entry) => print(formatRequestLine(entry, describeCaller(server.backend, entry.path, entry.authorization)));
}

function describeLimit(rule: RateLimitOptions | false): string {
  return rule === false ? 'off' : `${rule.limit} requests per ${rule.windowMs / 1000} s per key`;
}

function stopOnSignals(server: MockServer): void {
  let stoppingSince: number | undefined;
  const stop = (signal: NodeJS.Signals) => {
    if (stoppingSince !== undefined) {
      // A second Ctrl+C while connections drain exits at once; copies of the first one (the terminal, npm and the
      // launcher each pass it on) arrive within milliseconds and are not a second press.
      if (performance.now() - stoppingSince > 300) process.exit(130);
      return;
    }
    stoppingSince = performance.now();
    process.stdout.write(`\n${signal} received, stopping.\n`);
    // Keep-alive connections of busy clients would otherwise hold the close open.
    setTimeout(() => process.exit(0), 2_000).unref();
    server.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
}

// A closed stdout (e.g. piped into `head`) must not crash the server or its shutdown.
process.stdout.on('error', () => {});

main(process.argv.slice(2)).catch((error: unknown) => {
  const usage = error instanceof UsageError;
  process.stderr.write(
    `linkgate: ${(error as Error).message}\n${usage ? 'Run "linkgate mock --help" for usage.\n' : ''}`,
  );
  process.exit(usage ? 2 : 1);
});
