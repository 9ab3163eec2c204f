// Runs any program (python3, a nested vitest) to its end in its own process, bounded in time: for the tests that drive
// a client other than a node script of the repository.
import { spawn } from 'node:child_process';

/** What a command printed (stdout and stderr in the order they came) and how it ended. */
export interface CommandResult {
  code: number | null;
  out: string;
}

/** Runs `command args` in `cwd`, killed after `timeoutMs`; `env` adds to the test's environment. */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs?: number },
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, out });
    });
  });
}
