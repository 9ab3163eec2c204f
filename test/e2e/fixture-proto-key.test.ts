// A fixture's top-level `__proto__` key is an unknown table like any other, through POST /__mock/fixture and through
// `linkgate mock --fixture`: refused with the field named, never skipped in silence.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnNode, startCli } from './support/processes.js';

const TOKEN = 'ctl_fixture_proto_key';
const dir = mkdtempSync(join(tmpdir(), 'linkgate-fixture-proto-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BODY =
  '{"__proto__":[{"username":"mallory","email":"m@example.com"}],"users":[{"username":"carol","email":"carol@example.com"}]}';

describe('a fixture with a top-level "__proto__" key', { timeout: 60_000 }, () => {
  it('is refused with 400 naming the key, as every other unknown table is, and nothing is loaded', async () => {
    const mock = await startCli(['--seed', 'empty', '--quiet', '--control-token', TOKEN]);
    try {
      const answer = await fetch(`${mock.url}/__mock/fixture`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: BODY,
      });
      const text = await answer.text();
      expect(answer.status, text).toBe(400);
      expect(text).toContain('__proto__');
      expect(text).toContain('is not a fixture table');
      const users = await fetch(`${mock.url}/__mock/state`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      expect(await users.text()).not.toContain('carol');
    } finally {
      await mock.stop();
    }
  });

  it('makes linkgate mock --fixture refuse to start, naming the key', async () => {
    const file = join(dir, 'proto.json');
    writeFileSync(file, BODY);
    const proc = spawnNode(['mock/cli.ts', 'mock', '--port', '0', '--seed', 'empty', '--fixture', file]);
    const { code } = await proc.exited;
    expect(code, proc.out() + proc.err()).not.toBe(0);
    expect(proc.err()).toMatch(/__proto__.*is not a fixture table/);
  });
});
