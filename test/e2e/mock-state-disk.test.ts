// `linkgate mock --state` on a disk that fills up or turns read-only (issue 31, item 3), on a real file system: a
// small tmpfs mounted for the test (the tests run as root here and in CI; where mount is refused they say so and
// skip). A write that fails leaves the previous file whole, says so, and the server exits 1 at shutdown.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startCli } from './support/processes.js';
import { call, stateDir } from './support/state-calls.js';

const TOKEN = 'ctl-state-disk';
const args = (file: string) => ['--seed', 'demo', '--quiet', '--control-token', TOKEN, '--state', file];

const mounted: string[] = [];
afterAll(() => {
  for (const dir of mounted) {
    try {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    } catch {
      // Gone already.
    }
  }
});

/** A tmpfs of `kilobytes` mounted on a fresh folder, or undefined (with a loud line) where mounting is not allowed. */
function smallDisk(kilobytes: number): string | undefined {
  const dir = join(stateDir(), 'disk');
  mkdirSync(dir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kilobytes}k`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    console.warn(`SKIPPED: cannot mount a tmpfs for the full-disk test (${(error as Error).message.split('\n')[0]})`);
    return undefined;
  }
  mounted.push(dir);
  return dir;
}

/** Fills `dir`'s file system to the last byte, then frees `spare` bytes: room for part of a state file, not all. */
function fillLeaving(dir: string, spare: number): void {
  writeFileSync(join(dir, 'spacer'), Buffer.alloc(spare));
  try {
    writeFileSync(join(dir, 'filler'), Buffer.alloc(1024 * 1024));
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
  }
  unlinkSync(join(dir, 'spacer'));
}

describe('linkgate mock --state when the disk fails it', () => {
  it('on a full disk keeps the previous file whole, says why, and exits 1 at shutdown', async (ctx) => {
    const dir = smallDisk(256);
    if (!dir) return ctx.skip();
    const file = join(dir, 'state.json');
    const cli = await startCli(args(file));
    const before = readFileSync(file);
    // Room for half the file: the write gets some bytes out, then the disk is full.
    fillLeaving(dir, 4096);
    expect(before.length).toBeGreaterThan(4096 * 1.5);
    expect((await call(cli.url, TOKEN, 'POST', '/__mock/devices', { id: 'unsaved' })).status).toBe(201);
    expect(await cli.stop()).toBe(1);
    expect(cli.err()).toContain(`linkgate: could not write the state file ${file} at exit: ENOSPC`);
    expect(cli.err()).toContain('it was left with the last state written');
    expect(readFileSync(file).equals(before)).toBe(true);

    // With room again, the next start loads the last state written.
    rmSync(join(dir, 'filler'));
    const next = await startCli(args(file));
    expect(next.out()).toContain(`State file: ${file} loaded`);
    expect((await call(next.url, TOKEN, 'GET', '/__mock/devices')).text).not.toContain('unsaved');
    expect(await next.stop()).toBe(0);
  });

  it('on a file system turned read-only keeps the file, says why, and exits 1 at shutdown', async (ctx) => {
    const dir = smallDisk(256);
    if (!dir) return ctx.skip();
    const file = join(dir, 'state.json');
    const cli = await startCli(args(file));
    const before = readFileSync(file);
    execFileSync('mount', ['-o', 'remount,ro', dir]);
    try {
      expect((await call(cli.url, TOKEN, 'POST', '/__mock/devices', { id: 'unsaved' })).status).toBe(201);
      expect(await cli.stop()).toBe(1);
      expect(cli.err()).toContain(`linkgate: could not write the state file ${file} at exit: EROFS`);
      expect(readFileSync(file).equals(before)).toBe(true);
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', dir]);
    }
  });
});
