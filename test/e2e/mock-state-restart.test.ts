// `linkgate mock --state <file>` as a developer runs it: state built through the APIs survives the server being
// stopped (SIGTERM) or killed (`kill -9`), field for field; a kill in the middle of a write leaves a file that loads.
// A write that fails (a full disk, a read-only file system): test/e2e/mock-state-disk.test.ts.
import { existsSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATE_WRITE_INTERVAL_MS } from '../../mock/cli/state-file.js';
import { startCli } from './support/processes.js';
import { buildState, call, snapshotOf, stateDir } from './support/state-calls.js';

const TOKEN = 'ctl-state-restart';
const ADMIN = 'admin-key-state-restart';
const args = (file: string) => [
  '--seed',
  'demo',
  '--control-token',
  TOKEN,
  '--admin-key',
  ADMIN,
  '--rate-limit',
  'off',
  '--quiet',
  '--state',
  file,
];

describe('linkgate mock --state', () => {
  it('creates the file, and after a SIGTERM restart serves every field it had', async () => {
    const file = join(stateDir(), 'state.json');
    const first = await startCli(args(file));
    expect(first.out()).toContain(`State file: ${file} created`);
    expect(existsSync(file)).toBe(true);
    await buildState(first.url, ADMIN, TOKEN, 'sigterm');
    const before = await snapshotOf(first.url, TOKEN);
    const domains = await call(first.url, ADMIN, 'GET', '/api/domains');
    // Stopped at once, well inside the write interval: the flush on SIGTERM writes what the timer has not.
    expect(await first.stop()).toBe(0);
    expect(existsSync(`${file}.lock`)).toBe(false);

    const second = await startCli(args(file));
    expect(second.out()).toContain(`State file: ${file} loaded`);
    expect(await snapshotOf(second.url, TOKEN)).toEqual(before);
    expect(await call(second.url, ADMIN, 'GET', '/api/domains')).toEqual(domains);
    // A reset is a change like any other: the file follows it (README, Decisions).
    expect((await call(second.url, TOKEN, 'POST', '/__mock/reset')).status).toBe(200);
    const seed = await snapshotOf(second.url, TOKEN);
    expect(await second.stop()).toBe(0);
    const third = await startCli(args(file));
    expect(await snapshotOf(third.url, TOKEN)).toEqual(seed);
    expect(JSON.stringify(seed)).not.toContain('phone-sigterm');
    expect(await third.stop()).toBe(0);
  });

  it('after kill -9 keeps all but at most the last interval, and takes over the dead server’s lock', async () => {
    const file = join(stateDir(), 'state.json');
    const first = await startCli(args(file));
    await buildState(first.url, ADMIN, TOKEN, 'kept');
    const kept = await snapshotOf(first.url, TOKEN);
    // The change reaches the disk within the interval (with room for a loaded machine).
    const since = performance.now();
    while (!readFileSync(file, 'utf8').includes('phone-kept')) {
      expect(performance.now() - since).toBeLessThan(STATE_WRITE_INTERVAL_MS + 5_000);
      await new Promise((r) => setTimeout(r, 25));
    }
    const toDiskMs = performance.now() - since;
    await buildState(first.url, ADMIN, TOKEN, 'maybe');
    const latest = await snapshotOf(first.url, TOKEN);
    first.child.kill('SIGKILL');
    await first.exited;
    // The dead server's lock is still there: the next one sees its process is gone.
    expect(existsSync(`${file}.lock`)).toBe(true);

    const second = await startCli(args(file));
    const restored = await snapshotOf(second.url, TOKEN);
    // Either the last write before the kill or the one before it: never a mix, never older than an interval.
    expect([kept, latest]).toContainEqual(restored);
    expect(toDiskMs).toBeLessThan(STATE_WRITE_INTERVAL_MS + 5_000);
    expect(await second.stop()).toBe(0);
  });

  it('leaves a loadable file when killed the moment a write of a large state begins', async () => {
    const dir = stateDir();
    const file = join(dir, 'state.json');
    const fixture = join(dir, 'fixture.json');
    // ~4,000 rows, so a write is a few hundred KB and takes a while.
    const users = [{ username: 'bulk_user', email: 'bulk@example.com', apikey: 'bulk-key-123456' }];
    const domains = Array.from({ length: 4_000 }, (_, i) => ({
      owner: 'bulk_user',
      domain: `https://d${i}.bulk.example`,
    }));
    writeFileSync(fixture, JSON.stringify({ users, domains }));
    for (let round = 0; round < 3; round++) {
      const cli = await startCli([...args(file), '--fixture', fixture]);
      expect(cli.out()).toContain(round === 0 ? 'Fixture:' : `State file: ${file} loaded`);
      // The first sign of a write in the folder (a temp file created, or the file itself opened) is the moment to kill.
      let killedAt: string | undefined;
      const watcher = watch(dir, (_event, name) => {
        if (killedAt !== undefined || !name?.startsWith('state.json') || name.endsWith('.lock')) return;
        killedAt = name;
        cli.child.kill('SIGKILL');
      });
      try {
        const since = performance.now();
        for (let n = 0; killedAt === undefined && cli.child.exitCode === null; n++) {
          await call(cli.url, TOKEN, 'POST', '/__mock/devices', { id: `dev-${round}-${n}` }).catch(() => undefined);
          expect(performance.now() - since).toBeLessThan(STATE_WRITE_INTERVAL_MS + 10_000);
        }
        await cli.exited;
      } finally {
        watcher.close();
      }
      expect(killedAt).toBeDefined();
      const onDisk = JSON.parse(readFileSync(file, 'utf8')) as { version: number; store: { domains: unknown[] } };
      expect(onDisk.version).toBe(1);
      expect(onDisk.store.domains.length).toBeGreaterThanOrEqual(4_000);
    }
    const last = await startCli(args(file));
    expect((await call(last.url, 'bulk-key-123456', 'GET', '/api/domains?limit=1')).status).toBe(200);
    expect(await last.stop()).toBe(0);
  }, 120_000);
});
