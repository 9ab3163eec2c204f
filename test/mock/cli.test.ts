import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
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

describe('linkgate mock', () => {
  it('prints its URL and keys, serves requests, and exits 0 on SIGTERM', async () => {
    const run = cli(['mock', '--port', '0', '--seed', 'demo', '--admin-key', 'cli-admin-key']);
    const [, url] = await run.printed(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await run.printed(/Stop with Ctrl\+C/);
    expect(run.out()).toMatch(/cli-admin-key\s+\(admin\)/);

    const res = await fetch(`${url}/api/account`, { headers: { authorization: 'Bearer cli-admin-key' } });
    expect(res.status).toBe(200);
    expect((await res.json()).error).toBe(0);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('gives the default tenant a key and online devices with --messaging-key and --device, so sends work at once', async () => {
    const key = `gw_live_${'c'.repeat(24)}`;
    const run = cli(['mock', '--port', '0', '--messaging-key', key, '--device', 'phone-1', '--device', 'phone-2']);
    const [, url] = await run.printed(/listening on (\S+)/);
    await run.printed(/Online devices \(tenant "default"\): phone-1, phone-2/);
    const res = await fetch(`${url}/api/v1/wa/messages/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ device_id: 'auto', phone: '15551234567', message: 'hi' }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data.device_id).toBe('phone-1');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('turns the rate limit off with --rate-limit off', async () => {
    const run = cli(['mock', '--port', '0', '--seed', 'empty', '--rate-limit', 'off', '--admin-key', 'k-off']);
    const [, url] = await run.printed(/listening on (\S+)/);
    expect(run.out()).toContain('rate limit: off');
    const res = await fetch(`${url}/api/account`, { headers: { authorization: 'Bearer k-off' } });
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
  });

  it('moves time only through the control API with --clock manual, so a rate window resets on demand', async () => {
    const run = cli(['mock', '--port', '0', '--seed', 'empty', '--clock', 'manual', '--rate-limit', '2/60s']);
    const [, url] = await run.printed(/listening on (\S+)/);
    await run.printed(/token (ctl_\w+)/);
    const key = /admin\s+(\S+)\s+\(admin\)/.exec(run.out())![1]!;
    const token = /token (ctl_\w+)/.exec(run.out())![1]!;
    expect(run.out()).toContain('clock: manual');
    const account = () =>
      fetch(`${url}/api/account`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.json());
    await account();
    await account();
    expect((await account()).error).toBe(429); // the window is spent and real time does not move it
    const advanced = await fetch(`${url}/__mock/clock/advance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ms: 60_000 }),
    });
    expect(advanced.status).toBe(200);
    expect((await account()).error).toBe(0);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('reproduces the production variants named by --variant (comma-separated, repeatable)', async () => {
    const run = cli([
      'mock',
      '--port',
      '0',
      '--seed',
      'demo',
      '--admin-key',
      'k-variant',
      '--variant',
      'overlayCollection,stringIds',
      '--variant',
      'negativeRemaining',
      '--rate-limit',
      '1/60s',
    ]);
    const [, url] = await run.printed(/listening on (\S+)/);
    await run.printed(/Stop with Ctrl\+C/);
    expect(run.out()).toContain('production variants: overlayCollection, stringIds, negativeRemaining');
    const headers = { authorization: 'Bearer k-variant', 'content-type': 'application/json' };
    const created = await fetch(`${url}/api/domain/add`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ domain: 'https://cli-variant.example' }),
    });
    expect((await created.json()).id).toEqual(expect.stringMatching(/^\d+$/));
    const limited = await fetch(`${url}/api/overlay`, { headers });
    expect((await limited.json()).error).toBe(429);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('-1');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('answers GET /api/overlay under "overlay" with --variant overlayCollection', async () => {
    const run = cli([
      'mock',
      '--port',
      '0',
      '--seed',
      'demo',
      '--admin-key',
      'k-overlay',
      '--variant',
      'overlayCollection',
    ]);
    const [, url] = await run.printed(/listening on (\S+)/);
    const res = await fetch(`${url}/api/overlay`, { headers: { authorization: 'Bearer k-overlay' } });
    const body = await res.json();
    expect(body.data).toHaveProperty('overlay');
    expect(body.data).not.toHaveProperty('cta');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  });

  it('rejects an unknown flag with exit code 2, naming it, without a stack trace', async () => {
    const run = cli(['mock', '--prot', '4010']);
    expect(await run.exited).toBe(2);
    expect(run.err()).toContain('Unknown option --prot');
    expect(run.err()).toContain('--port');
    expect(run.err()).not.toMatch(/\n\s+at /);
  });

  it('rejects a bad flag value with exit code 2, naming the flag and its rule', async () => {
    const bad = [
      [['mock', '--port', '70000'], '--port must be a whole number from 0 to 65535'],
      [['mock', '--rate-limit', '30/min'], '--rate-limit must be <requests>/<seconds>s'],
      [['mock', '--clock', 'fake'], '--clock must be "real" or "manual"'],
      [
        ['mock', '--variant', 'stringIds,overlays'],
        '--variant "overlays" is not a known variant; the variants are overlayCollection, stringIds, negativeRemaining, perAttemptDeliveryIds.',
      ],
      [['mock', '--variant', ''], '--variant got an empty name; the variants are overlayCollection'],
      [['mock', '--device', 'my phone'], '--device "my phone": a device id must be 1-64 letters, digits'],
      [['mock', '--device', 'auto'], '--device "auto": a device id must not be "auto"'],
      [['mock', '--device', 'p1', '--device', 'p1'], '--device "p1": a device id is already taken by another device.'],
    ] as const;
    for (const [args, message] of bad) {
      const run = cli([...args]);
      expect(await run.exited).toBe(2);
      expect(run.err()).toContain(message);
    }
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
    expect(run.out()).toContain('--variant <names>');
    expect(run.out()).toContain('--quiet');
    // The inspector page is found from the help too, not only from the banner of a running server.
    expect(run.out()).toMatch(/Inspector: .*http:\/\/<host>:<port>\/#token=<control token>/);
    expect(run.out()).toContain('live page of the data, deliveries, circuits, dead letters and pairing');
    // The rule --control-token is checked against is stated where the flag is described.
    expect(run.out()).toMatch(
      /--control-token <t>\s+token of the \/__mock\/ control API: 8 or more\s+characters, no spaces/,
    );
  });

  it('refuses a --control-token shorter than 8 characters, saying the rule', async () => {
    const run = cli(['mock', '--port', '0', '--control-token', 'short']);
    expect(await run.exited).toBe(2);
    expect(run.err()).toContain('--control-token must be at least 8 characters without spaces');
  });
});
