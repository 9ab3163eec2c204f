// The observability guide's script (a beforeRetry hook that logs, a diagnostics_channel subscriber printing each
// call's trace) as users run it: its own `node` process against the CLI's server with a 3-requests-per-3-seconds
// window. It sees the retry happen and the wait in its traces.
import { afterEach, describe, expect, it } from 'vitest';
import { adapt, readmeSnippet } from '../package/support/newcomer-project.js';
import { type CliServer, describeRun, type ProgramResult, runProgram, startCli } from './support/processes.js';

/** A key the output must never show. */
const KEY = 'e2e-hooks-SECRET-key-5d1c8a';

/** Four calls of account.get with a logging beforeRetry hook and a subscriber printing each call's trace. */
const guideScript = readmeSnippet('See retries and waits', 0, 'docs/guides/observability.md');
/** The same with the client's limiter off, so the fourth call is sent, answered "rate limited" and retried. */
const limiterOff = adapt(guideScript, 'new Linkgate({', 'new Linkgate({ rateLimit: false,');

/** The rate-limit wait each printed trace reports, in ms. */
const waits = (stdout: string) => [...stdout.matchAll(/waited (\d+) ms/g)].map((m) => Number(m[1]));

describe('a script logging retries and traces against a short rate window', () => {
  let cli: CliServer | undefined;
  afterEach(async () => {
    await cli?.stop();
    cli = undefined;
  });

  /** Runs `source` against a fresh `linkgate mock --rate-limit 3/3s`; it must exit 0 without printing the key. */
  async function runAgainstShortWindow(source: string): Promise<ProgramResult> {
    cli = await startCli(['--admin-key', KEY, '--rate-limit', '3/3s', '--quiet']);
    const result = await runProgram(
      { source },
      { env: { LINKGATE_BASE_URL: cli.url, LINKGATE_API_KEY: KEY }, timeoutMs: 90_000 },
    );
    expect(result.code, describeRun(result)).toBe(0);
    expect(`${result.stdout}${result.stderr}`).not.toContain(KEY);
    return result;
  }

  it('sees the rate-limit answer in beforeRetry, waits the window out and traces the wait (limiter off)', async () => {
    const result = await runAgainstShortWindow(limiterOff);
    const lines = result.stdout.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('retry '))).toEqual([
      expect.stringMatching(/^retry account\.get: attempt 2 in \d+ ms after RateLimitError: Too many/i),
    ]);
    expect(lines.filter((l) => l.startsWith('trace '))).toEqual([
      'trace account.get /api/account status 200 attempts 1 waited 0 ms',
      'trace account.get /api/account status 200 attempts 1 waited 0 ms',
      'trace account.get /api/account status 200 attempts 1 waited 0 ms',
      expect.stringMatching(/^trace account\.get \/api\/account status 200 attempts 2 waited \d+ ms$/),
    ]);
    // The fourth call waited at least the client's 1 s floor, at most the 3 s window plus a loaded machine's slack.
    const waited = waits(result.stdout).at(-1) ?? 0;
    expect(waited).toBeGreaterThanOrEqual(1000);
    expect(waited).toBeLessThanOrEqual(4000);
    expect(result.ms).toBeGreaterThanOrEqual(waited);
    expect(result.ms).toBeLessThan(60_000); // exits, rather than running to the killer
  });

  it('holds the fourth call for budget instead, no retry needed, and traces the wait (limiter on)', async () => {
    const result = await runAgainstShortWindow(guideScript);
    expect(result.stdout).not.toContain('retry ');
    const traces = result.stdout.split('\n').filter((l) => l.startsWith('trace '));
    expect(traces).toHaveLength(4);
    expect(traces.every((l) => / status 200 attempts 1 /.test(l))).toBe(true);
    const waited = waits(result.stdout);
    expect(waited.slice(0, 3)).toEqual([0, 0, 0]);
    // Held until the window that opened with the first call reset: under 3 s (plus the reset header's rounding).
    expect(waited[3]).toBeGreaterThan(0);
    expect(waited[3]).toBeLessThanOrEqual(4000);
    expect(result.ms).toBeGreaterThanOrEqual(waited[3] ?? 0);
    expect(result.ms).toBeLessThan(60_000); // exits, rather than running to the killer
  });
});
