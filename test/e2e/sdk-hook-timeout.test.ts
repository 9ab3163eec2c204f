import { afterEach, describe, expect, it } from 'vitest';
import { type CliServer, describeRun, runProgram, startCli } from './support/processes.js';

const ADMIN_KEY = 'e2e-hook-timeout-admin-key-0001';

/** The ms the script's call took, as it printed it (`took <ms>`). */
function took(stdout: string): number {
  return Number(/took (\d+)/.exec(stdout)?.[1] ?? Number.NaN);
}

describe('a user script whose hook never settles', () => {
  let cli: CliServer | undefined;
  afterEach(async () => {
    await cli?.stop();
  });

  it('gets a timeout error at its timeout and exits by itself, for each kind of hook', async () => {
    cli = await startCli(['--admin-key', ADMIN_KEY]);
    const result = await runProgram(
      {
        source: `
import { APIConnectionTimeoutError, Linkgate } from 'linkgate';
const never = () => new Promise(() => {});
for (const kind of ['beforeRequest', 'afterResponse', 'beforeError']) {
  // beforeError needs a failure: a call for a QR code that does not exist.
  const client = new Linkgate({ timeout: 1000, maxRetries: 0, hooks: { [kind]: [never] } });
  const started = Date.now();
  try {
    await (kind === 'beforeError' ? client.qr.get(999999) : client.account.get());
    console.log(kind + ': no error?');
  } catch (error) {
    const name = error instanceof APIConnectionTimeoutError ? 'APIConnectionTimeoutError' : String(error);
    console.log(kind + ': ' + name + ' took ' + (Date.now() - started) + ' ms: ' + error.message);
  }
}
`,
      },
      { env: { LINKGATE_BASE_URL: cli.url, LINKGATE_API_KEY: ADMIN_KEY }, timeoutMs: 30_000 },
    );
    expect(result.code, describeRun(result)).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.map((line) => line.replace(/ took \d+ ms/, ''))).toEqual([
      'beforeRequest: APIConnectionTimeoutError: GET /api/account: beforeRequest hook still running after 1000 ms. Make it settle sooner or raise the timeout option.',
      'afterResponse: APIConnectionTimeoutError: GET /api/account: afterResponse hook still running after 1000 ms. Make it settle sooner or raise the timeout option.',
      'beforeError: APIConnectionTimeoutError: GET /api/qr/999999: beforeError hook still running after 1000 ms. Make it settle sooner or raise the timeout option.',
    ]);
    for (const line of lines) {
      // At the timeout, give or take a busy machine; never the 30 s default nor forever.
      expect(took(line), describeRun(result)).toBeGreaterThanOrEqual(950);
      expect(took(line), describeRun(result)).toBeLessThan(10_000);
    }
    expect(result.stderr).not.toContain(ADMIN_KEY);
    expect(result.stdout).not.toContain(ADMIN_KEY);
  }, 45_000);

  it('whose beforeRequest hook answers with a body that never ends gets the timeout too, and exits by itself', async () => {
    cli = await startCli(['--admin-key', ADMIN_KEY]);
    const result = await runProgram(
      {
        source: `
import { Linkgate } from 'linkgate';
const endless = () => new Response(new ReadableStream({ pull: () => new Promise(() => {}) }));
const client = new Linkgate({ timeout: 1000, maxRetries: 0, hooks: { beforeRequest: [endless] } });
const started = Date.now();
try {
  await client.account.get();
  console.log('no error?');
} catch (error) {
  console.log(error.name + ' took ' + (Date.now() - started) + ' ms: ' + error.message);
}
`,
      },
      { env: { LINKGATE_BASE_URL: cli.url, LINKGATE_API_KEY: ADMIN_KEY }, timeoutMs: 30_000 },
    );
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout.trim().replace(/ took \d+ ms/, '')).toBe(
      'APIConnectionTimeoutError: GET /api/account: beforeRequest hook still running after 1000 ms. Make it settle sooner or raise the timeout option.',
    );
    expect(took(result.stdout), describeRun(result)).toBeGreaterThanOrEqual(950);
    expect(took(result.stdout), describeRun(result)).toBeLessThan(10_000);
  }, 45_000);

  it('is ended by the call’s signal with APIUserAbortError, as a server that never answers would be', async () => {
    cli = await startCli(['--admin-key', ADMIN_KEY]);
    const result = await runProgram(
      {
        source: `
import { Linkgate } from 'linkgate';
const client = new Linkgate({ hooks: { beforeRequest: [() => new Promise(() => {})] } });
const started = Date.now();
try {
  await client.account.get({ signal: AbortSignal.timeout(1000) });
} catch (error) {
  console.log(error.name + ' took ' + (Date.now() - started) + ' ms');
}
`,
      },
      { env: { LINKGATE_BASE_URL: cli.url, LINKGATE_API_KEY: ADMIN_KEY }, timeoutMs: 30_000 },
    );
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout).toMatch(/^APIUserAbortError took \d+ ms$/m);
    expect(took(result.stdout), describeRun(result)).toBeGreaterThanOrEqual(950);
    expect(took(result.stdout), describeRun(result)).toBeLessThan(10_000);
  }, 45_000);
});
