// `linkgate mock` as users run it, one process per exit path: serving until a signal (0), a mistake in the command
// line (2), a port in use (1), the help (0). What each flag does is tested in-process in test/mock/cli/mock-flags.test.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const children: ChildProcess[] = [];
// afterAll, not afterEach: the tests run concurrently, and one test's end must not kill another's process.
afterAll(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts `linkgate <args>` from the sources, as `npm start` does. */
function cli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'mock/cli.ts', ...args], { cwd: root });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  // 'close', not 'exit': it comes after stdout and stderr are read to the end, so out() and err() are complete.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stdout);
        if (match) resolve(match);
      };
      child.stdout.on('data', check);
      exited.then(() => reject(new Error(`exited before printing ${pattern}; stdout: ${stdout} stderr: ${stderr}`)));
      check();
    });
  return { child, exited, printed, out: () => stdout, err: () => stderr };
}

describe.concurrent('linkgate mock, spawned', () => {
  it('prints its URL and keys, serves requests, and exits 0 on SIGTERM', async () => {
    const run = cli(['mock', '--port', '0', '--seed', 'demo', '--admin-key', 'cli-admin-key']);
    const [, url] = await run.printed(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await run.printed(/Stop with Ctrl\+C/);
    expect(run.out()).toMatch(/cli-admin-key\s+\(admin\)/);

    const res = await fetch(`${url}/api/account`, { headers: { authorization: 'Bearer cli-admin-key' } });
    expect(res.status).toBe(200);
    expect((await res.json()).error).toBe(0);
    // The request log line follows each answer unless --quiet.
    await run.printed(/GET \/api\/account 200/);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.out()).toContain('SIGTERM received, stopping.');
  });

  it('refuses a bad flag with exit code 2, naming it and its rule, without a stack trace', async () => {
    const run = cli(['mock', '--port', '70000']);
    expect(await run.exited).toBe(2);
    expect(run.err()).toContain('--port must be a whole number from 0 to 65535');
    expect(run.err()).toContain('Run "linkgate mock --help" for usage.');
    expect(run.err()).not.toMatch(/\n\s+at /);
  });

  it('says when the port is taken, with exit code 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const run = cli(['mock', '--port', String(port)]);
      expect(await run.exited).toBe(1);
      expect(run.err()).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    } finally {
      taken.close();
    }
  });

  it('prints usage with --help and exits 0', async () => {
    const run = cli(['mock', '--help']);
    expect(await run.exited).toBe(0);
    expect(run.out()).toContain('Usage: linkgate mock');
  });
});
