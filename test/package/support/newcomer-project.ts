// A newcomer's project: the packed tarball installed from scratch with npm, next to the README's own snippets.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type CommandRun, runCommand } from '../../runtimes/support/runtime-install.js';

/** The repository root. */
export const root = fileURLToPath(new URL('../../../', import.meta.url));

const readme = readFileSync(join(root, 'README.md'), 'utf8');

/**
 * The `index`-th ```ts block under the heading that starts with `heading` in the README (or in `file`, a markdown file
 * relative to the root, such as a guide), as written. Throws when the file no longer has it, so a renamed heading
 * fails the test instead of testing nothing.
 */
export function readmeSnippet(heading: string, index: number, file = 'README.md'): string {
  const all = (file === 'README.md' ? readme : readFileSync(join(root, file), 'utf8')).split('\n');
  const start = all.findIndex((line) => /^#{2,4} /.test(line) && line.replace(/^#+ /, '').startsWith(heading));
  if (start < 0) throw new Error(`${file} has no heading starting with "${heading}"`);
  const lines = all.slice(start + 1);
  const end = lines.findIndex((line) => /^#{1,3} /.test(line));
  const section = lines.slice(0, end < 0 ? undefined : end).join('\n');
  const blocks = [...section.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
  const block = blocks[index];
  if (block === undefined) throw new Error(`${file} section "${heading}" has no ts block #${index + 1}`);
  return block;
}

/** Replaces `from` in a snippet, failing loudly when the snippet no longer contains it. */
export function adapt(snippet: string, from: string, to: string): string {
  if (!snippet.includes(from)) throw new Error(`the snippet no longer contains ${JSON.stringify(from)}`);
  return snippet.split(from).join(to);
}

/**
 * A clean checkout of linkgate in `into`, as `git clone` and `npm install` leave it for a release: the files git tracks
 * (and new ones it does not ignore) as they are on disk, committed in a repository of its own so `git status` tells
 * what a command changed, no dist/, and the installed node_modules linked in.
 */
export async function cleanCheckout(into: string): Promise<string> {
  const listed = await mustRun('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], root);
  const dir = join(into, 'checkout');
  // node_modules may itself be a link (a worktree's), which git lists as a file; it is linked in below instead.
  for (const file of listed.stdout.split('\0')) {
    if (file === '' || file === 'node_modules' || !existsSync(join(root, file))) continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    copyFileSync(join(root, file), join(dir, file));
  }
  symlinkSync(realpathSync(join(root, 'node_modules')), join(dir, 'node_modules'), 'dir');
  const git = ['-c', 'user.name=linkgate test', '-c', 'user.email=test@linkgate.invalid', '-c', 'commit.gpgsign=false'];
  await mustRun('git', ['init', '-q'], dir);
  await mustRun('git', ['add', '-A'], dir);
  await mustRun('git', [...git, 'commit', '-q', '--no-verify', '-m', 'checkout'], dir);
  return dir;
}

/** `git status --porcelain` of a checkout made by `cleanCheckout`: one line per file changed since, empty if none. */
export async function gitChanges(checkout: string): Promise<string> {
  return (await mustRun('git', ['status', '--porcelain'], checkout)).stdout.trim();
}

/** Runs npm with `args` in `cwd`, failing with its stderr when it exits non-zero. */
export const runNpm = (args: string[], cwd: string, timeoutMs?: number) => mustRun('npm', args, cwd, timeoutMs);

/**
 * Packs a clean checkout of linkgate as `npm publish` would, without building it first: npm's prepack must build it.
 * Returns the tarball, the files it holds, their total size and the checkout they were packed from.
 */
export async function packLinkgate(
  into: string,
): Promise<{ tarball: string; files: string[]; unpackedSize: number; checkout: string }> {
  const checkout = await cleanCheckout(into);
  const packed = await mustRun('npm', ['pack', '--json', '--pack-destination', into], checkout, 300_000);
  // prepack's own output comes first on stdout; npm's JSON report is the last thing printed.
  const [pack] = JSON.parse(packed.stdout.slice(packed.stdout.lastIndexOf('\n[\n') + 1)) as [
    { filename: string; files: { path: string }[]; unpackedSize: number },
  ];
  const files = pack.files.map((f) => f.path);
  return { tarball: join(into, pack.filename), files, unpackedSize: pack.unpackedSize, checkout };
}

/** The version of a dev dependency installed here, so the newcomer's install is served from npm's cache. */
const installed = (name: string) =>
  (JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** What the README's newcomer installs beside linkgate. */
const NEWCOMER_TOOLS = ['msw', 'vitest', 'typescript', '@types/node'];

/**
 * A fresh folder with linkgate (from its tarball) and `tools` (msw, vitest, typescript and @types/node unless told;
 * none for an SDK-only app) installed by npm, at the versions installed here.
 */
export async function newcomerProject(
  tarball: string,
  tools: string[] = NEWCOMER_TOOLS,
): Promise<{ dir: string } | { missing: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'linkgate-newcomer-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'newcomer-app', private: true, type: 'module' }));
  const specs = tools.map((name) => `${name}@${installed(name)}`);
  const npm = await runCommand(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--fetch-retries=1', tarball, ...specs],
    { cwd: dir, env: process.env, timeoutMs: 180_000 },
  ).catch((error: Error) => ({ code: null, signal: null, stdout: '', stderr: error.message }));
  if (npm.code !== 0) {
    rmSync(dir, { recursive: true, force: true });
    const why = npm.stderr
      .split('\n')
      .filter((l) => /^npm error \S/.test(l))
      .slice(0, 3)
      .join(' / ');
    return {
      missing: `\`npm install\` of ${['the tarball', ...specs].join(' ')} failed: ${why || `exit ${npm.code}`}`,
    };
  }
  return { dir };
}

/** Every package folder under `dir`'s node_modules, nested and scoped ones included, by name, sorted. */
export function installedPackages(dir: string): string[] {
  const found: string[] = [];
  const visit = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue; // .bin, .package-lock.json
      const names = entry.startsWith('@') ? readdirSync(join(modules, entry)).map((n) => `${entry}/${n}`) : [entry];
      for (const name of names) {
        found.push(name);
        visit(join(modules, name, 'node_modules'));
      }
    }
  };
  visit(join(dir, 'node_modules'));
  return found.sort();
}

/** Runs `node <args>` with this test's Node (>= 22, which strips TypeScript types) in `cwd`. */
export function node(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CommandRun> {
  return runCommand(process.execPath, args, { cwd, env: { ...process.env, ...env }, timeoutMs: 60_000 });
}

/** The script an installed package's bin links to, so it runs under this Node rather than the PATH's. */
export const binScript = (dir: string, name: string) => realpathSync(join(dir, 'node_modules', '.bin', name));

/** A long-running process, resolved once a line of its output matches `ready`. */
export interface Running {
  /** The output line that matched. */
  line: string;
  /** Everything it printed so far. */
  output: () => string;
  /** Stops it. */
  stop: () => void;
}

/** Starts `node <args>` in `cwd` and waits (event-driven, no polling) for a line matching `ready`. */
export function start(args: string[], cwd: string, ready: RegExp, env: Record<string, string> = {}): Promise<Running> {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    // A process that never gets ready is killed rather than left behind to hold the test run open.
    const giveUp = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node ${args.join(' ')} printed no line matching ${ready} within 15 s:\n${output}`));
    }, 15_000);
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      output += `${line}\n`;
      if (!ready.test(line)) return;
      clearTimeout(giveUp);
      resolve({ line, output: () => output, stop: () => child.kill() });
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(giveUp);
      reject(new Error(`node ${args.join(' ')} exited (${code}) before it was ready:\n${output}`));
    });
  });
}

async function mustRun(command: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<CommandRun> {
  const run = await runCommand(command, args, { cwd, env: process.env, timeoutMs });
  if (run.code !== 0) throw new Error(`${command} ${args.join(' ')} failed (${run.code}):\n${run.stderr.slice(-2000)}`);
  return run;
}
