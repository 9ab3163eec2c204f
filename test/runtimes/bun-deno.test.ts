// `linkgate` and `linkgate/webhooks` run unchanged on Bun and Deno: each entry's usage is bundled with esbuild
// (platform neutral, zod inside, no node:*) and run by the real runtimes, installed on demand from their npm
// packages into a cache outside the clone (as scripts/with-node.mjs installs Node), never added to package.json.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type MockServer, startMockServer } from 'linkgate/mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESULT_MARKER } from './support/runtime-env.js';
import {
  bundleForRuntime,
  installRuntime,
  type RuntimePackage,
  runCommand,
  warnNotProved,
} from './support/runtime-install.js';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Bun or Deno, and the command line running a script file. */
interface Runtime extends RuntimePackage {
  name: 'bun' | 'deno';
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

const RUN_TIMEOUT_MS = 20_000;

// Both installs at once: on a cold cache the downloads overlap; offline, both skip after one quick retry.
const installed = new Map(
  await Promise.all(RUNTIMES.map(async (runtime) => [runtime.name, await installRuntime(runtime)] as const)),
);
for (const runtime of RUNTIMES) {
  const state = installed.get(runtime.name)!;
  if ('missing' in state) {
    warnNotProved(runtime, state.missing);
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
  const r = await runCommand(bin, runtime.args(join(dir, script)), {
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
    // Neutral, self-contained bundles: no Node or browser built-ins to lean on, as on Deno, Bun and workers.
    const imports = await bundleForRuntime([join(here, 'client-usage.ts'), join(here, 'webhooks-usage.ts')], dir);
    for (const [file, left] of Object.entries(imports)) expect(left, `${file} still imports`).toEqual([]);
  });

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
