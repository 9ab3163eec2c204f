import { Linkgate } from 'linkgate';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliServer, describeRun, runProgram, startCli } from './support/processes.js';

const ADMIN_KEY = 'e2e-bulk-admin-key-0001';

describe('examples/bulk-create-pixels.ts as a user runs it', () => {
  let cli: CliServer | undefined;
  afterEach(async () => {
    await cli?.stop();
  });

  it('creates all 100 pixels across four rate windows and exits 0 (it used to exit 13 at 30)', async () => {
    cli = await startCli(['--rate-limit', '30/3s', '--seed', 'empty', '--admin-key', ADMIN_KEY]);
    const result = await runProgram(
      { file: 'examples/bulk-create-pixels.ts' },
      { env: { LINKGATE_BASE_URL: cli.url, LINKGATE_API_KEY: ADMIN_KEY }, timeoutMs: 90_000 },
    );
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout).toContain('created 100/100');
    // 100 requests at 30 per 3 s need four windows: at least three waits of a window each.
    expect(result.stdout.match(/rate limit: .*waiting/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    expect(result.ms).toBeGreaterThanOrEqual(9_000);
    expect(result.ms).toBeLessThan(75_000); // four 3 s windows, plus the seconds a loaded machine takes seconds to start node and tsx

    const client = new Linkgate({ apiKey: ADMIN_KEY, baseUrl: cli.url });
    const pixels = await client.pixels.list({ limit: 100 }).toArray();
    expect(pixels).toHaveLength(100);
  });
});
