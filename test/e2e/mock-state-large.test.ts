// Large state files as a long-lived server grows them (issue 31, items 4 and 10): whatever the server can write it
// loads back, up to the 64 MB limit, and a state of many users does not hold the first answer behind the banner.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_STATE_FILE_BYTES } from '../../mock/cli/state-file.js';
import { seedState, writeGrownState } from './support/large-state.js';
import { startCli } from './support/processes.js';
import { call, stateDir } from './support/state-calls.js';

const TOKEN = 'ctl-state-large';
const args = (file: string) => ['--quiet', '--control-token', TOKEN, '--rate-limit', 'off', '--state', file];

describe('linkgate mock --state with a large state', () => {
  it('loads a file at the 64 MB limit with its rows in one table, writes it, and loads it again', async () => {
    const file = join(stateDir(), 'state.json');
    const seed = await seedState(file);
    // The size of a row as the server writes it, to fill the file to just under the limit.
    const base = writeGrownState(file, seed, { pixels: 0 });
    const perRow = (writeGrownState(file, seed, { pixels: 100_000 }) - base) / 100_000;
    let rows = Math.floor((MAX_STATE_FILE_BYTES - base - 256 * 1024) / perRow);
    let size = writeGrownState(file, seed, { pixels: rows });
    // Longer ids make later rows longer: trim until it fits.
    while (size > MAX_STATE_FILE_BYTES - 64 * 1024) {
      rows -= Math.ceil((size - MAX_STATE_FILE_BYTES) / perRow) + 1_000;
      size = writeGrownState(file, seed, { pixels: rows });
    }
    expect(size).toBeLessThanOrEqual(MAX_STATE_FILE_BYTES);
    expect(size).toBeGreaterThan(MAX_STATE_FILE_BYTES * 0.99);
    expect(rows).toBeGreaterThan(125_000);

    const first = await startCli(args(file));
    expect(first.out()).toContain(`State file: ${file} loaded`);
    const alice = seed.store.users.find((u) => u.username === 'alice')?.apikey as string;
    const listed = await call(first.url, alice, 'GET', '/api/pixels?limit=1');
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.text).data.maxpage).toBeGreaterThanOrEqual(rows);
    // A change, written at exit: the server's own file of this size must load too.
    expect((await call(first.url, TOKEN, 'POST', '/__mock/devices', { id: 'at-the-limit' })).status).toBe(201);
    expect(await first.stop()).toBe(0);

    const second = await startCli(args(file));
    expect(second.out()).toContain(`State file: ${file} loaded`);
    expect((await call(second.url, TOKEN, 'GET', '/__mock/devices')).text).toContain('at-the-limit');
    expect(await second.stop()).toBe(0);
  }, 180_000);

  it('answers its first request within seconds of starting on 20,000 users with 20,000 pixels', async () => {
    const file = join(stateDir(), 'state.json');
    writeGrownState(file, await seedState(file), { users: 20_000, pixels: 20_000 });
    const since = performance.now();
    const cli = await startCli(args(file));
    expect((await call(cli.url, TOKEN, 'GET', '/__mock/devices')).status).toBe(200);
    const firstAnswerMs = performance.now() - since;
    // The banner still names every user and what they own (one pixel each).
    await cli.printed(/user_19999 +k0{27}4e1f {2}owns 1 pixel/);
    // Counting each user's rows by scanning every row took 9.8 s here (issue 31); one pass takes well under a second
    // on top of loading the file and starting node.
    expect(firstAnswerMs).toBeLessThan(8_000);
    expect(await cli.stop()).toBe(0);
  }, 120_000);
});
