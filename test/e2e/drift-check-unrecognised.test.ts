// A check that cannot name what it called has checked nothing: whatever the reason an answer matches no operation of
// the table, `linkgate check` says how many and exits 2, never 0. Here the table is made to know no path at all (as
// it knew none of a deployment's prefixed paths before the prefix was taken off), against a real drifting server.
// It mocks a module, so it lives in an isolated project (e2e): the unit project shares one module graph per worker.
import { describe, expect, it, vi } from 'vitest';
import { runCheck } from '../../mock/cli/check-command.js';
import { DRIFTING_KEY, startDriftingServer } from '../drift/support/drifting-server.js';

vi.mock('../../mock/drift/operation-table.js', async (original) => ({
  ...(await original<typeof import('../../mock/drift/operation-table.js')>()),
  findOperation: () => undefined,
}));

describe('linkgate check with answers it cannot recognise', () => {
  it('exits 2 and says how many answers went unrecognised, in the text and in --json', async () => {
    const server = await startDriftingServer('tolerated');
    try {
      for (const json of [false, true]) {
        let out = '';
        let err = '';
        const io = { out: (t: string) => (out += t), err: (t: string) => (err += t), env: {} };
        const args = ['--base-url', server.url, '--api-key', DRIFTING_KEY, ...(json ? ['--json'] : [])];
        expect(await runCheck(args, io)).toBe(2);
        expect(err).toMatch(
          /^linkgate check: (\d+) of \1 answers could not be matched to an operation of linkgate's table \(GET \/api\/account\), so they were not checked; check --base-url/,
        );
        expect(out).not.toContain('every answer matched');
        if (json) expect(JSON.parse(out)).toMatchObject({ ok: false, exitCode: 2 });
      }
    } finally {
      await server.close();
    }
  });
});
