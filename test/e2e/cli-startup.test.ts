// `linkgate mock` as published (dist/cli.js, built by tsup.config.ts) starts by loading only what serving needs, and
// keeps its compiled code in Node's compile cache (issue 23). How long start-up takes is measured by
// bench/mock-server.bench.ts against a bare node:http script: a test cannot hold a time on a shared machine.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildCli } from './support/built-cli.js';

const ADMIN_KEY = 'startup-admin-key';
const dir = mkdtempSync(join(tmpdir(), 'linkgate-cli-startup-'));
let cli: string;
beforeAll(async () => {
  cli = await buildCli(join(dir, 'dist'));
  // Reports at exit which built-in modules and which files the process loaded, on stderr.
  writeFileSync(
    join(dir, 'report-loaded.mjs'),
    `import module from 'node:module';
const files = [];
module.registerHooks({ load(url, context, next) { files.push(url); return next(url, context); } });
process.on('exit', () => process.stderr.write('LOADED ' + JSON.stringify({ builtins: process.moduleLoadList, files }) + '\\n'));
`,
  );
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  running.clear();
});

/** `node [nodeArgs] dist/cli.js mock --port 0 --seed demo`, once it listens; `stop` sends SIGTERM and waits. */
async function startBuiltCli(
  nodeArgs: string[] = [],
  env: Record<string, string> = {},
): Promise<{ url: string; stop(): Promise<{ code: number | null; stderr: string }> }> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, cli, 'mock', '--port', '0', '--seed', 'demo', '--admin-key', ADMIN_KEY],
    { env: { ...process.env, NODE_OPTIONS: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    exited.then(() => reject(new Error(`exited before listening:\n${stdout}\n${stderr}`)));
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      return { code: await exited, stderr };
    },
  };
}

const asAdmin = { authorization: `Bearer ${ADMIN_KEY}` };

describe('linkgate as published (dist/cli.js and its chunks)', () => {
  // process.getBuiltinModule came in Node 22.3 (before it, the CLI imports node:http); module.registerHooks in 22.15.
  const hasGetBuiltin = typeof process.getBuiltinModule === 'function' && 'registerHooks' in module;
  it.runIf(hasGetBuiltin)(
    'answers its first request without loading fetch (undici), zlib, the trigger command or qrcode',
    async () => {
      const server = await startBuiltCli(['--import', join(dir, 'report-loaded.mjs')]);
      const { status } = await fetch(`${server.url}/api/account`, { headers: asAdmin });
      const run = await server.stop();
      expect(status, run.stderr).toBe(200);
      expect(run.code).toBe(0);
      const loaded = JSON.parse(/^LOADED (.*)$/m.exec(run.stderr)![1]!) as { builtins: string[]; files: string[] };
      // Importing node:http as an ES module runs every getter of its namespace, undici's and zlib's among them.
      expect(loaded.builtins.filter((m) => /undici|zlib/.test(m))).toEqual([]);
      // Both are split out of the CLI's start-up into chunks of their own, which the build must have made.
      const chunks = readdirSync(join(dir, 'dist', 'cli-chunks'));
      const lazy = chunks.filter((f) => /^(trigger-command|qrcode)-/.test(f));
      expect(lazy).toHaveLength(2);
      expect(loaded.files.some((url) => /\/cli-chunks\/cli-\w+\.js$/.test(url))).toBe(true); // the hook sees chunks
      expect(loaded.files.filter((url) => lazy.some((f) => url.endsWith(`/${f}`)))).toEqual([]);
    },
  );

  it.runIf('enableCompileCache' in module)(
    "leaves its compiled code in Node's compile cache, under the temp folder by default",
    async () => {
      const temp = mkdtempSync(join(dir, 'tmp-'));
      const server = await startBuiltCli([], { TMPDIR: temp });
      const { status } = await fetch(`${server.url}/api/account`, { headers: asAdmin });
      const run = await server.stop();
      expect(status, run.stderr).toBe(200);
      // Written at exit; the next start reads the CLI's code from here instead of compiling it.
      const cache = join(temp, 'node-compile-cache');
      expect(existsSync(cache) && readdirSync(cache, { recursive: true }).length > 0).toBe(true);
    },
  );

  it('loads qrcode when asked for a QR image', async () => {
    const server = await startBuiltCli();
    const added = await fetch(`${server.url}/api/qr/add`, {
      method: 'POST',
      headers: { ...asAdmin, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'text', data: 'hello' }),
    });
    const { link } = (await added.json()) as { link: string };
    const image = await fetch(link);
    const png = new Uint8Array(await image.arrayBuffer());
    const run = await server.stop();
    expect(image.status, run.stderr).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect([...png.subarray(1, 4)]).toEqual([...Buffer.from('PNG')]);
  });

  it('loads the trigger command when asked for it', async () => {
    const child = spawn(process.execPath, [cli, 'trigger', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let stdout = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: linkgate trigger <event>/);
  });
});
