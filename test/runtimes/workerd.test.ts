// `linkgate/webhooks` and `linkgate` run unchanged on Cloudflare's runtime: a Worker using both is bundled with esbuild
// (platform neutral, zod inside, no node:*) and served by workerd, the open-source Workers runtime, installed on
// demand from its npm package into the runtimes cache (never added to package.json) and fed real HTTP requests.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type MockServer, startMockServer } from 'linkgate/mock';
import { createTestDelivery } from 'linkgate/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForRuntime, installRuntime, type RuntimePackage, warnNotProved } from './support/runtime-install.js';

const here = fileURLToPath(new URL('.', import.meta.url));

const WORKERD: RuntimePackage = {
  name: 'workerd',
  // The platform package holds the binary; `workerd` itself only picks it in an install script we do not run.
  pkg: '@cloudflare/workerd-linux-64',
  version: '1.20261117.1',
  binary: ['bin', 'workerd'],
  // `workerd --version` prints its release date, which is also the newest compatibility date it knows.
  reports: '2026-11-17',
};
const COMPATIBILITY_DATE = WORKERD.reports!;
const START_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 10_000;

/** A running `workerd serve`: its URL, what it printed, and a stop that never waits on it. */
interface Workerd {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** The config (capnp text) of one ES module Worker on a loopback port, allowed to call loopback (the mock) only. */
function workerdConfig(moduleFile: string, bindings: Record<string, string>): string {
  // JSON string literals are valid capnp text literals for the ASCII values passed here.
  const text = Object.entries(bindings)
    .map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`)
    .join(', ');
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # The default outbound reaches only public addresses; the mock listens on 127.0.0.1.
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [(name = "worker.mjs", esModule = embed ${JSON.stringify(moduleFile)})],
  compatibilityDate = ${JSON.stringify(COMPATIBILITY_DATE)},
  bindings = [${text}],
  globalOutbound = "loopback",
);
`;
}

/** Starts `workerd serve` and resolves once it reports its port on the control fd; fails with its output otherwise. */
function startWorkerd(bin: string, dir: string, config: string): Promise<Workerd> {
  const configFile = join(dir, 'worker.capnp');
  writeFileSync(configFile, config);
  const child: ChildProcess = spawn(bin, ['serve', configFile, '--control-fd=3'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    printed += chunk.toString('utf8');
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    printed += chunk.toString('utf8');
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  };
  const output = () => `workerd (exit ${child.exitCode}, signal ${child.signalCode}) printed:\n${printed}`;

  return new Promise<Workerd>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop().then(() => reject(new Error(`${why}\n${output()}`)));
    };
    const timer = setTimeout(() => fail(`workerd did not listen within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
    child.once('error', (error) => fail(`workerd did not start: ${error.message}`));
    child.once('exit', () => fail('workerd exited before listening'));
    let control = '';
    (child.stdio[3] as Readable).on('data', (chunk: Buffer) => {
      control += chunk.toString('utf8');
      // Whole lines only: a message may arrive in pieces.
      const lines = control.split('\n');
      control = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.trim()) continue;
        const message = JSON.parse(line) as { event?: string; socket?: string; port?: number };
        if (message.event === 'listen' && message.socket === 'http' && message.port) {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          resolve({ url: `http://127.0.0.1:${message.port}`, output, stop });
          return;
        }
      }
    });
  });
}

/** Null when a minimal Worker serves a request on this machine; otherwise why workerd cannot run here. */
async function probeWorkerd(bin: string): Promise<string | null> {
  const dir = mkdtempSync(join(tmpdir(), 'linkgate-workerd-probe-'));
  let workerd: Workerd | undefined;
  try {
    writeFileSync(join(dir, 'probe.mjs'), "export default { fetch: () => new Response('ok') };\n");
    workerd = await startWorkerd(bin, dir, workerdConfig('probe.mjs', {}));
    const response = await fetch(workerd.url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const body = await response.text();
    return body === 'ok' ? null : `a minimal Worker answered ${response.status} ${body}`;
  } catch (error) {
    return `a minimal Worker does not serve: ${(error as Error).message.replace(/\s+/g, ' ').slice(0, 500)}`;
  } finally {
    await workerd?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Installed and able to serve at all, or skipped loudly: only then does a failure below mean linkgate's fault.
const installed = await installRuntime(WORKERD);
const cannotRun = 'missing' in installed ? installed.missing : await probeWorkerd(installed.bin);
const bin = cannotRun === null && 'bin' in installed ? installed.bin : '';
if (cannotRun !== null) {
  const fix =
    'missing' in installed
      ? undefined
      : `Fix what keeps workerd from serving on this machine (try \`${installed.bin} serve <config>\`)`;
  warnNotProved(WORKERD, cannotRun, fix);
}

/** The response's status and body, for failure messages. */
async function describeResponse(response: Response): Promise<string> {
  return `${response.status} ${await response.clone().text()}`;
}

describe(`a Worker using linkgate and linkgate/webhooks on workerd ${WORKERD.version}`, () => {
  const secret = 'whsec_live_0123456789abcdef0123456789abcdef';
  const forgedSecret = 'whsec_live_fedcba9876543210fedcba9876543210';
  let dir: string;
  let server: MockServer;
  let workerd: Workerd | undefined;
  let expectedDomains: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkgate-workerd-'));
    if (!bin) return;
    server = await startMockServer({ port: 0, seed: 'demo' });
    const { store } = server.backend;
    const alice = [...store.users.values()].find((u) => u.username === 'alice')!;
    // More domains than one page of two, so the Worker pages through the list.
    for (const name of ['a', 'b', 'c']) store.addDomain(alice.id, { domain: `https://${name}.workerd.example` });
    expectedDomains = [...store.domains.values()].filter((d) => d.userId === alice.id).map((d) => d.domain);

    // Neutral, self-contained bundle: no Node built-ins, as on Workers without nodejs_compat.
    const imports = await bundleForRuntime({ worker: join(here, 'workerd-worker.ts') }, dir);
    for (const [file, left] of Object.entries(imports)) expect(left, `${file} still imports`).toEqual([]);
    workerd = await startWorkerd(
      bin,
      dir,
      workerdConfig('worker.mjs', {
        LINKGATE_WEBHOOK_SECRET: secret,
        LINKGATE_API_KEY: alice.apikey,
        LINKGATE_BASE_URL: server.url,
      }),
    );
  });

  afterAll(async () => {
    await workerd?.stop();
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A request to the Worker, never waiting longer than REQUEST_TIMEOUT_MS. */
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${workerd!.url}${path}`, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });

  const delivery = (text: string, withSecret: string) =>
    createTestDelivery({
      event: 'message.received',
      data: {
        message_id: '3EB0C767D26A1D5A9F3B',
        sender: '6281234567890',
        sender_jid: '6281234567890@s.whatsapp.net',
        text,
        has_media: false,
        timestamp: Math.floor(Date.now() / 1000) - 1,
      },
      secret: withSecret,
    });

  it.skipIf(!bin)('answers 200 {"status":"success"} to a signed delivery and runs its handler', async () => {
    const text = 'Hello from workerd, é ✓';
    const signed = delivery(text, secret);
    const response = await call('/webhooks', { method: 'POST', headers: signed.headers, body: signed.body });
    expect(response.status, `${await describeResponse(response)}\n${workerd!.output()}`).toBe(200);
    expect(await response.text()).toBe('{"status":"success"}');
    expect(await (await call('/seen')).json()).toEqual({ seen: [text] });
  });

  it.skipIf(!bin)(
    'answers 401 secret_mismatch to a delivery signed with another secret and skips its handler',
    async () => {
      const forged = delivery('forged', forgedSecret);
      const response = await call('/webhooks', { method: 'POST', headers: forged.headers, body: forged.body });
      expect(response.status, `${await describeResponse(response)}\n${workerd!.output()}`).toBe(401);
      expect(await response.json()).toMatchObject({ status: 'error', code: 'secret_mismatch' });
      expect(((await (await call('/seen')).json()) as { seen: string[] }).seen).not.toContain('forged');
    },
  );

  it.skipIf(!bin)('calls the mock through the SDK on the Worker fetch: account username and every domain', async () => {
    const response = await call('/sdk');
    expect(response.status, `${await describeResponse(response)}\n${workerd!.output()}`).toBe(200);
    const summary = (await response.json()) as Record<string, unknown>;
    // Served by workerd itself, not by Node.
    expect(summary.userAgent).toBe('Cloudflare-Workers');
    expect(summary.username).toBe('alice');
    expect(expectedDomains).toHaveLength(5);
    expect(summary.domainCount).toBe(expectedDomains.length);
    expect([...(summary.domains as string[])].sort()).toEqual([...expectedDomains].sort());
  });
});
