// One server per state file (issue 31, item 5), as users meet it: a lock file that exists but has no owner written
// yet, servers started at the same moment, a lock that is no longer this server's, and a `--state` path that is a
// symlink to a file in use. The lock is the real file's, taken whole, and released only by its owner.
import { existsSync, lstatSync, readFileSync, realpathSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNWRITTEN_LOCK_GRACE_MS } from '../../mock/state/state-lock.js';
import { describeRun, runCli, spawnNode, startCli } from './support/processes.js';
import { call, stateDir } from './support/state-calls.js';

const TOKEN = 'ctl-state-lock';
const args = (file: string) => ['--seed', 'demo', '--quiet', '--control-token', TOKEN, '--state', file];

describe('linkgate mock --state keeps one server per file', () => {
  it('holds off while the lock file exists without an owner yet, and takes it once it is old', async () => {
    const file = join(stateDir(), 'state.json');
    // What a server starting this moment leaves for an instant: the lock created, its owner not yet written.
    writeFileSync(`${file}.lock`, '');
    const run = await runCli(['mock', '--port', '0', ...args(file)], { timeoutMs: 15_000 });
    expect(run.code, describeRun(run)).toBe(1);
    expect(run.stderr).toContain(`The state file ${file} is being locked by another process`);
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe('');
    expect(existsSync(file)).toBe(false);

    // Older than the grace: its writer died between creating and writing it.
    const old = (Date.now() - UNWRITTEN_LOCK_GRACE_MS - 5_000) / 1000;
    utimesSync(`${file}.lock`, old, old);
    const cli = await startCli(args(file));
    expect(JSON.parse(readFileSync(`${file}.lock`, 'utf8')).pid).toBe(cli.child.pid);
    expect(await cli.stop()).toBe(0);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('lets one of two servers started at the same moment serve, and refuses the other', async () => {
    for (let round = 0; round < 3; round++) {
      const file = join(stateDir(), 'state.json');
      const both = [0, 1].map(() => spawnNode(['mock/cli.ts', 'mock', '--port', '0', ...args(file)]));
      const outcomes = await Promise.all(
        both.map((p) =>
          p.printed(/listening on (http:\/\/127\.0\.0\.1:\d+)/).then(
            (m) => ({ serving: true, url: m[1] as string }),
            () => ({ serving: false, url: '' }),
          ),
        ),
      );
      expect(outcomes.filter((o) => o.serving)).toHaveLength(1);
      const loser = both[outcomes.findIndex((o) => !o.serving)];
      expect((await loser?.exited)?.code).toBe(1);
      expect(loser?.err()).toMatch(/is in use by another linkgate mock|is being locked|starting at the same moment/);
      const winner = both[outcomes.findIndex((o) => o.serving)];
      winner?.child.kill('SIGTERM');
      expect((await winner?.exited)?.code).toBe(0);
    }
  });

  it('leaves a lock in place at exit when it is no longer its own', async () => {
    const file = join(stateDir(), 'state.json');
    const cli = await startCli(args(file));
    // Another server's lock (this test process is alive, so it is not stale) where this one's was.
    const other = JSON.stringify({ pid: process.pid, since: new Date().toISOString(), token: 'another-server' });
    writeFileSync(`${file}.lock`, other);
    expect(await cli.stop()).toBe(0);
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(other);
  });

  it('locks the file a symlinked --state points at, and writes through the link, which stays a link', async () => {
    const dir = stateDir();
    const real = join(dir, 'real.json');
    const link = join(dir, 'link.json');
    const holder = await startCli(args(real));
    symlinkSync(real, link);
    const run = await runCli(['mock', '--port', '0', ...args(link)], { timeoutMs: 15_000 });
    expect(run.code, describeRun(run)).toBe(1);
    expect(run.stderr).toContain(
      `The state file ${link} is in use by another linkgate mock (process ${holder.child.pid}`,
    );
    expect(await holder.stop()).toBe(0);

    const viaLink = await startCli(args(link));
    expect(existsSync(`${realpathSync(real)}.lock`)).toBe(true);
    expect((await call(viaLink.url, TOKEN, 'POST', '/__mock/devices', { id: 'through-the-link' })).status).toBe(201);
    expect(await viaLink.stop()).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toContain('through-the-link');
    expect(existsSync(`${link}.lock`)).toBe(false);
  });
});
