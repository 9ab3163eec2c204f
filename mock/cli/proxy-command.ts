// `linkgate proxy`: sits between an app and a deployment, forwards every exchange unchanged and checks it in both
// directions against the operation table: one line per finding, an NDJSON report, a summary at exit, and a command
// (an app's test suite) run through it with LINKGATE_BASE_URL pointing at the proxy.
import { spawn } from 'node:child_process';
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { checkingProxyListenError, startCheckingProxy } from '../drift/checking-proxy.js';
import { DELIVERY_OPERATIONS, DeliveryChecker, type DeliveryIdVerdict } from '../drift/delivery-check.js';
import { DriftUsageError, readFlags, readIgnores, readPositive, readUrl } from '../drift/drift-options.js';
import { DriftTally, formatTally } from '../drift/drift-tally.js';
import { checkExchange, type Exchange } from '../drift/exchange-check.js';
import { formatFinding, isIgnored, scrubFinding } from '../drift/findings.js';
import { nestsDeeperThan, TOO_DEEP } from '../drift/json-depth.js';
import { buildCallersRecording, type CallerRecords } from '../drift/recording.js';
import { SecretSet } from '../drift/secret-hiding.js';
import { appendAll } from '../shared/append-all.js';
import type { DriftIo } from './check-command.js';
import { readPortFlag } from './mock-options.js';

/** `linkgate proxy --help`. */
export const PROXY_HELP = `Usage: linkgate proxy --upstream <url> [options] [-- <command> [args...]]
       linkgate proxy --receiver <url> [options] [-- <command> [args...]]

Forwards every request to the upstream deployment unchanged (streamed; same status, headers and bytes back) and
checks each exchange against linkgate's operation table in both directions: a request the table would refuse, an
answer that differs from it. One line per finding, a summary at exit.

With --receiver instead of --upstream, it forwards the gateway's webhook deliveries to your receiver (set the
gateway's webhook URL to the proxy) and checks each one: the headers of every delivery and the event's schema. It
follows each event (by its own identity) across its attempts: a retry or replay with a new delivery id is the
perAttemptDeliveryIds variant, one that keeps its id is the documented behaviour. A receiver that fails one delivery (answers 500)
makes the gateway retry it, which shows which.

With "-- <command>", runs the command (e.g. your app's test suite) with LINKGATE_BASE_URL set to the proxy, stops
when it ends and exits with its status (128 + n when signal n ended it). SIGTERM and SIGHUP are passed on to the
command, and SIGKILL follows 5 s later if it is still running.

Options:
  --upstream <url>         the deployment to forward to (this or --receiver)
  --receiver <url>         your webhook receiver, to forward deliveries to (this or --upstream)
  --header-prefix <text>   the deliveries' header prefix                  (default X-Service-)
  --port <n>               port to listen on, 0 for any free one          (default 4011)
  --host <addr>            interface to listen on                         (default 127.0.0.1)
  --report <file>          write every finding, and the summary, as NDJSON
  --ignore <op[:field]>    silence an operation or one field (qr.list:data.qrs[].scans); repeatable
  --fail-on-drift          exit 1 when anything drifted (after the command's own failure)
  --record <file>          write the records the answers showed, and the variants they matched, as a
                           fixture: linkgate mock --fixture <file>
  --max-body <MB>          bytes of each body checked; larger ones pass unchecked  (default 5); copies
                           of bodies in flight hold at most 8 times this in all, bodies past it pass
                           unchecked ("not checked: body over budget")
  -h, --help               show this help
`;

const FLAGS = {
  upstream: { type: 'string' },
  receiver: { type: 'string' },
  'header-prefix': { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  report: { type: 'string' },
  ignore: { type: 'string', multiple: true },
  'fail-on-drift': { type: 'boolean' },
  record: { type: 'string' },
  'max-body': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Json = Record<string, unknown>;

/** Copies of bodies in flight hold at most this many times --max-body in all (5 MB: 40 MB). */
const COPY_BUDGET_BODIES = 8;

/** Runs `linkgate proxy <argv>`; resolves with the exit code once the command ends or a signal stops the proxy. */
export async function runProxy(argv: string[], io: DriftIo, signals: NodeJS.EventEmitter = process): Promise<number> {
  const split = argv.indexOf('--');
  const command = split < 0 ? [] : argv.slice(split + 1);
  let flags: ReturnType<typeof readFlags<typeof FLAGS>>;
  try {
    flags = readFlags(split < 0 ? argv : argv.slice(0, split), FLAGS);
    if (flags.help) {
      io.out(PROXY_HELP);
      return 0;
    }
    if (split >= 0 && command.length === 0) throw new DriftUsageError('"--" must be followed by a command to run.');
  } catch (error) {
    return usageFailure(error, io);
  }
  let upstream: URL;
  let port: number;
  let ignores: ReturnType<typeof readIgnores>;
  let maxCheckedBytes: number;
  // Receiver mode: deliveries from the gateway go through the proxy to the user's receiver.
  const deliveries = flags.receiver === undefined ? undefined : new DeliveryChecker(flags['header-prefix']);
  try {
    if (flags.receiver !== undefined && flags.upstream !== undefined) {
      throw new DriftUsageError(
        '--upstream and --receiver cannot both be given: one proxy checks either API calls (--upstream) or webhook deliveries (--receiver); run two.',
      );
    }
    if (flags['header-prefix'] !== undefined && !deliveries)
      throw new DriftUsageError("--header-prefix goes with --receiver: it is the webhook deliveries' header prefix.");
    if (flags['header-prefix'] !== undefined && !/^[A-Za-z0-9-]+$/.test(flags['header-prefix']))
      throw new DriftUsageError(
        `--header-prefix must be letters, digits and dashes, such as X-Service-; got "${flags['header-prefix']}".`,
      );
    upstream = deliveries ? readUrl('receiver', flags.receiver, true) : readUrl('upstream', flags.upstream, true);
    port = readPortFlag(flags.port, 4011, (message) => new DriftUsageError(message));
    ignores = readIgnores(flags.ignore, deliveries ? DELIVERY_OPERATIONS : undefined);
    maxCheckedBytes = readPositive('max-body', flags['max-body'], 5, 'megabytes') * 1_048_576;
  } catch (error) {
    return usageFailure(error, io);
  }
  const host = flags.host ?? '127.0.0.1';
  // Keys seen on the wire are hidden everywhere the proxy writes: in values, before anything is serialised.
  const secrets = new SecretSet();
  const hide = (text: string) => secrets.hideText(text);
  const report = flags.report === undefined ? undefined : openSync(flags.report, 'w');
  const writeReport = (entry: Json) => {
    if (report !== undefined) writeSync(report, `${JSON.stringify(secrets.hideValues(entry))}\n`);
  };
  const log = (line: string) => (command.length > 0 ? io.err : io.out)(`${hide(line)}\n`);
  const tally = new DriftTally();
  // What each key read, by the key (kept in memory only): its records belong to the user its account answer names.
  const seen: SeenRecords = { callers: new Map(), users: [], adminUsernames: [] };
  let upstreamErrors = 0;
  const unchecked = new Map<string, number>();
  const notChecked = (method: string, path: string, reason: string) => {
    unchecked.set(reason, (unchecked.get(reason) ?? 0) + 1);
    log(`linkgate proxy: not checked: ${method} ${path}: ${reason}`);
    writeReport({ type: 'not-checked', time: new Date().toISOString(), method, path, reason });
  };

  let proxy: Awaited<ReturnType<typeof startCheckingProxy>>;
  try {
    proxy = await startCheckingProxy({
      upstream,
      host,
      port,
      maxCheckedBytes,
      copyBudgetBytes: maxCheckedBytes * COPY_BUDGET_BODIES,
      onNotChecked: notChecked,
      onExchange: (exchange) => {
        for (const [name, value] of Object.entries(exchange.requestHeaders)) {
          if (/^authorization$/i.test(name)) {
            secrets.add(value);
            secrets.add(value?.replace(/^Bearer\s+/i, ''));
          }
          // A delivery's webhook secret is hidden like a key, wherever the proxy writes.
          if (/-secret$/i.test(name)) secrets.add(value);
        }
        // A body nested deeper than any answer of the API would cost hundreds of MB to parse: it is not read.
        if ([exchange.requestBody, exchange.responseBody].some((body) => body !== undefined && nestsDeeperThan(body))) {
          notChecked(exchange.method, exchange.url.split('?')[0] as string, `body ${TOO_DEEP}`);
          return;
        }
        const verdict = deliveries ? deliveries.check(exchange) : checkExchange(exchange);
        const findings = verdict.findings.map((f) => scrubFinding(f, hide)).filter((f) => !isIgnored(f, ignores));
        tally.add(verdict, findings);
        for (const f of findings) {
          log(`linkgate proxy: ${formatFinding(f)}`);
          writeReport({ type: 'finding', time: new Date().toISOString(), ...f });
        }
        if (!deliveries && flags.record !== undefined) collect(seen, verdict.operation, exchange);
      },
      onUpstreamError: (method, path, message) => {
        upstreamErrors++;
        log(`linkgate proxy: upstream ${method} ${path}: ${message}`);
        writeReport({ type: 'upstream-error', time: new Date().toISOString(), method, path, message });
      },
    });
  } catch (error) {
    if (report !== undefined) closeSync(report);
    io.err(`linkgate proxy: ${checkingProxyListenError(error, host, port)}\n`);
    return 2;
  }
  log(
    deliveries
      ? `linkgate proxy listening on ${proxy.url}, forwarding webhook deliveries to ${upstream.href}; set the gateway's webhook URL to ${proxy.url}`
      : `linkgate proxy listening on ${proxy.url}, forwarding to ${upstream.origin}${upstream.pathname.replace(/\/$/, '')}`,
  );

  const commandStatus =
    command.length > 0 ? await runCommand(command, proxy.url, io, signals) : await untilSignal(signals);
  await proxy.close();
  const summary = tally.summary();
  const drifted = !summary.ok;
  const deliveryIds = deliveries?.deliveryIds;
  const notCheckedCount = [...unchecked.values()].reduce((sum, n) => sum + n, 0);
  writeReport({
    type: 'summary',
    ...summary,
    upstreamErrors,
    notChecked: Object.fromEntries(unchecked),
    ...(deliveryIds && { deliveryIds }),
  });
  if (report !== undefined) closeSync(report);
  if (flags.record !== undefined) {
    const recording = buildCallersRecording(
      [...seen.callers.values()],
      seen.users,
      seen.adminUsernames,
      summary.variants,
    );
    writeFileSync(flags.record, `${JSON.stringify(secrets.hideValues(recording), null, 2)}\n`);
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
    const records = recording.users.length + recording.domains.length + recording.pixels.length + recording.qrs.length;
    log(
      `linkgate proxy: recording written to ${flags.record}: ${count(records, 'record')} (${count(recording.users.length, 'user')}, ${count(recording.domains.length, 'domain')}, ${count(recording.pixels.length, 'pixel')}, ${count(recording.qrs.length, 'QR code')}); start a mock from it with linkgate mock --fixture ${flags.record}`,
    );
  }
  const lines = [
    '',
    'linkgate proxy summary',
    summary.operations.length === 0
      ? `No ${deliveries ? 'webhook delivery' : 'exchange of the APIs'} went through the proxy.\n`
      : formatTally(summary.operations),
    ...(deliveryIds ? formatDeliveryIds(deliveryIds) : []),
    ...(summary.variants.length > 0
      ? [`Production variants matched: ${summary.variants.join(', ')} (${summary.reproduce})`]
      : []),
    ...(upstreamErrors > 0 ? [`Upstream errors: ${upstreamErrors}`] : []),
    ...(notCheckedCount > 0
      ? [
          `Not checked: ${notCheckedCount} exchange(s) (${[...unchecked].map(([reason, n]) => `${reason}: ${n}`).join('; ')})`,
        ]
      : []),
    drifted ? 'Drift found.' : 'No drift found.',
    '',
  ];
  log(lines.join('\n'));
  if (typeof commandStatus === 'number' && commandStatus !== 0) return commandStatus;
  return flags['fail-on-drift'] && drifted ? 1 : 0;
}

/** Signals that stop the proxy: each is passed on to the command, which ends first, then the summary is printed. */
const STOPPING_SIGNALS = ['SIGTERM', 'SIGHUP'] as const;

/** How long a command has to end after a signal was passed on, before it is killed. */
export const COMMAND_GRACE_MS = 5_000;

/**
 * Runs the command with the proxy's URL in LINKGATE_BASE_URL; resolves with its exit status (128 + the signal's
 * number when a signal ended it, as a shell reports it). The proxy outlives the command, so the summary is printed
 * however it ends: SIGTERM and SIGHUP are passed on to it (then SIGKILL after {@link COMMAND_GRACE_MS} if it is still
 * running), and Ctrl+C, which the terminal sends to both, is left to the command.
 */
function runCommand(command: string[], url: string, io: DriftIo, signals: NodeJS.EventEmitter): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command[0] as string, command.slice(1), {
      stdio: 'inherit',
      env: { ...io.env, LINKGATE_BASE_URL: url },
    });
    let killer: NodeJS.Timeout | undefined;
    const passOn = (signal: NodeJS.Signals = 'SIGTERM') => {
      child.kill(signal);
      killer ??= setTimeout(() => {
        io.err(
          `linkgate proxy: "${command[0]}" did not end within ${COMMAND_GRACE_MS / 1000} s of ${signal}; sent SIGKILL.\n`,
        );
        child.kill('SIGKILL');
      }, COMMAND_GRACE_MS);
    };
    const leaveToCommand = () => {};
    signals.on('SIGTERM', passOn);
    signals.on('SIGHUP', passOn);
    signals.on('SIGINT', leaveToCommand);
    const done = (status: number) => {
      clearTimeout(killer);
      for (const signal of STOPPING_SIGNALS) signals.off(signal, passOn);
      signals.off('SIGINT', leaveToCommand);
      resolve(status);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      io.err(
        `linkgate proxy: could not run "${command[0]}" (${error.code ?? error.message}); is it installed and on PATH?\n`,
      );
      done(127);
    });
    child.on('exit', (code, signal) => done(code ?? 128 + (signal ? (osConstants.signals[signal] ?? 15) : 15)));
  });
}

/** Resolves on SIGINT, SIGTERM or SIGHUP: the proxy alone runs until stopped. */
function untilSignal(signals: NodeJS.EventEmitter): Promise<undefined> {
  return new Promise((resolve) => {
    const stop = () => {
      for (const signal of ['SIGINT', ...STOPPING_SIGNALS]) signals.off(signal, stop);
      resolve(undefined);
    };
    for (const signal of ['SIGINT', ...STOPPING_SIGNALS]) signals.on(signal, stop);
  });
}

/** What the answers showed, for --record: per key, its account and records; users and admins an admin listed. */
interface SeenRecords {
  callers: Map<string, CallerRecords>;
  users: Json[];
  adminUsernames: string[];
}

/** Keeps the records an answer showed under the key that read them (the Authorization header as sent). */
function collect(seen: SeenRecords, operation: string, exchange: Exchange): void {
  let json: Json;
  try {
    json = JSON.parse(exchange.responseBody ?? '') as Json;
  } catch {
    return;
  }
  if (json.error !== 0 && json.error !== '0') return;
  const key = Object.entries(exchange.requestHeaders).find(([name]) => /^authorization$/i.test(name))?.[1] ?? '';
  let caller = seen.callers.get(key);
  if (!caller) {
    caller = { account: undefined, admin: false, domains: [], pixels: [], qrs: [] };
    seen.callers.set(key, caller);
  }
  // An answered plans list means an admin's key: its records belong to the mock's admin.
  if (operation === 'plans.list') caller.admin = true;
  const data = json.data as Json | Json[] | undefined;
  const items = (name: string) => ((data as Json | undefined)?.[name] as Json[] | undefined) ?? [];
  if (operation === 'account.get' && data && !Array.isArray(data)) caller.account = data;
  if (operation === 'users.list' && Array.isArray(data)) {
    const admins = new URL(exchange.url, 'http://proxy.invalid').searchParams.get('filter') === 'admin';
    if (admins)
      appendAll(
        seen.adminUsernames,
        data.map((u) => String(u.username)),
      );
    else appendAll(seen.users, data);
  }
  if (operation === 'domains.list') appendAll(caller.domains, items('domains'));
  if (operation === 'pixels.list') appendAll(caller.pixels, items('pixels'));
  if (operation === 'qr.list') appendAll(caller.qrs, items('qrs'));
}

/** Receiver mode's lines on delivery ids: how many events came more than once, and what that says of the variant. */
function formatDeliveryIds(v: DeliveryIdVerdict): string[] {
  const head = `Webhook deliveries: ${v.deliveries}; events delivered more than once: ${v.repeatedEvents} (kept their delivery id: ${v.keptId}, changed it: ${v.changedId})`;
  if (v.changedId > 0) {
    return [
      head,
      `perAttemptDeliveryIds: matched (${v.example}): every attempt carries a new delivery id, so receivers must dedupe on the event (dedupeKey: 'event')`,
    ];
  }
  if (v.keptId > 0)
    return [head, 'perAttemptDeliveryIds: not matched (retried events kept their delivery id, as the API documents)'];
  return [
    head,
    'perAttemptDeliveryIds: not seen (no event was delivered twice; have your receiver answer 500 to one delivery so the gateway retries it)',
  ];
}

function usageFailure(error: unknown, io: DriftIo): number {
  if (!(error instanceof DriftUsageError)) throw error;
  io.err(`linkgate proxy: ${error.message}\nRun "linkgate proxy --help" for usage.\n`);
  return 2;
}
