// A real redis-server for the tests and the reliability suite: on a free loopback port, without persistence, stopped by
// its pid. No vitest here, so `npm run reliability` can start one too; tests go through redis-server.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { delimiter, join } from 'node:path';

/** The server binary: `REDIS_SERVER`, else the first `redis-server` on PATH (`apt-get install redis-server`, as `.ci/run` does). */
export const REDIS_SERVER_BINARY =
  process.env.REDIS_SERVER ??
  (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'redis-server'))
    .find((file) => existsSync(file)) ??
  '/usr/bin/redis-server';

/** Null when redis-server can run here; otherwise why the tests that need it are skipped. */
export const redisMissing: string | null = existsSync(REDIS_SERVER_BINARY)
  ? null
  : `${REDIS_SERVER_BINARY} does not exist (apt-get install -y redis-server, or set REDIS_SERVER)`;

/** A running redis-server started by {@link startRedisServer}. */
export interface RedisServer {
  port: number;
  /** `redis://127.0.0.1:<port>` */
  url: string;
  /** The server's pid, or null while stopped. */
  pid(): number | null;
  /** Stops the server (SIGTERM, or SIGKILL for a crash) and waits until it has exited. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /**
   * Starts it again on the same port, empty (no persistence), and waits until it answers PING and the clients of
   * `connectClient` have reconnected (a store refuses to queue commands on a client that is reconnecting).
   */
  restart(): Promise<void>;
}

const running = new Set<ChildProcess>();
/** What must happen after a restart before it counts as done (clients reconnecting), per port. */
const afterRestart = new Map<number, Set<() => Promise<unknown>>>();

/** Runs `wait` after each restart of the server at `url` before `restart()` resolves; returns how to stop. */
export function waitAfterRestart(url: string, wait: () => Promise<unknown>): () => void {
  const port = Number(new URL(url).port);
  const waits = afterRestart.get(port) ?? new Set();
  afterRestart.set(port, waits.add(wait));
  return () => waits.delete(wait);
}
// A test that crashes before its afterAll must not leave a server behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts redis-server on a free loopback port with no persistence and resolves once it answers PING. */
export async function startRedisServer(): Promise<RedisServer> {
  let child: ChildProcess | null = null;
  let port = 0;
  for (let attempt = 1; child === null; attempt++) {
    port = await freePort();
    try {
      child = await launch(port);
    } catch (error) {
      // Another process may take the port between our probe and the server's bind: try another.
      if (attempt >= 3) throw error;
    }
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    pid: () => child?.pid ?? null,
    async stop(signal = 'SIGTERM') {
      if (child) await kill(child, signal);
      child = null;
    },
    async restart() {
      if (child) await kill(child, 'SIGTERM');
      child = await launch(port);
      await Promise.all([...(afterRestart.get(port) ?? [])].map((wait) => wait()));
    },
  };
}

async function launch(port: number): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER_BINARY,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  running.add(child);
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const deadline = Date.now() + 30_000; // well under a second on a quiet machine; a loaded one is slower
  while (!(await answersPing(port))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await kill(child, 'SIGKILL');
      throw new Error(`redis-server on port ${port} did not answer PING (exit ${child.exitCode}): ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return child;
}

async function kill(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    const escalate = setTimeout(() => child.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(escalate);
  }
  running.delete(child);
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
