// The end-to-end layer runs what users run, as they run it: the CLI's server and each user program in its own
// `node` process, with nothing of the test runner keeping their event loops alive. Loopback only, bounded in time.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach } from 'vitest';

/** The repository root: programs run from here so `linkgate`, `linkgate/webhooks`, `linkgate/mock` resolve to the sources (tsconfig paths, read by tsx). */
export const root = fileURLToPath(new URL('../../../', import.meta.url));

const children = new Set<ChildProcess>();
afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
});

/** A process started by {@link spawnNode}: its output so far, and promises for what it prints and for its end. */
export interface NodeProcess {
  child: ChildProcess;
  /** Everything printed on stdout so far. */
  out(): string;
  /** Everything printed on stderr so far. */
  err(): string;
  /** Resolves with the first match of `pattern` on stdout; rejects if the process ends first. */
  printed(pattern: RegExp): Promise<RegExpExecArray>;
  /** Resolves when the process has ended and its output is read to the end. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>;
}

/** Starts `node --import tsx <args>` in the repository root; the child is killed after the test if still running. */
export function spawnNode(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): NodeProcess {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: options.cwd ?? root,
    env: { ...process.env, NODE_OPTIONS: '', FORCE_COLOR: '0', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  // 'close', not 'exit': it comes after stdout and stderr are read to the end.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, ms: performance.now() - started })),
  );
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stdout);
        if (match) resolve(match);
      };
      child.stdout?.on('data', check);
      exited.then(() => reject(new Error(`exited before printing ${pattern}\nstdout: ${stdout}\nstderr: ${stderr}`)));
      check();
    });
  return { child, out: () => stdout, err: () => stderr, printed, exited };
}

/** A `linkgate mock` server started by the CLI (from the sources, as `npm start` does). */
export interface CliServer extends NodeProcess {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Sends SIGTERM and waits for the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `linkgate mock --port 0 <args>` and resolves once it prints where it listens. */
export async function startCli(args: string[], options: { env?: Record<string, string> } = {}): Promise<CliServer> {
  const proc = spawnNode(['mock/cli.ts', 'mock', '--port', '0', ...args], options);
  const [, url] = await proc.printed(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
  return {
    ...proc,
    url: url as string,
    async stop() {
      if (proc.child.exitCode === null) proc.child.kill('SIGTERM');
      return (await proc.exited).code;
    },
  };
}

/**
 * Runs `linkgate <args>` from the sources to its end (what `npx linkgate <args>` runs from the build), killed after
 * `timeoutMs`; e.g. `runCli(['trigger', 'message.received', '--to', url, '--secret', secret])`.
 */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<ProgramResult> {
  return runProgram({ file: 'mock/cli.ts' }, { ...options, args });
}

/** The result of a user program run to its end. */
export interface ProgramResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall-clock milliseconds from spawn to exit. */
  ms: number;
}

/**
 * Runs a user program (a file path relative to the root, or TypeScript source written to a temp file inside the
 * repository so its imports resolve) as its own `node` process, and kills it after `timeoutMs`.
 */
export async function runProgram(
  program: { file: string } | { source: string },
  options: { env?: Record<string, string>; timeoutMs?: number; args?: string[] } = {},
): Promise<ProgramResult> {
  const file = 'file' in program ? program.file : writeProgram(program.source);
  const proc = spawnNode([file, ...(options.args ?? [])], options.env ? { env: options.env } : {});
  const killer = setTimeout(() => proc.child.kill('SIGKILL'), options.timeoutMs ?? 90_000);
  const { code, signal, ms } = await proc.exited;
  clearTimeout(killer);
  return { code, signal, stdout: proc.out(), stderr: proc.err(), ms };
}

let programDir: string | undefined;
afterAll(() => {
  if (programDir) rmSync(programDir, { recursive: true, force: true });
});
/** Writes a program into a git-ignored temp folder under test/e2e so tsconfig paths resolve its `linkgate` imports. */
export function writeProgram(source: string): string {
  programDir ??= mkdtempSync(join(root, 'test', 'e2e', '.programs-'));
  const file = join(programDir, `program-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, source);
  return file;
}

/** A program that ends by itself but not in time is a failure with its output attached. */
export function describeRun(result: ProgramResult): string {
  return `exit ${result.code} (signal ${result.signal}) after ${Math.round(result.ms)} ms\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
}
