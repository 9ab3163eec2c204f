import { Linkgate } from 'linkgate';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliServer, describeRun, runProgram, startCli } from './support/processes.js';

const ADMIN_KEY = 'e2e-nolimit-admin-key-0001';

const HUNDRED_CREATES = `
import { Linkgate } from 'linkgate';
const client = new Linkgate({ onRateLimit: (e) => console.log('held ' + e.waitMs + ' ms (' + e.reason + ')') });
const started = performance.now();
for (let n = 1; n <= 100; n++) {
  await client.pixels.create({ type: 'gapixel', name: 'Fast ' + n, tag: 'G-FAST' + n });
}
console.log('100 created in ' + Math.round(performance.now() - started) + ' ms');
`;

describe('100 calls against a server that sends no X-RateLimit-* headers (--rate-limit off)', () => {
  let cli: CliServer | undefined;
  afterEach(async () => {
    await cli?.stop();
  });

  it('finish in seconds, never held by an assumed 30 per minute (it used to take four minutes)', async () => {
    cli = await startCli(['--rate-limit', 'off', '--seed', 'empty', '--admin-key', ADMIN_KEY]);
    const result = await runProgram(
      { source: HUNDRED_CREATES },
      { env: { LINKGATE_BASE_URL: cli.url, LINKGATE_API_KEY: ADMIN_KEY }, timeoutMs: 90_000 },
    );
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout).not.toContain('held');
    const [, ms] = /100 created in (\d+) ms/.exec(result.stdout) ?? [];
    // Minutes when held by an assumed 30 per minute; seconds otherwise, even on a loaded machine.
    expect(Number(ms), describeRun(result)).toBeLessThan(30_000);

    const client = new Linkgate({ apiKey: ADMIN_KEY, baseUrl: cli.url });
    expect(await client.pixels.list({ limit: 100 }).toArray()).toHaveLength(100);
  });
});
