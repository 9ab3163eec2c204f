// The rate limits guide's snippets (docs/guides/rate-limits.md) as users run them: each pasted into a program of its
// own, run by `node` against the CLI's server (or msw in the same program, as the snippet shows), in real time.
import { Linkgate } from 'linkgate';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliServer, describeRun, runProgram, startCli } from '../../e2e/support/processes.js';
import { readmeSnippet } from '../../package/support/newcomer-project.js';

const GUIDE = 'docs/guides/rate-limits.md';
const ADMIN_KEY = 'e2e-guide-rate-limits-key-01';
/** The guide's client: waits for the API's window, or gives up past `maxRateLimitWait` (90 s) with the reset time. */
const waitingClient = readmeSnippet('What the SDK does', 0, GUIDE);
/** A ManualClock shared by msw's mock and the client: the 31st call is held until the test moves the clock. */
const manualClock = readmeSnippet('Testing rate-limited code', 0, GUIDE);

/** Spends the key's whole window on the CLI's server, as another process sharing the key would; returns its end. */
async function spendWindow(url: string): Promise<{ resetAt: number }> {
  let reset = 0;
  for (let i = 0; i < 30; i++) {
    const answer = await fetch(`${url}/api/account`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
    expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(29 - i));
    reset = Number(answer.headers.get('x-ratelimit-reset'));
    await answer.text();
  }
  return { resetAt: reset * 1000 };
}

/** The requests the CLI logged after the banner, e.g. `POST /api/pixel/add 200`. */
const logged = (cli: CliServer, what: string) =>
  cli
    .out()
    .split('\n')
    .filter((line) => line.includes(` ${what} `));

describe('docs/guides/rate-limits.md snippets, each in its own node process', () => {
  let cli: CliServer | undefined;
  afterEach(async () => {
    await cli?.stop();
    cli = undefined;
  });

  it('has the snippets the tests read, with the settings they rely on', () => {
    expect(waitingClient).toContain("rateLimit: 'wait'");
    expect(waitingClient).toContain('maxRateLimitWait: 90_000');
    expect(waitingClient).toContain('onRateLimit: (e) => console.log(`waiting ');
    expect(waitingClient).toContain('console.log(`try again after ');
    expect(waitingClient).toContain("client.pixels.create({ type: 'gapixel', name: 'Main', tag: 'G-ABC123' })");
    expect(manualClock).toContain('await clock.advance(60_000)');
  });

  it('the waiting client waits out the rate-limit answer of a key another process spent, then creates the pixel', async () => {
    // A 12 s window: long enough that the program (started by tsx on a loaded machine) asks within the spent window.
    cli = await startCli(['--rate-limit', '30/12s', '--seed', 'empty', '--admin-key', ADMIN_KEY]);
    const { resetAt } = await spendWindow(cli.url);

    const result = await runProgram(
      { source: waitingClient },
      { env: { LINKGATE_BASE_URL: cli.url, LINKGATE_API_KEY: ADMIN_KEY }, timeoutMs: 90_000 },
    );
    const endedAt = Date.now();
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stderr).toBe('');
    const [, waited] = /^waiting (\d+) s \(answer\)\n/.exec(result.stdout) ?? [];
    expect(Number(waited), describeRun(result)).toBeGreaterThanOrEqual(1);
    expect(Number(waited)).toBeLessThanOrEqual(12);
    expect(result.stdout).not.toContain('try again after');
    // It waited for the server's window (its reset is stated in whole seconds), and not much longer.
    expect(endedAt).toBeGreaterThanOrEqual(resetAt - 1000);
    expect(result.ms).toBeLessThan(60_000); // exits, rather than running to the killer

    const pixels = await new Linkgate({ apiKey: ADMIN_KEY, baseUrl: cli.url }).pixels.list().toArray();
    expect(pixels.map((p) => [p.type, p.name, p.tag])).toEqual([['gapixel', 'Main', 'G-ABC123']]);
    // Refused once (HTTP 200 with error 429), then sent again once the window reset: two requests, one pixel.
    expect(logged(cli, 'POST /api/pixel/add 200')).toHaveLength(2);
  });

  it('the waiting client gives up at once with the reset time when the window ends past maxRateLimitWait', async () => {
    // A 120 s window the key has spent: waiting it out would pass the snippet's 90 s.
    cli = await startCli(['--rate-limit', '30/120s', '--seed', 'empty', '--admin-key', ADMIN_KEY]);
    const { resetAt } = await spendWindow(cli.url);

    const result = await runProgram(
      { source: waitingClient },
      { env: { LINKGATE_BASE_URL: cli.url, LINKGATE_API_KEY: ADMIN_KEY }, timeoutMs: 90_000 },
    );
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stderr).toBe('');
    const [, iso] = /^try again after (\S+)\n$/.exec(result.stdout) ?? [];
    expect(iso, describeRun(result)).toBeDefined();
    expect(Math.abs(Date.parse(iso as string) - resetAt)).toBeLessThanOrEqual(2_000);
    expect(result.ms).toBeLessThan(60_000); // gives up at once: the window it would wait is 60 s
    // Asked once and not retried: the refusal was the server's, so nothing was stored.
    expect(logged(cli, 'POST /api/pixel/add 200')).toHaveLength(1);
  });

  it('the ManualClock snippet holds the 31st call until the clock moves, with no real waiting, and exits', async () => {
    const result = await runProgram(
      { source: `${manualClock}\nconsole.log(JSON.stringify({ rateLimit: client.rateLimit, now: clock.now() }));\n` },
      { timeoutMs: 90_000 },
    );
    expect(result.code, describeRun(result)).toBe(0);
    const { rateLimit, now } = JSON.parse(result.stdout.trim().split('\n').at(-1) as string);
    // The 31st call went out in the second window: one of its 30 requests spent.
    expect(rateLimit).toMatchObject({ limit: 30, remaining: 29 });
    expect(now).toBeGreaterThan(0);
    // A minute of mock time in less real time than that, starting node and tsx on a loaded machine included.
    expect(result.ms).toBeLessThan(50_000);
  });
});
