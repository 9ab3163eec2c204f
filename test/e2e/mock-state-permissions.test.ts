// The state file holds every key (issue 31, item 6): it is created readable by its owner only, a mode the user sets
// is kept through every write, and a symlink planted where an older linkgate put its temp file is never written
// through: temp files are created exclusively, under names no one can guess.
import { chmodSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATE_WRITE_INTERVAL_MS } from '../../mock/cli/state-file.js';
import { startCli } from './support/processes.js';
import { call, stateDir } from './support/state-calls.js';

const TOKEN = 'ctl-state-perms';
const args = (file: string) => ['--seed', 'demo', '--quiet', '--control-token', TOKEN, '--state', file];
const modeOf = (file: string) => statSync(file).mode & 0o777;

/** Waits until the file on disk holds `text` (a periodic write happened). */
async function writtenWith(file: string, text: string): Promise<void> {
  const since = performance.now();
  while (!readFileSync(file, 'utf8').includes(text)) {
    expect(performance.now() - since).toBeLessThan(STATE_WRITE_INTERVAL_MS + 5_000);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('linkgate mock --state file permissions', () => {
  it('creates the file 0600 and keeps a mode the user set through every write', async () => {
    const file = join(stateDir(), 'state.json');
    const cli = await startCli(args(file));
    expect(modeOf(file)).toBe(0o600);
    chmodSync(file, 0o640);
    expect((await call(cli.url, TOKEN, 'POST', '/__mock/devices', { id: 'periodic' })).status).toBe(201);
    await writtenWith(file, 'periodic');
    expect(modeOf(file)).toBe(0o640);
    expect((await call(cli.url, TOKEN, 'POST', '/__mock/devices', { id: 'at-exit' })).status).toBe(201);
    expect(await cli.stop()).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('at-exit');
    expect(modeOf(file)).toBe(0o640);
  });

  it('never writes through a symlink planted at a temp file name, and leaves no temp file behind', async () => {
    const dir = stateDir();
    const file = join(dir, 'state.json');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'not yours');
    const cli = await startCli(args(file));
    const { pid } = JSON.parse(readFileSync(`${file}.lock`, 'utf8')) as { pid: number };
    // The names an older linkgate wrote through: the pid is in the lock for anyone to read.
    symlinkSync(victim, `${file}.${pid}.async.tmp`);
    symlinkSync(victim, `${file}.${pid}.tmp`);
    expect((await call(cli.url, TOKEN, 'POST', '/__mock/devices', { id: 'periodic' })).status).toBe(201);
    await writtenWith(file, 'periodic');
    expect((await call(cli.url, TOKEN, 'POST', '/__mock/devices', { id: 'at-exit' })).status).toBe(201);
    expect(await cli.stop()).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('not yours');
    expect(readFileSync(file, 'utf8')).toContain('at-exit');
    const left = readdirSync(dir).filter((name) => name.endsWith('.tmp') && !name.includes(`.${pid}.`));
    expect(left).toEqual([]);
  });
});
