// `linkgate mock`: the reference server of both APIs on plain node:http, for apps and tests in any language.
// No msw here: the CLI serves the runtime-neutral core through mock/adapters/node-server.ts only.
import { BatchedLineWriter, clockTime } from './adapters/line-writer.js';
import { type MockServer, startMockServer } from './adapters/node-server.js';
import { describeCaller, formatRequestLine, type RequestLogEntry } from './adapters/request-log.js';
import { createBackendCore } from './backend.js';
import { armFaultPlan, FaultPlanError } from './cli/fault-plan-file.js';
import { formatBanner } from './cli/mock-banner.js';
import { MOCK_HELP, MockUsageError, readMockOptions } from './cli/mock-options.js';
import { applyStartState, readFixtureVariants } from './cli/state-file.js';
import type { ProductionVariantName } from './management/variants.js';

// Read at load, not once the server listens: a parent that dies while the server starts is still seen as gone.
const startedBy = process.ppid;

async function main(argv: string[]): Promise<void> {
  // `trigger`, `check` and `proxy` have flags of their own; the mock's parser never sees them. Each is loaded only
  // when run: the server's start-up does not pay for them (issue 23).
  const commands = {
    trigger: async () => (await import('./cli/trigger-command.js')).runTrigger,
    check: async () => (await import('./cli/check-command.js')).runCheck,
    proxy: async () => (await import('./cli/proxy-command.js')).runProxy,
  };
  const load = Object.hasOwn(commands, argv[0] ?? '') ? commands[argv[0] as keyof typeof commands] : undefined;
  if (load) {
    const run = await load();
    const write = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(text);
    process.exitCode = await run(argv.slice(1), {
      out: write(process.stdout),
      err: write(process.stderr),
      env: process.env,
    });
    return;
  }
  const options = readMockOptions(argv);
  if (options === 'help') {
    process.stdout.write(MOCK_HELP);
    return;
  }
  let server: MockServer;
  // Set once the server exists; requests cannot arrive before that.
  let log: ((entry: RequestLogEntry) => void) | undefined;
  const { quiet: _quiet, state, fixture, faults, ...serverOpts } = options;
  // A recording's variants (its `variants` key) are start options: merged with --variant before the server is made.
  if (fixture !== undefined) {
    const recorded = readFixtureVariants(fixture);
    if (recorded.length > 0) {
      options.variants = [...new Set([...((options.variants as readonly ProductionVariantName[]) ?? []), ...recorded])];
      serverOpts.variants = options.variants;
    }
  }
  const backend = createBackendCore(serverOpts);
  // --fixture and --state are in place before the first request.
  // Before the state file is locked: a plan that is refused leaves nothing to release. A restored state keeps it.
  const faultNote = faults === undefined ? undefined : armFaultPlan(backend, faults);
  const kept = await applyStartState(backend, { state, fixture });
  try {
    server = await startMockServer({ ...serverOpts, backend, onResponse: (entry) => log?.(entry) });
  } catch (error) {
    kept?.close();
    throw listenError(error, options.host, options.port);
  }
  // Before the banner: a supervisor that stops the server as soon as it reads "listening on" must find the handlers.
  stopOnSignalsAndOrphaning(server, () => kept?.close() ?? true);
  process.stdout.write(
    formatBanner(server, options) +
      (kept?.notes.map((note) => `${note}\n`).join('') ?? '') +
      (faultNote === undefined ? '' : `${faultNote}\n`),
  );
  if (!options.quiet) log = logActivity(server);
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

/** Prints a line per answered request and per delivery attempt, circuit change and dead letter; returns the request logger. */
function logActivity(server: MockServer): (entry: RequestLogEntry) => void {
  const { gateway } = server.backend;
  // One write every 10 ms, not one per line (a write each cost a third of the throughput); flushed at exit.
  const out = new BatchedLineWriter(process.stdout).flushOnExit();
  const print = (line: string) => out.write(`${clockTime()} ${line}\n`);
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

/**
 * Stops the server on Ctrl+C, SIGTERM or SIGHUP, and when the process that started it is gone: `npx`, a shell or a
 * test runner can die without passing a signal on, and a server left running under PID 1 would hold the port.
 */
function stopOnSignalsAndOrphaning(server: MockServer, saveState: () => boolean): void {
  let stoppingSince: number | undefined;
  const stop = (reason: string) => {
    if (stoppingSince !== undefined) {
      // A second Ctrl+C while connections drain exits at once; copies of the first one (the terminal, npm and the
      // launcher each pass it on) arrive within milliseconds and are not a second press.
      if (performance.now() - stoppingSince > 300) {
        process.exit(saveState() ? 130 : 1);
      }
      return;
    }
    stoppingSince = performance.now();
    process.stdout.write(`\n${reason}, stopping.\n`);
    // The state file is written last, with what requests still in flight changed, and before any exit; a write that
    // failed (a full disk, a read-only file system) is an exit code 1, so a script sees the state was not kept.
    const exit = () => process.exit(saveState() ? 0 : 1);
    // Keep-alive connections of busy clients would otherwise hold the close open.
    setTimeout(exit, 2_000).unref();
    server.close().then(exit, exit);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => stop(`${signal} received`));
  // An orphan is re-parented (to PID 1 or a subreaper), so a changed ppid means the parent is gone. A server started
  // already orphaned (ppid 1, e.g. by a daemonizing script) keeps running: its ppid never changes.
  const watch = setInterval(() => {
    if (process.ppid === startedBy) return;
    clearInterval(watch);
    stop('The process that started linkgate mock is gone');
  }, 250);
  watch.unref();
}

// A closed stdout (e.g. piped into `head`) must not crash the server or its shutdown.
process.stdout.on('error', () => {});

main(process.argv.slice(2)).catch((error: unknown) => {
  const usage = error instanceof MockUsageError;
  process.stderr.write(
    `linkgate: ${(error as Error).message}\n${usage ? 'Run "linkgate mock --help" for usage.\n' : ''}`,
  );
  process.exit(usage || error instanceof FaultPlanError ? 2 : 1);
});
