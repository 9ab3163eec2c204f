// The state files `linkgate mock --state` refuses to start from, as a user meets them: a second server on the same
// file, a corrupt, truncated, foreign or oversized file. Each refusal says why and what to do, exits 1, and leaves
// the file byte for byte as it was. And `--fixture` seeds a server from a committed file.
import { existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_STATE_FILE_BYTES } from '../../mock/cli/state-file.js';
import { describeRun, runCli, startCli } from './support/processes.js';
import { call, snapshotOf, stateDir } from './support/state-calls.js';

const TOKEN = 'ctl-state-refusals';

/** A valid state file, written by a server of its own. */
async function validStateText(file: string): Promise<string> {
  const cli = await startCli(['--seed', 'demo', '--quiet', '--control-token', TOKEN, '--state', file]);
  expect(await cli.stop()).toBe(0);
  return readFileSync(file, 'utf8');
}

/** Starts a server on `file`, expects the refusal matching `message`, and that the file is unchanged. */
async function expectRefused(file: string, message: RegExp): Promise<void> {
  const before = readFileSync(file);
  const run = await runCli(['mock', '--port', '0', '--quiet', '--state', file], { timeoutMs: 60_000 });
  expect(run.code, describeRun(run)).toBe(1);
  expect(run.stderr).toMatch(message);
  expect(run.stderr).toContain('left as it is');
  expect(readFileSync(file).equals(before)).toBe(true);
  expect(existsSync(`${file}.lock`)).toBe(false);
}

describe('linkgate mock --state refuses', () => {
  it('a second server on the same file, naming the process that holds it', async () => {
    const file = join(stateDir(), 'state.json');
    const first = await startCli(['--quiet', '--control-token', TOKEN, '--state', file]);
    const run = await runCli(['mock', '--port', '0', '--state', file], { timeoutMs: 60_000 });
    expect(run.code, describeRun(run)).toBe(1);
    const holder = JSON.parse(readFileSync(`${file}.lock`, 'utf8')) as { pid: number };
    expect(run.stderr).toContain(`is in use by another linkgate mock (process ${holder.pid}`);
    expect(run.stderr).toContain('stop that server first, or pass another --state file');
    // The first one goes on serving and keeps its lock.
    expect((await call(first.url, TOKEN, 'GET', '/__mock/devices')).status).toBe(200);
    expect(existsSync(`${file}.lock`)).toBe(true);
    expect(await first.stop()).toBe(0);
  });

  it('a corrupt file, with the line and the reason', async () => {
    const file = join(stateDir(), 'state.json');
    const lines = (await validStateText(file)).split('\n');
    lines[4] = `${lines[4]} oops`;
    writeFileSync(file, lines.join('\n'));
    await expectRefused(file, /state file .* is not valid JSON: line 5, column \d+: /);
  });

  it('a truncated file, at its last line', async () => {
    const file = join(stateDir(), 'state.json');
    const text = await validStateText(file);
    const cut = text.slice(0, Math.floor(text.length / 2));
    writeFileSync(file, cut);
    await expectRefused(file, new RegExp(`is not valid JSON: line ${cut.split('\n').length}, column \\d+: `));
  });

  it('an empty file', async () => {
    const file = join(stateDir(), 'state.json');
    writeFileSync(file, '');
    await expectRefused(file, /is not valid JSON: line 1, column 1: the file is empty/);
  });

  it('a file of a newer format version, saying to upgrade', async () => {
    const file = join(stateDir(), 'state.json');
    writeFileSync(file, (await validStateText(file)).replace('"version": 1', '"version": 2'));
    await expectRefused(file, /cannot be loaded: snapshot\.version is 2, .*upgrade linkgate to read it/);
  });

  it('a JSON file that is no state file', async () => {
    const file = join(stateDir(), 'package.json');
    writeFileSync(file, '{ "name": "not-a-state" }\n');
    await expectRefused(file, /snapshot\.format must be "linkgate-mock-state": this is not a linkgate mock snapshot/);
  });

  it('a file that breaks a rule of the API, naming the field', async () => {
    const file = join(stateDir(), 'state.json');
    writeFileSync(file, (await validStateText(file)).replace('"alice@example.com"', '"alice-at-example"'));
    await expectRefused(file, /snapshot\.store\.users\[\d\]\.email must be a valid email address/);
  });

  it('a file over the size limit, with its size, before reading it', async () => {
    const file = join(stateDir(), 'state.json');
    writeFileSync(file, '');
    // Sparse: the size without the disk space.
    truncateSync(file, MAX_STATE_FILE_BYTES + 1);
    await expectRefused(file, new RegExp(`is 64\\.0 MB \\(${MAX_STATE_FILE_BYTES + 1} bytes\\), over the 64\\.0 MB`));
  });
});

describe('linkgate mock --fixture', () => {
  it('starts with the fixture’s records, and refuses a bad one naming the field', async () => {
    const dir = stateDir();
    const fixture = join(dir, 'team-data.json');
    writeFileSync(
      fixture,
      JSON.stringify({
        users: [{ username: 'team_qa', email: 'qa@example.com', apikey: 'team-qa-key-1234' }],
        domains: [{ owner: 'team_qa', domain: 'https://go.team.example' }],
        devices: [{ id: 'team-phone' }],
      }),
    );
    const cli = await startCli(['--quiet', '--control-token', TOKEN, '--fixture', fixture]);
    expect(cli.out()).toContain(`Fixture: ${fixture} loaded (1 users, 1 domains, 0 pixels, 0 qrs, 1 devices).`);
    const listed = await call(cli.url, 'team-qa-key-1234', 'GET', '/api/domains');
    expect(JSON.parse(listed.text).data.domains[0].domain).toBe('https://go.team.example');
    const state = (await snapshotOf(cli.url, TOKEN)) as { gateway: { devices: { devices: { id: string }[] } } };
    expect(state.gateway.devices.devices.map((d) => d.id)).toEqual(['team-phone']);
    expect(await cli.stop()).toBe(0);

    writeFileSync(fixture, JSON.stringify({ users: [{ username: 'team_qa', email: 'not-an-email' }] }));
    const run = await runCli(['mock', '--port', '0', '--fixture', fixture], { timeoutMs: 60_000 });
    expect(run.code, describeRun(run)).toBe(1);
    expect(run.stderr).toContain(
      `The fixture ${fixture} was not loaded: users[0].email must be a valid email address.`,
    );
  });
});
