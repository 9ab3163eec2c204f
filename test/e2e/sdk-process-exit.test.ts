import { afterEach, describe, expect, it } from 'vitest';
import { type CliServer, describeRun, runProgram, startCli } from './support/processes.js';

const ADMIN_KEY = 'e2e-exit-admin-key-0001';

/** How long the process lived after it printed `done at <uptime ms>`: nothing may hold it once the work is over. */
function lingered(result: { stdout: string; ms: number }): number {
  const [, at] = /done at (\d+)/.exec(result.stdout) ?? [];
  return result.ms - Number(at);
}

describe('a script ends when its work ends', () => {
  let cli: CliServer | undefined;
  afterEach(async () => {
    await cli?.stop();
  });

  it('exits promptly after its last call: no request timeout or other timer is left holding it', async () => {
    cli = await startCli(['--admin-key', ADMIN_KEY]);
    const result = await runProgram(
      {
        source: `
import { Linkgate } from 'linkgate';
const client = new Linkgate({ timeout: 60_000 });
await client.account.get();
console.log('done at ' + Math.round(process.uptime() * 1000));
`,
      },
      { env: { LINKGATE_BASE_URL: cli.url, LINKGATE_API_KEY: ADMIN_KEY }, timeoutMs: 90_000 },
    );
    expect(result.code, describeRun(result)).toBe(0);
    expect(lingered(result), describeRun(result)).toBeLessThan(5_000);
  });

  it('exits promptly when a call waiting for the next rate window is aborted: the aborted wait holds nothing', async () => {
    cli = await startCli(['--rate-limit', '30/60s', '--admin-key', ADMIN_KEY]);
    const result = await runProgram(
      {
        source: `
import { APIUserAbortError, Linkgate } from 'linkgate';
const client = new Linkgate();
for (let i = 0; i < 30; i++) await client.account.get();
try {
  await client.account.get({ signal: AbortSignal.timeout(300) });
  console.log('not held?');
} catch (error) {
  console.log(error instanceof APIUserAbortError ? 'aborted while held' : 'unexpected: ' + error);
}
console.log('done at ' + Math.round(process.uptime() * 1000));
`,
      },
      { env: { LINKGATE_BASE_URL: cli.url, LINKGATE_API_KEY: ADMIN_KEY }, timeoutMs: 90_000 },
    );
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout).toContain('aborted while held');
    // The window resets about a minute after the first call; the process must not wait for it.
    expect(lingered(result), describeRun(result)).toBeLessThan(5_000);
  });
});
