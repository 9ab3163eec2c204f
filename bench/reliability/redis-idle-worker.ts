// Issue #31.12's arrangement, run as users run it: six worker processes share one budget through Redis (a
// RedisRateLimitStore each) against `linkgate mock --rate-limit 30/6s`; one of them, on ioredis, sends 3 calls in the
// first window, then idles until redis-server is killed partway into a window the others are spending, and goes on
// alone. Shared by the reliability suite's Redis part and test/redis/redis-rate-budget-idle-worker.test.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RedisServer } from '../../test/redis/support/redis-process.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ADMIN_KEY = 'redis-rate-budget-idle-worker-01';
/** The mock's limit and window. */
export const IDLE_ARRANGEMENT = { limit: 30, windowMs: 6_000, busyCalls: 20, firstCalls: 3, idleCalls: 6 };
const { limit, windowMs, busyCalls, firstCalls, idleCalls } = IDLE_ARRANGEMENT;

/**
 * A worker as the guide writes one, on node-redis or (LIBRARY=ioredis) ioredis. `ROLE=idle` sends its first calls
 * with the others, then waits for Redis to die and sends the rest.
 */
const WORKER = `
import { existsSync } from 'node:fs';
import { Linkgate } from 'linkgate';
import { RedisRateLimitStore } from 'linkgate/redis';

const redis =
  process.env.LIBRARY === 'ioredis'
    ? new (await import('ioredis')).Redis(process.env.REDIS_URL).on('error', () => {})
    : await (await import('redis')).createClient({ url: process.env.REDIS_URL }).on('error', () => {}).connect();
const client = new Linkgate({
  rateLimitStore: new RedisRateLimitStore({ client: redis, timeoutMs: 10_000 }),
  onRateLimit: (e) => console.log(\`held \${e.waitMs} ms (\${e.reason})\`),
});
const until = async (file) => {
  while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 10));
};
const idle = process.env.ROLE === 'idle';
console.log('ready');
await until(process.env.GO_FILE);
const calls = (n) => Promise.all(Array.from({ length: n }, () => client.account.get()));
let done = 0;
if (idle) {
  done += (await calls(${firstCalls})).length;
  await until(process.env.KILLED_FILE);
}
done += (await calls(idle ? ${idleCalls} : ${busyCalls})).length;
console.log(\`done \${done}\`);
// Redis is dead: nothing to close gracefully.
process.exit(0);
`;

/** One worker's end: exit code, output, and how many calls the API answered "rate limited". */
export interface IdleArrangementWorker {
  code: number | null;
  stdout: string;
  stderr: string;
  answers: number;
}

/** What the run gave: each worker (the idle one first), the calls the mock logged per window, all calls logged. */
export interface IdleArrangementRun {
  workers: IdleArrangementWorker[];
  perWindow: number[];
  calls: number;
  /** Calls the workers made: each answered once if nothing was refused. */
  expectedCalls: number;
  ms: number;
}

interface Child {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

function start(args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '', FORCE_COLOR: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => {
    stdout += d;
  });
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => stdout, err: () => stderr, exited };
}

async function until(check: () => boolean, what: string, child: Child, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (child.child.exitCode !== null || performance.now() > deadline) {
      throw new Error(`${what} did not happen: ${child.out().slice(-500)}${child.err().slice(-500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The mock's log lines of the calls, with the time each was logged (ms since midnight). */
function loggedCalls(log: string): number[] {
  return [...log.matchAll(/^(\d\d):(\d\d):(\d\d)\.(\d{3}) GET \/api\/account \d{3} /gm)].map(
    ([, h, m, s, ms]) => ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(ms),
  );
}

/** How many calls fell in each of the server's fixed windows (one opens at the first call after the last ended). */
function callsPerWindow(calls: number[]): number[] {
  const starts: number[] = [];
  for (const at of [...calls].sort((a, b) => a - b)) {
    const last = starts.at(-1);
    if (last === undefined || at >= last + windowMs) starts.push(at);
  }
  return starts.map((at, i) => calls.filter((c) => c >= at && c < (starts[i + 1] ?? Infinity)).length);
}

/** Runs the arrangement on `redis` (killed with SIGKILL during the run, left dead); every process ends by the end. */
export async function idleWorkerAfterRedisDies(redis: Pick<RedisServer, 'url' | 'stop'>): Promise<IdleArrangementRun> {
  const started = performance.now();
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(root, '.tmp', 'idle-worker-'));
  const program = join(dir, 'worker.ts');
  writeFileSync(program, WORKER);
  const go = join(dir, 'go');
  const killed = join(dir, 'killed');
  const children: Child[] = [];
  try {
    const cli = start(
      [
        'mock/cli.ts',
        'mock',
        '--port',
        '0',
        '--rate-limit',
        `${limit}/${windowMs / 1000}s`,
        '--seed',
        'empty',
        '--admin-key',
        ADMIN_KEY,
      ],
      {},
    );
    children.push(cli);
    await until(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(cli.out()), 'linkgate mock listening', cli);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(cli.out())![1]!;
    const env = {
      LINKGATE_BASE_URL: url,
      LINKGATE_API_KEY: ADMIN_KEY,
      REDIS_URL: redis.url,
      GO_FILE: go,
      KILLED_FILE: killed,
    };
    const workers = Array.from({ length: 6 }, (_, i) =>
      start([program], i === 0 ? { ...env, ROLE: 'idle', LIBRARY: 'ioredis' } : env),
    );
    children.push(...workers);
    // On a loaded machine `node` takes seconds to load a program: all start their calls together once loaded.
    for (const worker of workers) await until(() => /^ready$/m.test(worker.out()), 'a worker loaded', worker, 120_000);
    writeFileSync(go, '');
    // Two windows spent through Redis, and half of the third: the kill finds the server's window half spent.
    await until(() => loggedCalls(cli.out()).length >= 2 * limit + limit / 2, 'two and a half windows', cli);
    await redis.stop('SIGKILL');
    writeFileSync(killed, '');
    const codes = await Promise.race([
      Promise.all(workers.map((worker) => worker.exited)),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 120_000)),
    ]);
    const calls = loggedCalls(cli.out());
    return {
      workers: workers.map((worker, i) => ({
        code: codes?.[i] ?? null,
        stdout: worker.out(),
        stderr: worker.err(),
        answers: worker
          .out()
          .split('\n')
          .filter((line) => line.endsWith('(answer)')).length,
      })),
      perWindow: callsPerWindow(calls),
      calls: calls.length,
      expectedCalls: firstCalls + idleCalls + 5 * busyCalls,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  }
}
