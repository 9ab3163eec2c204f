// `npm start` runs the mock through scripts/with-node.mjs; stopping the launcher must stop the server it started.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { root } from './support/processes.js';

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone, as it should be.
    }
  }
});

/** Whether a process with this id still runs; a zombie (exited, not yet reaped by the PID 1 it was orphaned to) does not. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat[stat.lastIndexOf(')') + 2] !== 'Z';
  } catch {
    return false;
  }
}

/** Whether something still accepts connections on the URL's port. */
function listening(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The ids of a process's descendants (Linux: /proc lists each task's children). */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** The server's process among the launcher's descendants: the one running mock/cli.ts itself. */
function serverPid(launcher: number): number {
  const pid = descendants(launcher).find((id) => {
    const cmdline = readFileSync(`/proc/${id}/cmdline`, 'utf8').split('\0');
    return cmdline.includes('mock/cli.ts') && !cmdline.includes('scripts/with-node.mjs');
  });
  if (pid === undefined) throw new Error('the server process was not found under the launcher');
  return pid;
}

const LAUNCHERS = {
  'scripts/with-node.mjs': [
    process.execPath,
    ['scripts/with-node.mjs', 'node', '--import', 'tsx', 'mock/cli.ts', 'mock', '--port', '0'],
  ],
  // npm runs the script under `sh -c`, which dies of SIGTERM without passing it on.
  'npm start': ['npm', ['start', '--', '--port', '0']],
} as const;

/** Spawns `command` from the root and collects its stdout; `url` resolves once the server under it says where it listens. */
function spawnServerVia(command: string, args: readonly string[]) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child.pid!);
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', () => reject(new Error(`${command} exited before the server listened: ${out}`)));
  });
  return { child, url, out: () => out };
}

/** Starts the server through a launcher, and resolves with the server's pid and URL once it listens. */
async function launch(how: keyof typeof LAUNCHERS) {
  const [command, args] = LAUNCHERS[how];
  const { child: launcher, url: listens, out } = spawnServerVia(command, args);
  const exited = new Promise<{ code: number | null; ms: number }>((resolve) => {
    launcher.on('close', (code) => resolve({ code, ms: performance.now() - stoppedAt }));
  });
  let stoppedAt = 0;
  const url = await listens;
  const launched = descendants(launcher.pid!);
  started.push(...launched);
  const server = serverPid(launcher.pid!);
  return {
    url,
    server,
    launcher: launcher.pid!,
    output: out,
    stop(signal: NodeJS.Signals) {
      stoppedAt = performance.now();
      launcher.kill(signal);
      return exited;
    },
  };
}

describe('scripts/with-node.mjs (npm start)', () => {
  const cases = [
    ['scripts/with-node.mjs', 'SIGTERM'],
    ['scripts/with-node.mjs', 'SIGINT'],
    ['scripts/with-node.mjs', 'SIGHUP'],
    ['npm start', 'SIGTERM'],
  ] as const;
  for (const [how, signal] of cases) {
    it(`${how}: ${signal} stops the server it started, and no process is left behind`, async () => {
      const run = await launch(how);
      const launched = descendants(run.launcher);
      expect(alive(run.server)).toBe(true);
      const res = await fetch(`${run.url}/openapi.json`);
      expect(res.status).toBe(200);

      const { code, ms } = await run.stop(signal);
      // npm reports a script stopped by a signal as a failure; the launcher itself passes on the server's code.
      if (how === 'scripts/with-node.mjs') expect(code).toBe(0);
      expect(run.output()).toContain(`${signal} received, stopping.`);
      expect(ms).toBeLessThan(15_000); // it drains for at most 2 s; the rest is slack for a loaded machine
      // Bounded wait for an orphaned launcher to notice (it checks four times a second); 10 s for a loaded machine.
      for (let i = 0; i < 100 && launched.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
      expect(launched.filter(alive)).toEqual([]);
      expect(await listening(run.url)).toBe(false);
    });
  }
});

// `npx linkgate mock` is the CLI under a parent that may die without passing a signal on (SIGTERM to npx, a closed
// terminal's shell, a killed test runner): the CLI then finds itself reparented and stops, so the port is free again.
describe('linkgate mock under a parent that goes away (npx, a shell)', () => {
  // The parent, like npx: starts the CLI with the same stdout and stderr, and dies of a signal without passing it on.
  const PARENT = `require('node:child_process').spawn(process.execPath, ['--import', 'tsx', 'mock/cli.ts', 'mock', '--port', '0'], { stdio: 'inherit' });`;
  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`${signal} to the parent: the CLI stops within seconds and its port is free`, async () => {
      const { child: parent, url: listens, out } = spawnServerVia(process.execPath, ['-e', PARENT]);
      // The CLI writes into the same pipe: it closes only when the CLI has exited too.
      const closed = new Promise<number>((resolve) => parent.stdout.on('close', () => resolve(performance.now())));
      const url = await listens;
      const [cli] = descendants(parent.pid!);
      expect(cli).toBeDefined();
      started.push(cli!);
      expect(await listening(url)).toBe(true);

      const killedAt = performance.now();
      parent.kill(signal);
      // Generous bound: the CLI checks its parent four times a second, then drains connections for at most 2 s.
      const closedAt = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 15_000))]);
      expect(closedAt, `the CLI still runs 15 s after its parent died; output:\n${out()}`).not.toBe(-1);
      expect(out()).toContain('The process that started linkgate mock is gone, stopping.');
      // Its pipe closes while the process is still tearing down: a bounded wait for /proc to say it is gone.
      for (let i = 0; i < 50 && alive(cli!); i++) await new Promise((r) => setTimeout(r, 100));
      expect(alive(cli!)).toBe(false);
      expect(await listening(url)).toBe(false);
      expect(closedAt - killedAt).toBeLessThan(10_000);
    });
  }
});
