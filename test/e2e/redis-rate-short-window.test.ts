// Two copies of the guide's worker (docs/guides/running-on-many-processes.md) sharing one budget through Redis against
// `linkgate mock --rate-limit 20/2s`: what onRateLimit tells them is the wait that really happens, and each window of
// the server opens as soon as the last one's X-RateLimit-Reset says it ended (a whole second at most later).
import { expect, it } from 'vitest';
import { readmeSnippet } from '../package/support/newcomer-project.js';
import { describeWithRedis } from '../redis/support/redis-server.js';
import { useRedisServer } from '../redis/support/redis-suite.js';
import { loggedCalls, runWorkers, windowStarts, withStartLine } from '../redis/support/worker-processes.js';
import { describeRun, startCli, writeProgram } from './support/processes.js';

const GUIDE = 'docs/guides/running-on-many-processes.md';
const ADMIN_KEY = 'e2e-redis-rate-short-window-01';
const WINDOW_MS = 2_000;

describeWithRedis('two workers sharing a short rate window through Redis', () => {
  const redis = useRedisServer();
  // The CLI's server and the workers are killed after each test by the process support.

  it('are told the waits that happen, and use every window as soon as the server opens it', async () => {
    const cli = await startCli(['--rate-limit', '20/2s', '--seed', 'empty', '--admin-key', ADMIN_KEY]);
    const worker = writeProgram(withStartLine(readmeSnippet('Eight workers, one API key', 0, GUIDE)));
    const env = { LINKGATE_BASE_URL: cli.url, LINKGATE_API_KEY: ADMIN_KEY, REDIS_URL: redis.url };
    const runs = await runWorkers(2, [worker], env, undefined, 60_000);
    for (const run of runs) {
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.stdout, describeRun(run)).toMatch(/^done 30$/m);
    }
    const held = runs.flatMap((run) =>
      [...run.stdout.matchAll(/^held (\d+) ms \(budget\)$/gm)].map((m) => Number(m[1])),
    );
    const starts = windowStarts(loggedCalls(cli), WINDOW_MS);
    const gaps = starts.slice(1).map((at, i) => at - (starts[i] as number));
    const longest = Math.max(...runs.map((run) => run.ms));
    console.log(
      `held (budget): ${held.join(', ')} ms; window starts ${gaps.join(', ')} ms apart; slowest worker ${Math.round(longest)} ms`,
    );
    expect(held.length).toBeGreaterThan(0);
    // Each held call is told when it is looked at again, which is never later than its window's end.
    for (const ms of held) expect(ms).toBeLessThanOrEqual(WINDOW_MS + 1_000);
    // 60 calls at 20 per window: three windows, at least.
    expect(starts.length).toBeGreaterThanOrEqual(3);
    // X-RateLimit-Reset is in whole seconds, rounded up: a window can open up to a second after the one before ended,
    // plus the time a held call takes to go out once its timer fires (a Redis round trip, a loopback request).
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(WINDOW_MS + 1_000 + 250);
  }, 90_000);
});
