// `linkgate` and `linkgate/webhooks` run unchanged on Bun and Deno: each entry's usage is bundled with esbuild
// (platform neutral, ky and zod inside, no node:*) and run by the real runtimes, installed on demand from their npm
// packages into a cache outside the clone (as scripts/with-node.mjs installs Node), never added to package.json.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type MockServer, startMockServer } from 'linkgate/mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULT_MARKER } from './runtime-env.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..');

/** A runtime shipped as a prebuilt binary inside one npm package (no install script needed). */
interface Runtime {
  name: 'bun' | 'deno';
  pkg: string;
  /** Pinned: a new release is a deliberate change here, not a surprise in CI. */
  version: string;
  /** The binary's path inside the package. */
  binary: string[];
  /** The command line running a script file. */
  args(file: string): string[];
}

const RUNTIMES: Runtime[] = [
  {
    name: 'bun',
    pkg: '@oven/bun-linux-x64',
    version: '1.4.5',
    binary: ['bin', 'bun'],
    args: (file) => [file],
  },
  {
    name: 'deno',
    pkg: '@deno/linux-x64-glibc',
    version: '2.9.6',
    binary: ['deno'],
    // The least a user grants: the network (the mock) and the environment (its URL and key). No --allow-read.
    args: (file) => ['run', '--allow-net', '--allow-env', file],
  },
];

const CACHE = process.env.LINKGATE_RUNTIMES_CACHE ?? join(homedir(), '.cache', 'linkgate-runtimes');
const INSTALL_TIMEOUT_MS = 180_000;
const RUN_TIMEOUT_MS = 20_000;

/** The runtime's binary, installed into the cache on first use; or why it is not available. */
async function installRuntime(runtime: Runtime): Promise<{ bin: string } | { missing: string }> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return { missing: `its package is pinned for linux-x64 and this machine is ${process.platform}-${process.arch}` };
  }
  const prefix = join(CACHE, `${runtime.name}-${runtime.version}`);
  const bin = join(prefix, 'node_modules', ...runtime.pkg.split('/'), ...runtime.binary);
  if (await reportsVersion(bin, runtime.version)) return { bin };
  mkdirSync(prefix, { recursive: true });
  const spec = `${runtime.pkg}@${runtime.version}`;
  // --ignore-scripts: the binary is in the tarball. One quick retry, so an offline machine skips in seconds, not minutes.
  const npm = await run(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--fetch-retries=1',
      '--fetch-retry-mintimeout=1000',
      '--fetch-retry-maxtimeout=2000',
      spec,
    ],
    { cwd: prefix, env: process.env, timeoutMs: INSTALL_TIMEOUT_MS },
  ).catch((error: Error) => ({ code: null, signal: null, stdout: '', stderr: error.message }));
  if (npm.code !== 0) {
    const lines = npm.stderr.split('\n').filter((l) => /^npm error \S/.test(l) || !l.startsWith('npm'));
    const why = lines.slice(0, 3).join(' / ') || `exit ${npm.code}, signal ${npm.signal}`;
    return { missing: `\`npm install ${spec}\` into ${prefix} failed: ${why}` };
  }
  if (!(await reportsVersion(bin, runtime.version))) {
    return { missing: `${bin} was installed from ${spec} but does not run or report version ${runtime.version}` };
  }
  return { bin };
}

async function reportsVersion(bin: string, version: string): Promise<boolean> {
  if (!existsSync(bin)) return false;
  const r = await run(bin, ['--version'], { cwd: tmpdir(), env: process.env, timeoutMs: 10_000 }).catch(() => null);
  // `bun --version` prints 1.4.5, `deno --version` prints deno 2.9.6 (...): the exact version as a word.
  return r?.code === 0 && r.stdout.split(/\s+/).includes(version);
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command with a hard timeout (SIGKILL): the test must never hang on a process that does not exit. */
function run(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs,
      killSignal: 'SIGKILL',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

// Both installs at once: on a cold cache the downloads overlap; offline, both skip after one quick retry.
const installed = new Map(
  await Promise.all(RUNTIMES.map(async (runtime) => [runtime.name, await installRuntime(runtime)] as const)),
);
for (const runtime of RUNTIMES) {
  const state = installed.get(runtime.name)!;
  if ('missing' in state) {
    console.warn(
      `\n!!! test/runtimes ${runtime.name} SKIPPED: ${state.missing}.\n` +
        `!!! linkgate and linkgate/webhooks were NOT proved on ${runtime.name} ${runtime.version}.\n` +
        `!!! Make the npm registry reachable (the binary is cached in ${CACHE}/${runtime.name}-${runtime.version}, or set LINKGATE_RUNTIMES_CACHE) and run again.\n`,
    );
  }
}

/** What a usage script printed on its result line. */
type ScriptResult = Record<string, unknown> & { runtime: string; crashed?: string };

/** Runs a bundled script and reads its one result line; a crash, a timeout or no result line fails with the output. */
async function runScript(
  runtime: Runtime,
  bin: string,
  dir: string,
  script: string,
  env: Record<string, string>,
): Promise<ScriptResult> {
  const started = performance.now();
  const r = await run(bin, runtime.args(join(dir, script)), {
    cwd: dir,
    // Only what the script needs: no NODE_OPTIONS or npm settings from the test process leak into the runtime.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dir,
      NO_COLOR: '1',
      DENO_NO_UPDATE_CHECK: '1',
      DENO_DIR: join(dir, '.deno'),
      ...env,
    },
    timeoutMs: RUN_TIMEOUT_MS,
  });
  const ms = Math.round(performance.now() - started);
  const output = `${runtime.name} ${script} (exit ${r.code}, signal ${r.signal}, ${ms} ms)\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`;
  const line = r.stdout.split('\n').find((l) => l.startsWith(RESULT_MARKER));
  expect(line, `no result line from ${output}`).toBeDefined();
  const result = JSON.parse(line!.slice(RESULT_MARKER.length)) as ScriptResult;
  expect(result.crashed, output).toBeUndefined();
  expect(r.code, output).toBe(0);
  return result;
}

describe('bundles of linkgate and linkgate/webhooks for Bun and Deno', () => {
  let dir: string;
  const anyInstalled = [...installed.values()].some((state) => 'bin' in state);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'linkgate-runtimes-'));
    if (!anyInstalled) return;
    const built = await build({
      entryPoints: [join(here, 'client-usage.ts'), join(here, 'webhooks-usage.ts')],
      outdir: dir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      // Neutral: no Node or browser built-ins to lean on, as on Deno, Bun and workers. A node:* import fails the build.
      platform: 'neutral',
      format: 'esm',
      target: 'es2022',
      tsconfig: join(root, 'tsconfig.json'),
      metafile: true,
      logLevel: 'silent',
    });
    // Self-contained: the runtimes get no node_modules, so nothing may be left to import.
    for (const [file, output] of Object.entries(built.metafile.outputs)) {
      expect(output.imports, `${file} still imports`).toEqual([]);
    }
  }, 60_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe.each(RUNTIMES)('on $name $version', (runtime) => {
    const state = installed.get(runtime.name)!;
    const bin = 'bin' in state ? state.bin : '';
    let server: MockServer;
    let apiKey: string;
    let expectedDomains: string[];
    const PAGE_LIMIT = 2;

    beforeAll(async () => {
      if (!bin) return;
      server = await startMockServer({ port: 0, seed: 'demo' });
      const { store } = server.backend;
      const alice = [...store.users.values()].find((u) => u.username === 'alice')!;
      apiKey = alice.apikey;
      // Five domains at two per page: three pages, the last one short.
      for (const name of ['a', 'b', 'c'])
        store.addDomain(alice.id, { domain: `https://${name}.${runtime.name}.example` });
      expectedDomains = [...store.domains.values()].filter((d) => d.userId === alice.id).map((d) => d.domain);
    });

    afterAll(async () => {
      await server?.close();
    });

    it.skipIf(!bin)(
      'linkgate reads the account, pages through every domain, creates and deletes a pixel and throws NotFoundError',
      async () => {
        expect(expectedDomains).toHaveLength(5);
        const result = await runScript(runtime, bin, dir, 'client-usage.mjs', {
          LINKGATE_BASE_URL: server.url,
          LINKGATE_API_KEY: apiKey,
          LINKGATE_PAGE_LIMIT: String(PAGE_LIMIT),
        });
        expect(result.runtime).toBe(`${runtime.name} ${runtime.version}`);
        expect(result.account).toEqual({ username: 'alice', email: 'alice@example.com' });
        expect(result.domains).toHaveLength(expectedDomains.length);
        expect([...(result.domains as string[])].sort()).toEqual([...expectedDomains].sort());
        expect(result.pages).toBe(Math.ceil(expectedDomains.length / PAGE_LIMIT));
        const pixel = result.pixel as { created: number; deletedMessage: string };
        expect(pixel.created).toEqual(expect.any(Number));
        expect(pixel.deletedMessage).toMatch(/deleted/i);
        // The script's pixel really came and went in the server's store.
        expect(server.backend.store.pixels.has(pixel.created)).toBe(false);
        expect([...server.backend.store.pixels.values()].some((p) => p.tag === 'GTM-RUNTIME1')).toBe(false);
        expect(result.notFound).toEqual({
          thrown: true,
          isNotFoundError: true,
          isAPIError: true,
          isLinkgateError: true,
          name: 'NotFoundError',
        });
      },
      30_000,
    );

    it.skipIf(!bin)(
      'linkgate/webhooks answers 200 to a signed delivery, 401 to a forged secret, and verifies { headers, body }',
      async () => {
        const text = `Hello from ${runtime.name}, é ✓`;
        const result = await runScript(runtime, bin, dir, 'webhooks-usage.mjs', {
          LINKGATE_WEBHOOK_SECRET: 'whsec_live_0123456789abcdef0123456789abcdef',
          LINKGATE_FORGED_SECRET: 'whsec_live_fedcba9876543210fedcba9876543210',
          LINKGATE_MESSAGE_TEXT: text,
        });
        expect(result.runtime).toBe(`${runtime.name} ${runtime.version}`);
        expect(result.handler).toEqual({
          validStatus: 200,
          forgedStatus: 401,
          forgedCode: 'secret_mismatch',
          seen: [text],
        });
        expect(result.verify).toEqual({ event: 'message.received', known: true, text });
        expect(result.forgedVerify).toEqual({
          thrown: true,
          isWebhookVerificationError: true,
          code: 'secret_mismatch',
        });
      },
      30_000,
    );
  });
});
