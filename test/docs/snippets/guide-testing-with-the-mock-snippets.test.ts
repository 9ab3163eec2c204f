// The testing guide's snippets that wait (docs/guides/testing-with-the-mock.md) as users run them: a program of its
// own, run by `node`, that must hold what the guide says it holds and exit by itself with nothing left pending.
import { describe, expect, it } from 'vitest';
import { describeRun, runProgram } from '../../e2e/support/processes.js';
import { adapt, readmeSnippet } from '../../package/support/newcomer-project.js';

const GUIDE = 'docs/guides/testing-with-the-mock.md';
/** `startMockServer` on a ManualClock, in the program's own process, with `// ...` where a test goes. */
const inProcessServer = readmeSnippet('As a server (any language)', 0, GUIDE);
/** The window's 30 requests, then a 31st the SDK holds until the clock moves a minute. */
const manualClock = readmeSnippet('Time: `ManualClock`', 0, GUIDE);

describe('docs/guides/testing-with-the-mock.md snippets, each in its own node process', () => {
  it('has the snippets the test reads', () => {
    expect(inProcessServer).toContain('const clock = new ManualClock();');
    expect(inProcessServer).toContain('new Linkgate({ apiKey: server.backend.adminKey, baseUrl: server.url, clock })');
    expect(manualClock).toContain('const held = client.account.get();');
    expect(manualClock).toContain('await clock.advance(60_000);');
  });

  it('the in-process server on a ManualClock: the 31st call is held until the clock moves, with no real waiting, and the program exits after close()', async () => {
    // The ManualClock snippet is the test the server snippet leaves room for; the last line prints what it saw.
    const program = adapt(
      inProcessServer,
      '// ...',
      `${manualClock}console.log(JSON.stringify({ rateLimit: client.rateLimit, now: clock.now(), served: server.backend.store.users.size }));`,
    );
    const result = await runProgram({ source: program }, { timeoutMs: 90_000 });
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stderr).toBe('');
    const seen = JSON.parse(result.stdout.trim().split('\n').at(-1) as string);
    // The held call went out in the second window, a mock minute later, as the first of its 30 requests.
    expect(seen.rateLimit).toMatchObject({ limit: 30, remaining: 29 });
    const left = Date.parse(seen.rateLimit.resetAt) - seen.now;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(60_000);
    expect(seen.served).toBe(3);
    // A minute of mock time in less real time than that, starting node and tsx on a loaded machine included.
    expect(result.ms).toBeLessThan(50_000);
  });
});
