// Worker processes sharing one API key (and one Redis), as the guide to running on many processes starts them: each
// its own `node` process, released together once all are loaded, against the CLI's server.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliServer, type ProgramResult, spawnNode } from '../../e2e/support/processes.js';
import { adapt } from '../../package/support/newcomer-project.js';

/** The mock's log lines of the workers' calls, with the time each was logged (ms since midnight). */
export function loggedCalls(cli: CliServer): number[] {
  return [...cli.out().matchAll(/^(\d\d):(\d\d):(\d\d)\.(\d{3}) GET \/api\/account \d{3} /gm)].map(
    ([, h, m, s, ms]) => ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(ms),
  );
}

/**
 * When each of the server's fixed windows opened, from its log: a window opens at the first call after the last one
 * ended (`windowMs` after it opened), as `linkgate mock` counts them.
 */
export function windowStarts(calls: number[], windowMs: number): number[] {
  const starts: number[] = [];
  for (const at of [...calls].sort((a, b) => a - b)) {
    const last = starts.at(-1);
    if (last === undefined || at >= last + windowMs) starts.push(at);
  }
  return starts;
}

/**
 * Starts each worker program with a start line inserted before `before` (its job): on a loaded machine `node` takes
 * from 2 to 40 s to load a program, so the workers wait until all are loaded and start their calls together.
 */
export function withStartLine(worker: string, before = 'const accounts = '): string {
  return adapt(
    worker,
    before,
    `console.log('ready');
const { existsSync } = await import('node:fs');
while (!existsSync(process.env.GO_FILE!)) await new Promise((resolve) => setTimeout(resolve, 10));
${before}`,
  );
}

/** A worker's run, and when it ended (Date.now()). */
export type WorkerRun = ProgramResult & { endedAt: number };

/**
 * Runs `count` workers (the programs in turn) together with `env`; `during` runs alongside once they have started.
 * Every worker is killed after `killAfterMs`.
 */
export async function runWorkers(
  count: number,
  programs: string[],
  env: Record<string, string>,
  during: () => Promise<void> = async () => {},
  killAfterMs = 150_000,
): Promise<WorkerRun[]> {
  const dir = mkdtempSync(join(tmpdir(), 'linkgate-workers-'));
  const go = join(dir, 'go');
  const workers = Array.from({ length: count }, (_, i) =>
    spawnNode([programs[i % programs.length] as string], { env: { ...env, GO_FILE: go } }),
  );
  const killer = setTimeout(() => {
    for (const worker of workers) worker.child.kill('SIGKILL');
  }, killAfterMs);
  try {
    await Promise.all(workers.map((worker) => worker.printed(/^ready$/m)));
    writeFileSync(go, '');
    const [results] = await Promise.all([
      Promise.all(
        workers.map(async (worker) => {
          const { code, signal, ms } = await worker.exited;
          return { code, signal, ms, stdout: worker.out(), stderr: worker.err(), endedAt: Date.now() };
        }),
      ),
      during(),
    ]);
    return results;
  } finally {
    clearTimeout(killer);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How many of a worker's calls the API answered "rate limited" (its onRateLimit lines ending `(answer)`). */
export const answers = (run: ProgramResult) =>
  run.stdout.split('\n').filter((line) => line.endsWith('(answer)')).length;
