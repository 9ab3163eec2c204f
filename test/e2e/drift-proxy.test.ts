// `linkgate proxy` as users run it: the CLI in its own process between real clients (raw node:http, the SDK in a
// program of its own) and real upstreams (linkgate mock, a drifting server, a streaming one, a dead port). Asserts the
// bytes forwarded, the findings (side, path) on the console and in the NDJSON report, exit codes, and no key anywhere.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DRIFTING_KEY, LEAKED_TOKEN, startDriftingServer } from '../drift/support/drifting-server.js';
import { mockWithRecording } from '../drift/support/recording-target.js';
import { closedPort } from '../support/closed-port.js';
import {
  describeRun,
  type NodeProcess,
  runCli,
  runProgram,
  spawnNode,
  startCli,
  writeProgram,
} from './support/processes.js';

const ADMIN_KEY = 'drift-proxy-admin-key-0123';
const dir = mkdtempSync(join(tmpdir(), 'linkgate-proxy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `linkgate proxy --port 0 <args>` and resolves with its URL once it listens. */
async function startProxy(args: string[]): Promise<NodeProcess & { url: string }> {
  const proc = spawnNode(['mock/cli.ts', 'proxy', '--port', '0', ...args]);
  const [, url] = await proc.printed(/linkgate proxy listening on (http:\/\/127\.0\.0\.1:\d+)/);
  return { ...proc, url: url as string };
}

/** One raw exchange: status, headers as sent (names and order), body bytes, and when the first body byte came. */
function raw(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
  body?: string,
): Promise<{ status: number; headers: string[]; body: Buffer; firstByteMs: number; endMs: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      let firstByteMs = -1;
      res.on('data', (c: Buffer) => {
        if (firstByteMs < 0) firstByteMs = performance.now() - started;
        chunks.push(c);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.rawHeaders,
          body: Buffer.concat(chunks),
          firstByteMs,
          endMs: performance.now() - started,
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Headers that differ between two answers by nature (time, the rate window's count, the connection). */
const stable = (headers: string[]) =>
  headers
    .map((h, i) => (i % 2 === 0 ? `${h}: ${headers[i + 1]}` : undefined))
    .filter((h): h is string => h !== undefined && !/^(date|x-ratelimit-remaining|connection|keep-alive):/i.test(h));

describe('linkgate proxy forwards', { timeout: 120_000 }, () => {
  it('every answer unchanged: status, header names and order, and bytes (JSON, a PNG, a create), and reports nothing on the mock', async () => {
    const mock = await startCli(['--admin-key', ADMIN_KEY, '--quiet']);
    const proxy = await startProxy(['--upstream', mock.url]);
    const auth = { Authorization: `Bearer ${ADMIN_KEY}` };
    for (const path of ['/api/domains', '/api/account', '/openapi.json', '/api/users/none']) {
      const [direct, proxied] = [await raw(mock.url, path, auth), await raw(proxy.url, path, auth)];
      expect(proxied.status).toBe(direct.status);
      expect(stable(proxied.headers)).toEqual(stable(direct.headers));
      expect(proxied.body.equals(direct.body)).toBe(true);
    }
    const created = await raw(
      proxy.url,
      '/api/pixel/add',
      { ...auth, 'Content-Type': 'application/json' },
      'POST',
      JSON.stringify({ type: 'gapixel', name: 'Through the proxy', tag: 'G-PROXY1' }),
    );
    const { id } = JSON.parse(created.body.toString()) as { id: number };
    const list = await raw(mock.url, '/api/pixels', auth);
    expect(list.body.toString()).toContain(`"id":${id}`);
    const qr = JSON.parse(
      (
        await raw(
          mock.url,
          '/api/qr/add',
          { ...auth, 'Content-Type': 'application/json' },
          'POST',
          JSON.stringify({ type: 'text', data: 'png' }),
        )
      ).body.toString(),
    ) as { link: string };
    const image = new URL(qr.link).pathname;
    const [pngDirect, pngProxied] = [await raw(mock.url, image), await raw(proxy.url, image)];
    expect(pngProxied.body.subarray(1, 4).toString()).toBe('PNG');
    expect(pngProxied.body.equals(pngDirect.body)).toBe(true);

    proxy.child.kill('SIGTERM');
    const { code } = await proxy.exited;
    expect(code, proxy.out() + proxy.err()).toBe(0);
    // `/api/users/none` is no operation of the table: the one finding, on the request side.
    expect(proxy.out().match(/drift /g)).toHaveLength(1);
    expect(proxy.out()).toContain('drift request unknown GET /api/users/none');
    expect(proxy.out()).toMatch(/pixels\.create\s+1\s+1\s+none/);
    expect(proxy.out() + proxy.err()).not.toContain(ADMIN_KEY);
  });

  it('streams: the first bytes of a slow answer reach the client before the upstream has finished', async () => {
    const upstream = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('first part\n');
      setTimeout(() => res.end('second part\n'), 3_000);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const proxy = await startProxy(['--upstream', `http://127.0.0.1:${(upstream.address() as { port: number }).port}`]);
    try {
      const answer = await raw(proxy.url, '/stream');
      expect(answer.body.toString()).toBe('first part\nsecond part\n');
      // The first part comes at once; the whole answer only after the upstream's 3 s pause.
      expect(answer.endMs).toBeGreaterThanOrEqual(2_900);
      expect(answer.endMs - answer.firstByteMs).toBeGreaterThan(1_500);
    } finally {
      upstream.close();
    }
  });

  it('waits for a slow upstream, and answers 502 with a sentence when the upstream is dead', async () => {
    const slow = await startDriftingServer('slow');
    const port = await closedPort();
    const [toSlow, toDead] = await Promise.all([
      startProxy(['--upstream', slow.url]),
      startProxy(['--upstream', `http://127.0.0.1:${port}`]),
    ]);
    try {
      const answer = await raw(toSlow.url, '/api/pixels', { Authorization: `Bearer ${DRIFTING_KEY}` });
      expect(answer.status).toBe(200);
      expect(answer.endMs).toBeGreaterThanOrEqual(2_900);
      const dead = await raw(toDead.url, '/api/account', { Authorization: `Bearer ${DRIFTING_KEY}` });
      expect(dead.status).toBe(502);
      expect(JSON.parse(dead.body.toString()).message).toBe(
        `linkgate proxy: the upstream http://127.0.0.1:${port} could not be reached (ECONNREFUSED).`,
      );
      await toDead.printed(
        /upstream GET \/api\/account: http:\/\/127\.0\.0\.1:\d+ could not be reached \(ECONNREFUSED\)/,
      );
    } finally {
      await slow.close();
    }
  });
});

describe('linkgate proxy with a 10 MB answer', { timeout: 120_000 }, () => {
  it('forwards it whole and reports it as too large to check', async () => {
    const huge = await startDriftingServer('huge');
    const proxy = await startProxy(['--upstream', huge.url]);
    try {
      const answer = await raw(proxy.url, '/api/account', { Authorization: `Bearer ${DRIFTING_KEY}` });
      expect(answer.body.length).toBe(10 * 1_048_576 + 2);
      await proxy.printed(
        /drift response account\.get GET \/api\/account \(body\): expected an answer the checker can read, seen too large to check/,
      );
    } finally {
      await huge.close();
    }
  });
});

/** `linkgate proxy --upstream <url> --port 0 <flags> -- node --import tsx <program>`, run to its end. */
const proxyRun = (upstream: string, flags: string[], program: string, env: Record<string, string> = {}) =>
  runCli(
    ['proxy', '--upstream', upstream, '--port', '0', ...flags, '--', process.execPath, '--import', 'tsx', program],
    {
      env,
      timeoutMs: 60_000,
    },
  );

const CLIENT_PROGRAM = `
const base = process.env.LINKGATE_BASE_URL;
const headers = { Authorization: 'Bearer ${DRIFTING_KEY}' };
for (const path of ['/api/account', '/api/domains', '/api/splash', '/api/overlay']) {
  const answer = await fetch(base + path, { headers });
  console.log(path, answer.status);
}
await fetch(base + '/api/pixel/add', { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ type: 'gtmpixel', name: 'x' }) });
process.exitCode = Number(process.env.EXIT_WITH ?? 0);
`;

describe('linkgate proxy -- <command>', { timeout: 120_000 }, () => {
  it('runs the command through the proxy, prints one line per finding with its side, writes the NDJSON report, and exits 1 with --fail-on-drift', async () => {
    const server = await startDriftingServer('drift');
    const program = writeProgram(CLIENT_PROGRAM);
    const report = join(dir, 'drift.ndjson');
    try {
      const run = await proxyRun(server.url, ['--report', report, '--fail-on-drift'], program);
      expect(run.code, describeRun(run)).toBe(1);
      expect(run.stdout).toContain('/api/account 200');
      expect(run.stderr).toContain(
        'drift response account.get GET /api/account data.registered: expected a date in the form YYYY-MM-DD HH:MM:SS, seen absent',
      );
      expect(run.stderr).toContain(
        'drift response domains.list GET /api/domains data.domains[0].id: tolerated by linkgate, differs from the API: expected an integer, seen "12"',
      );
      expect(run.stderr).toContain(
        'drift response overlays.list GET /api/overlay header X-RateLimit-Remaining: expected present, seen absent',
      );
      expect(run.stderr).toContain(
        'drift request pixels.create POST /api/pixel/add tag: expected a string, seen absent',
      );
      expect(run.stderr).toContain('linkgate proxy summary');
      const lines = readFileSync(report, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.at(-1)).toMatchObject({ type: 'summary', ok: false });
      expect(lines).toContainEqual(
        expect.objectContaining({
          type: 'finding',
          side: 'response',
          operation: 'splash.list',
          field: 'status',
          seen: 'HTTP 201',
        }),
      );
      expect(lines).toContainEqual(
        expect.objectContaining({ type: 'finding', side: 'response', field: 'data.api_token', seen: '[hidden]' }),
      );
      const everything = run.stdout + run.stderr + readFileSync(report, 'utf8');
      expect(everything).not.toContain(DRIFTING_KEY);
      expect(everything).not.toContain(LEAKED_TOKEN);
    } finally {
      await server.close();
    }
  });

  it("exits with the command's own status, and 0 on drift without --fail-on-drift; --ignore silences a field", async () => {
    const server = await startDriftingServer('drift');
    const program = writeProgram(CLIENT_PROGRAM);
    try {
      const [failing, tolerated] = await Promise.all([
        proxyRun(server.url, ['--fail-on-drift'], program, { EXIT_WITH: '3' }),
        proxyRun(server.url, ['--ignore', 'domains.list:data.domains[].id'], program),
      ]);
      expect(failing.code, describeRun(failing)).toBe(3);
      expect(tolerated.code, describeRun(tolerated)).toBe(0);
      expect(tolerated.stderr).toContain('data.registered');
      expect(tolerated.stderr).not.toContain('data.domains[0].id');
    } finally {
      await server.close();
    }
  });

  it('passes SIGTERM on to the command, then prints its summary and exits with the status the signal gave', async () => {
    const mock = await startCli(['--admin-key', ADMIN_KEY, '--quiet']);
    const waiting = writeProgram(`
await fetch(process.env.LINKGATE_BASE_URL + '/api/account', { headers: { Authorization: 'Bearer ${ADMIN_KEY}' } });
console.log('called, now waiting');
setTimeout(() => {}, 60_000);
`);
    const proxy = spawnNode([
      'mock/cli.ts',
      'proxy',
      '--upstream',
      mock.url,
      '--port',
      '0',
      '--',
      process.execPath,
      '--import',
      'tsx',
      waiting,
    ]);
    await proxy.printed(/called, now waiting/);
    proxy.child.kill('SIGTERM');
    const { code } = await proxy.exited;
    expect(code, proxy.out() + proxy.err()).toBe(143);
    expect(proxy.err()).toMatch(
      /linkgate proxy summary\noperation\s+calls\s+matched\s+differences\naccount\.get\s+1\s+1\s+none/,
    );
  });

  it('records what the SDK read (--record) as a fixture the mock loads, and the SDK reads it back from the mock', async () => {
    const source = await startCli(['--admin-key', ADMIN_KEY, '--quiet']);
    const alice = /^ {4}alice\s+(\S+)/m.exec(source.out())?.[1] as string;
    const recording = join(dir, 'recorded.json');
    const reader = writeProgram(`
import { Linkgate } from 'linkgate';
const client = new Linkgate();
const [domains, pixels, qrs] = [await client.domains.list().toArray(), await client.pixels.list().toArray(), await client.qr.list().toArray()];
console.log(JSON.stringify({ account: (await client.account.get()).username, domains: domains.map((d) => d.domain).sort(), pixels: pixels.map((p) => p.tag).sort(), qrs: qrs.length }));
`);
    const through = await proxyRun(source.url, ['--record', recording], reader, { LINKGATE_API_KEY: alice });
    expect(through.code, describeRun(through)).toBe(0);
    const text = readFileSync(recording, 'utf8');
    expect(text).not.toContain(alice);
    expect(through.stdout + through.stderr).not.toContain(alice);

    const target = await mockWithRecording(text);
    const again = await runProgram(
      { file: reader },
      {
        env: { LINKGATE_BASE_URL: target.url, LINKGATE_API_KEY: target.keys.alice as string },
        timeoutMs: 60_000,
      },
    );
    expect(again.code, describeRun(again)).toBe(0);
    // What the SDK read from the deployment, it reads the same from the mock loaded with the recording.
    const firstLine = (out: string) => out.split('\n').find((l) => l.startsWith('{')) as string;
    expect(JSON.parse(firstLine(again.stdout))).toEqual(JSON.parse(firstLine(through.stdout)));
  });
});

/** `linkgate proxy --upstream <url> --port 0 -- <command>`, started in its own process. */
const proxyWith = (upstream: string, command: string[]) =>
  spawnNode(['mock/cli.ts', 'proxy', '--upstream', upstream, '--port', '0', '--', ...command]);

/** True while a process of that pid runs. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('linkgate proxy -- <command> ends as the command ends', { timeout: 120_000 }, () => {
  it('exits 137 for a command killed by SIGKILL and 139 for one killed by SIGSEGV, as a shell does', async () => {
    const mock = await startCli(['--admin-key', ADMIN_KEY, '--quiet']);
    const [killed, segv] = [
      proxyWith(mock.url, ['sh', '-c', 'kill -KILL $$']),
      proxyWith(mock.url, ['sh', '-c', 'kill -SEGV $$']),
    ];
    const [k, s] = await Promise.all([killed.exited, segv.exited]);
    expect(k.code, killed.err()).toBe(137);
    expect(s.code, segv.err()).toBe(139);
    expect(killed.err()).toContain('linkgate proxy summary');
  });

  it('on SIGHUP passes it on to the command, prints its summary and ends, leaving no command running', async () => {
    const mock = await startCli(['--admin-key', ADMIN_KEY, '--quiet']);
    const waiting = writeProgram(`
await fetch(process.env.LINKGATE_BASE_URL + '/api/account', { headers: { Authorization: 'Bearer ${ADMIN_KEY}' } });
console.log('pid', process.pid);
setTimeout(() => {}, 60_000);
`);
    const proxy = proxyWith(mock.url, [process.execPath, '--import', 'tsx', waiting]);
    const [, pid] = await proxy.printed(/pid (\d+)/);
    proxy.child.kill('SIGHUP');
    const { code } = await proxy.exited;
    expect(code, proxy.err()).toBe(129);
    expect(proxy.err()).toMatch(/linkgate proxy summary\noperation\s+calls\s+matched\s+differences\naccount\.get\s+1/);
    expect(alive(Number(pid))).toBe(false);
  });

  it('without a command, ends on SIGHUP with its summary', async () => {
    const mock = await startCli(['--admin-key', ADMIN_KEY, '--quiet']);
    const proxy = await startProxy(['--upstream', mock.url]);
    await raw(proxy.url, '/api/account', { Authorization: `Bearer ${ADMIN_KEY}` });
    proxy.child.kill('SIGHUP');
    const { code } = await proxy.exited;
    expect(code, proxy.err()).toBe(0);
    expect(proxy.out()).toMatch(/linkgate proxy summary\noperation\s+calls\s+matched\s+differences\naccount\.get\s+1/);
  });

  it('sends SIGKILL to a command that ignores SIGTERM after 5 s, says so, and exits 137', async () => {
    const mock = await startCli(['--admin-key', ADMIN_KEY, '--quiet']);
    const stubborn = writeProgram(`
process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
console.log('pid', process.pid);
setInterval(() => {}, 60_000);
`);
    const proxy = proxyWith(mock.url, [process.execPath, '--import', 'tsx', stubborn]);
    const [, pid] = await proxy.printed(/pid (\d+)/);
    const sent = performance.now();
    proxy.child.kill('SIGTERM');
    const { code } = await proxy.exited;
    const ms = performance.now() - sent;
    expect(code, proxy.out() + proxy.err()).toBe(137);
    expect(ms).toBeGreaterThanOrEqual(4_900);
    expect(ms).toBeLessThan(9_000);
    expect(proxy.out()).toContain('ignoring SIGTERM');
    expect(proxy.err()).toContain('did not end within 5 s of SIGTERM; sent SIGKILL');
    expect(proxy.err()).toContain('linkgate proxy summary');
    expect(alive(Number(pid))).toBe(false);
  });
});

describe('linkgate proxy --record with several keys', { timeout: 120_000 }, () => {
  it("keeps each record under the user whose key read it, with the deployment's ids and order, and says what it wrote", async () => {
    const source = await startCli(['--admin-key', ADMIN_KEY, '--quiet']);
    const keyOf = (server: { out(): string }, name: string) =>
      new RegExp(`^ {4}${name}\\s+(\\S+)`, 'm').exec(server.out())?.[1] as string;
    const sourceKeys = { alice: keyOf(source, 'alice'), bob_smith: keyOf(source, 'bob_smith') };
    // A record made now, so ids are not simply 1, 2, 3 in seed order.
    await raw(
      source.url,
      '/api/domain/add',
      { Authorization: `Bearer ${sourceKeys.bob_smith}`, 'Content-Type': 'application/json' },
      'POST',
      JSON.stringify({ domain: 'https://x.example.com' }),
    );
    const recording = join(dir, 'two-keys.json');
    const proxy = await startProxy(['--upstream', source.url, '--record', recording]);
    const paths = ['/api/account', '/api/domains', '/api/pixels', '/api/qr'];
    for (const key of Object.values(sourceKeys)) {
      for (const path of paths) await raw(proxy.url, path, { Authorization: `Bearer ${key}` });
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.child.kill('SIGTERM');
    await proxy.exited;
    expect(proxy.out()).toMatch(
      new RegExp(
        `linkgate proxy: recording written to ${recording.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+ records \\(2 users, 4 domains, \\d+ pixels, \\d+ QR codes\\)`,
      ),
    );

    const replay = await startCli(['--seed', 'empty', '--fixture', recording]);
    const replayKeys = { alice: keyOf(replay, 'alice'), bob_smith: keyOf(replay, 'bob_smith') };
    /** What a key reads: its username, and each list's ids and names in the order listed. */
    const read = async (url: string, key: string) => {
      const auth = { Authorization: `Bearer ${key}` };
      const json = async (path: string) => JSON.parse((await raw(url, path, auth)).body.toString());
      const account = (await json('/api/account')).data.username as string;
      const domains = (await json('/api/domains')).data.domains.map((d: { id: number; domain: string }) => [
        d.id,
        d.domain,
      ]);
      const pixels = (await json('/api/pixels')).data.pixels.map((p: { id: number; tag: string }) => [p.id, p.tag]);
      const qrs = (await json('/api/qr')).data.qrs.map((q: { id: number; name: string }) => [q.id, q.name]);
      return { account, domains, pixels, qrs };
    };
    for (const name of ['alice', 'bob_smith'] as const) {
      const [before, after] = [await read(source.url, sourceKeys[name]), await read(replay.url, replayKeys[name])];
      expect(after.account).toBe(name);
      expect(before.domains.length, name).toBeGreaterThan(0);
      expect(after).toEqual(before);
    }
  });
});

describe('linkgate proxy under many large answers at once', { timeout: 120_000 }, () => {
  it('keeps copies within 8 times --max-body in all: bodies past it are forwarded whole and reported as not checked', async () => {
    // 0.9 MB answers, each held open half-sent for a moment, so all 20 are in flight together.
    const body = JSON.stringify({ error: 0, data: { note: 'x'.repeat(900_000) } });
    const upstream = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.write(body.slice(0, 450_000));
      setTimeout(() => res.end(body.slice(450_000)), 1_000);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const report = join(dir, 'budget.ndjson');
    const proxy = await startProxy([
      ...['--upstream', `http://127.0.0.1:${(upstream.address() as { port: number }).port}`],
      ...['--max-body', '1', '--report', report],
    ]);
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => raw(proxy.url, '/api/account')));
      for (const answer of answers) expect(answer.body.toString()).toBe(body);
      proxy.child.kill('SIGTERM');
      await proxy.exited;
      const lines = readFileSync(report, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const skipped = lines.filter((l) => l.type === 'not-checked');
      const summary = lines.at(-1) as { operations: { calls: number }[]; notChecked: Record<string, number> };
      const checked = summary.operations[0]?.calls ?? 0;
      // 8 MB of budget holds at most 8 whole copies of 0.9 MB while 20 are in flight: some pass unchecked.
      expect(checked).toBeGreaterThan(0);
      expect(skipped.length).toBeGreaterThan(0);
      expect(checked + skipped.length).toBe(20);
      expect(summary.notChecked).toEqual({ 'body over budget': skipped.length });
      expect(skipped[0]).toMatchObject({ method: 'GET', path: '/api/account', reason: 'body over budget' });
      expect(proxy.out()).toContain('linkgate proxy: not checked: GET /api/account: body over budget');
      expect(proxy.out()).toMatch(/Not checked: \d+ exchange\(s\) \(body over budget: \d+\)/);
    } finally {
      upstream.close();
    }
  });

  it('does not parse a deeply nested answer: reported as not checked, the proxy stays small', async () => {
    const deep = `${'['.repeat(500_000)}1${']'.repeat(500_000)}`;
    const upstream = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`{"error":0,"data":${deep}}`);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const proxy = await startProxy(['--upstream', `http://127.0.0.1:${(upstream.address() as { port: number }).port}`]);
    try {
      const answer = await raw(proxy.url, '/api/account');
      expect(answer.body.length).toBe(deep.length + 19);
      await proxy.printed(/not checked: GET \/api\/account: body nested deeper than 64 levels/);
    } finally {
      upstream.close();
    }
  });
});
