// Keys through `linkgate proxy` as users meet them: a deployment that echoes a key inside a long value, a key that is
// a short ordinary word or made of JSON's own characters, credentials in the --receiver URL and in recorded redirect
// URLs. Nothing of a secret reaches the console, the --report or the --record file, and what is written stays what
// it was: valid JSON, a recording the mock loads, users named as they are.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mockWithRecording } from '../drift/support/recording-target.js';
import { runCli, spawnNode } from './support/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-proxy-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'sk_live_Q7w8E9r0T1y2U3i4O5p6A7s8D9f0';
const PASSWORD = 'Pa55w0rd-of-deploy';
const URL_TOKEN = 'T0K3N-in-the-query';

/** A deployment whose account answer echoes the caller's key in a long field, and whose domain redirects carry credentials. */
async function echoingDeployment(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const key = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
    const path = (req.url ?? '/').split('?')[0];
    const headers = {
      'Content-Type': 'application/json',
      'X-RateLimit-Limit': '30',
      'X-RateLimit-Remaining': '29',
      'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60),
    };
    res.writeHead(200, headers);
    if (path === '/api/domains') {
      res.end(
        JSON.stringify({
          error: '0',
          data: {
            result: 1,
            perpage: 15,
            currentpage: 1,
            nextpage: null,
            maxpage: 1,
            domains: [
              {
                id: 5,
                domain: 'https://x.example.com',
                redirectroot: `https://deploy:${PASSWORD}@landing.example.com/?token=${URL_TOKEN}&page=2`,
                redirect404: '',
              },
            ],
          },
        }),
      );
      return;
    }
    res.end(
      JSON.stringify({
        error: 0,
        data: {
          id: 7,
          email: 'tester@example.com',
          username: 'tester',
          avatar: '',
          status: 'free',
          expires: null,
          registered: '2026-01-01 00:00:00',
          note: `the deployment echoes your credential=${key} back`,
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Starts `linkgate proxy --port 0 <args>` and resolves with its URL once it listens. */
async function startProxy(args: string[]) {
  const proc = spawnNode(['mock/cli.ts', 'proxy', '--port', '0', ...args]);
  const [, url] = await proc.printed(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
  return { ...proc, url: url as string };
}

const get = (base: string, path: string, authorization: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request(new URL(path, base), { headers: { Authorization: authorization }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });

/** Every prefix of the key 8 characters or longer: no part of it may show. */
const partsOf = (secret: string) => Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(0, i + 8));

describe('linkgate proxy hides secrets', { timeout: 120_000 }, () => {
  it('hides a key the deployment echoes in a long value before cutting it: no half of it on the console, in the report or in check', async () => {
    const deployment = await echoingDeployment();
    const report = join(dir, 'echo.ndjson');
    const proxy = await startProxy(['--upstream', deployment.url, '--report', report]);
    try {
      expect(await get(proxy.url, '/api/account', `Bearer ${KEY}`)).toBe(200);
      await proxy.printed(/data\.note/);
      proxy.child.kill('SIGTERM');
      await proxy.exited;
      const check = await runCli(['check', '--base-url', deployment.url, '--api-key', KEY], { timeoutMs: 60_000 });
      const everything = proxy.out() + proxy.err() + readFileSync(report, 'utf8') + check.stdout + check.stderr;
      expect(proxy.out()).toContain('the deployment echoes your credential=[hidden] back');
      expect(check.stdout + check.stderr).toContain('data.note');
      for (const part of partsOf(KEY)) expect(everything).not.toContain(part);
    } finally {
      deployment.server.close();
    }
  });

  it('records with a short key ("Bearer test") and a key of JSON metacharacters without corrupting users or report lines', async () => {
    const deployment = await echoingDeployment();
    const report = join(dir, 'short.ndjson');
    const recording = join(dir, 'short.json');
    const proxy = await startProxy(['--upstream', deployment.url, '--report', report, '--record', recording]);
    try {
      expect(await get(proxy.url, '/api/account', 'Bearer test')).toBe(200);
      expect(await get(proxy.url, '/api/account', 'Bearer ":"f')).toBe(200);
      expect(await get(proxy.url, '/api/domains', 'Bearer test')).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      proxy.child.kill('SIGTERM');
      await proxy.exited;
      const lines = readFileSync(report, 'utf8').trim().split('\n');
      expect(lines.length).toBeGreaterThan(2);
      for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
      expect(readFileSync(report, 'utf8')).not.toContain(`\\":\\"f`);
      const text = readFileSync(recording, 'utf8');
      const recorded = JSON.parse(text) as { users: { username: string }[]; domains: { redirectroot?: string }[] };
      expect(recorded.users.map((u) => u.username)).toEqual(['tester']);
      // Credentials in a recorded redirect URL are hidden, not copied.
      expect(recorded.domains[0]?.redirectroot).toBe(
        'https://deploy:[hidden]@landing.example.com/?token=[hidden]&page=2',
      );
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(URL_TOKEN);
      // The mock loads it as it is.
      const target = await mockWithRecording(text);
      expect(Object.keys(target.keys)).toEqual(['tester']);
    } finally {
      deployment.server.close();
    }
  });

  it('prints the --receiver URL without its password', async () => {
    const proxy = await startProxy(['--receiver', `http://hooks:${PASSWORD}@127.0.0.1:9/webhooks`]);
    proxy.child.kill('SIGTERM');
    await proxy.exited;
    expect(proxy.out()).toContain('forwarding webhook deliveries to http://hooks:[hidden]@127.0.0.1:9/webhooks');
    expect(proxy.out() + proxy.err()).not.toContain(PASSWORD);
  });
});
