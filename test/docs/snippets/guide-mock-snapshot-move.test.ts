// The testing guide's "move the state of one server to another" commands (docs/guides/testing-with-the-mock.md, "Keep
// the state"), run as written by bash and curl between two `linkgate mock` servers, each with its own control token:
// only the two servers' addresses are filled in, since a test takes free ports instead of 4010 and 4020.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from '../../e2e/support/processes.js';
import { buildState, snapshotOf } from '../../e2e/support/state-calls.js';
import { adapt } from '../../package/support/newcomer-project.js';
import { docBlock } from '../support/doc-blocks.js';

const GUIDE = 'docs/guides/testing-with-the-mock.md';
const FROM_TOKEN = 'ctl-guide-from';
const TO_TOKEN = 'ctl-guide-to';
const ADMIN = 'admin-key-guide-snapshot-move';

describe("the testing guide's snapshot move between two servers, run by bash as written", () => {
  it('puts the first server’s state into the second, each called with its own token', async () => {
    const block = docBlock(GUIDE, 'Keep the state', 'PUT http://127.0.0.1:4020/__mock/snapshot');
    const quiet = ['--rate-limit', 'off', '--quiet', '--admin-key', ADMIN];
    const [from, to] = await Promise.all([
      startCli([...quiet, '--control-token', FROM_TOKEN]),
      startCli([...quiet, '--control-token', TO_TOKEN, '--seed', 'empty']),
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'linkgate-guide-snapshot-'));
    try {
      await buildState(from.url, ADMIN, FROM_TOKEN, 'moved');
      const script = adapt(adapt(block.body, 'http://127.0.0.1:4010', from.url), 'http://127.0.0.1:4020', to.url);
      const run = spawnSync('bash', ['-e', '-c', script], {
        cwd: dir,
        env: { ...process.env, FROM_TOKEN, TO_TOKEN },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(await snapshotOf(to.url, TO_TOKEN)).toEqual(await snapshotOf(from.url, FROM_TOKEN));
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await Promise.all([from.stop(), to.stop()]);
    }
  }, 120_000);
});
