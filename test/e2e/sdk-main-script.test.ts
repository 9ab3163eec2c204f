import { Linkgate } from 'linkgate';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliServer, describeRun, runProgram, startCli } from './support/processes.js';

const ADMIN_KEY = 'e2e-main-admin-key-0001';

// No top-level await: Node ends the process as soon as nothing holds the event loop. A rate-limit wait that does not
// hold it used to end such a script with exit code 0, silently, half done.
const MAIN_SCRIPT = `
import { Linkgate } from 'linkgate';

async function main() {
  const client = new Linkgate();
  for (let n = 1; n <= 45; n++) {
    await client.pixels.create({ type: 'gapixel', name: 'Main ' + n, tag: 'G-MAIN' + n });
  }
  console.log('all done: 45 created');
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
`;

describe('a main() script without top-level await, across rate windows', () => {
  let cli: CliServer | undefined;
  afterEach(async () => {
    await cli?.stop();
  });

  it('exits 0 only after all its work, having waited for the next window', async () => {
    cli = await startCli(['--rate-limit', '30/3s', '--seed', 'empty', '--admin-key', ADMIN_KEY]);
    const result = await runProgram(
      { source: MAIN_SCRIPT },
      { env: { LINKGATE_BASE_URL: cli.url, LINKGATE_API_KEY: ADMIN_KEY }, timeoutMs: 90_000 },
    );
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout).toContain('all done: 45 created');
    expect(result.ms).toBeGreaterThanOrEqual(2_500);
    expect(result.ms).toBeLessThan(60_000); // exits, rather than running to the killer; a loaded machine takes seconds to start node and tsx

    const client = new Linkgate({ apiKey: ADMIN_KEY, baseUrl: cli.url });
    expect(await client.pixels.list({ limit: 100 }).toArray()).toHaveLength(45);
  });
});
