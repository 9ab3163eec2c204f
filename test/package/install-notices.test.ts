// What `npm install` prints in a fresh clone, as the README's set-up says: nothing to worry about on Node >= 22, and on
// an older Node only the engine warnings the README describes, which the launcher's own `npm install` avoids.
import { copyFileSync, existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CommandRun, runCommand } from '../runtimes/support/runtime-install.js';
import { root } from './support/newcomer-project.js';

let clone: string;

beforeAll(() => {
  // What npm reads to install: the manifest, the lock file and the project's npm settings.
  clone = mkdtempSync(join(tmpdir(), 'linkgate-install-'));
  for (const file of ['package.json', 'package-lock.json', '.npmrc']) {
    if (existsSync(join(root, file))) copyFileSync(join(root, file), join(clone, file));
  }
});
afterAll(() => rmSync(clone, { recursive: true, force: true }));

/** The npm on PATH, run by `nodeBin`; `--dry-run` resolves the whole tree (and warns) without writing node_modules. */
function npmInstall(nodeBin: string, env: NodeJS.ProcessEnv = process.env): Promise<CommandRun> {
  const args = ['install', '--dry-run', '--prefer-offline'];
  return runCommand(nodeBin, [npmCli(), ...args], { cwd: clone, env, timeoutMs: 120_000 });
}

/** npm's own script behind the `npm` on PATH, so a chosen Node can run it. */
function npmCli(): string {
  const npm = (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'npm'))
    .find((p) => existsSync(p));
  if (!npm) throw new Error('no npm on PATH');
  return realpathSync(npm);
}

/** The lines npm printed as warnings. */
const warnings = (run: CommandRun) =>
  `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => line.startsWith('npm warn'));

/** A Node older than 22 on PATH (the machine's own, when the suite runs under the launcher's Node 24), if any. */
async function olderNode(): Promise<string | undefined> {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, 'node');
    if (!existsSync(candidate) || realpathSync(candidate) === realpathSync(process.execPath)) continue;
    const run = await runCommand(candidate, ['-p', 'process.versions.node'], {
      cwd: clone,
      env: {},
      timeoutMs: 10_000,
    });
    if (Number(run.stdout.split('.')[0]) < 22) return candidate;
  }
  return undefined;
}

describe('npm install in a fresh clone', () => {
  it('warns nothing on Node >= 22: no install-scripts notice (esbuild is declined in allowScripts)', async () => {
    const run = await npmInstall(process.execPath);
    expect(run.code).toBe(0);
    expect(warnings(run)).toEqual([]);
  });

  it('asks for no funding (.npmrc fund=false)', async () => {
    // Only the project's settings count: this machine's own npmrc files are set aside.
    const [global, user] = [join(clone, 'global-npmrc'), join(clone, 'user-npmrc')];
    for (const file of [global, user]) writeFileSync(file, '');
    const run = await runCommand(process.execPath, [npmCli(), 'config', 'get', 'fund'], {
      cwd: clone,
      env: { ...process.env, npm_config_globalconfig: global, npm_config_userconfig: user },
      timeoutMs: 30_000,
    });
    expect(run.stdout.trim()).toBe('false');
  });

  it('on Node 20 warns only EBADENGINE, and through the launcher warns nothing', async (ctx) => {
    const node20 = await olderNode();
    if (!node20) {
      console.warn('\n!!! test/package install notices on Node < 22 SKIPPED: no Node older than 22 on PATH.\n');
      return ctx.skip();
    }
    // npm and the scripts it runs find that older Node first, as on a machine that has only it.
    const env = { ...process.env, PATH: [dirname(node20), process.env.PATH].join(delimiter) };
    const plain = await npmInstall(node20, env);
    expect(plain.code).toBe(0);
    const lines = warnings(plain);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => !line.startsWith('npm warn EBADENGINE'))).toEqual([]);

    // `node scripts/with-node.mjs npm install`: npm itself runs under Node >= 22, so no package's engines complain.
    const launched = await runCommand(
      node20,
      [join(root, 'scripts', 'with-node.mjs'), 'npm', 'install', '--dry-run', '--prefer-offline'],
      { cwd: clone, env, timeoutMs: 300_000 },
    );
    expect(launched.code).toBe(0);
    expect(warnings(launched)).toEqual([]);
  }, 400_000);
});
