// Six worker processes sharing one budget through Redis against `linkgate mock --rate-limit 30/2s`, Redis killed three
// windows into the run and left dead: five busy workers and one that took once at the start (so Redis told it it was
// alone), idled, and calls again once Redis is gone. No worker gets a rate-limit answer: the busy ones keep to their
// share, the idle one does not trust its old count of sharers and takes the smallest share.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeWithRedis } from '../redis/support/redis-server.js';
import { restartRedisAfterEach, useRedisServer } from '../redis/support/redis-suite.js';
import { answers, loggedCalls, runWorkers, windowStarts } from '../redis/support/worker-processes.js';
import { describeRun, startCli, writeProgram } from './support/processes.js';

const ADMIN_KEY = 'e2e-redis-rate-budget-outage-01';
const WINDOW_MS = 2_000;
const BUSY_CALLS = 40;
const IDLE_CALLS = 6;

/** A worker as the guide writes one, on node-redis; `ROLE=idle` takes once at the start, then waits for Redis to die. */
const worker = `
import { existsSync } from 'node:fs';
import { Linkgate } from 'linkgate';
import { RedisRateLimitStore } from 'linkgate/redis';
import { createClient } from 'redis';

const redis = await createClient({ url: process.env.REDIS_URL }).on('error', () => {}).connect();
const client = new Linkgate({
  // The kill is seen at once (the client says it is reconnecting); a long timeout keeps a loaded machine's slow
  // answers from passing for an outage, which is another test's subject.
  rateLimitStore: new RedisRateLimitStore({ client: redis, timeoutMs: 10_000 }),
  onRateLimit: (e) => console.log(\`held \${e.waitMs} ms (\${e.reason})\`),
});
const until = async (file) => {
  while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 10));
};
const idle = process.env.ROLE === 'idle';
// Before the others start, so Redis counts it alone.
if (idle) await client.account.get();
console.log('ready');
await until(process.env.GO_FILE);
if (idle) await until(process.env.KILLED_FILE);
const n = idle ? ${IDLE_CALLS} : ${BUSY_CALLS};
const accounts = await Promise.all(Array.from({ length: n }, () => client.account.get()));
console.log(\`done \${accounts.length}\`);
// Redis is dead: nothing to close gracefully.
process.exit(0);
`;

describeWithRedis('six workers sharing one budget through Redis when Redis dies mid-run', () => {
  const redis = useRedisServer();
  // The CLI's server and the workers are killed after each test by the process support.
  restartRedisAfterEach(redis);

  it('get no rate-limit answer, the idle worker that joined before the outage included', async () => {
    const cli = await startCli(['--rate-limit', '30/2s', '--seed', 'empty', '--admin-key', ADMIN_KEY]);
    const killedFile = join(tmpdir(), `linkgate-killed-${process.pid}-${Date.now()}`);
    const busy = writeProgram(worker);
    const idle = writeProgram(worker.replace("process.env.ROLE === 'idle'", 'true'));
    const env = {
      LINKGATE_BASE_URL: cli.url,
      LINKGATE_API_KEY: ADMIN_KEY,
      REDIS_URL: redis.url,
      KILLED_FILE: killedFile,
    };
    let killedAt = 0;
    const runs = await runWorkers(
      6,
      [idle, busy, busy, busy, busy, busy],
      env,
      async () => {
        // Three windows spent through Redis (the idle worker's first call among them), then Redis dies for good: the
        // idle worker's calls come when the current window has nothing left.
        while (loggedCalls(cli).length < 3 * 30) await new Promise((resolve) => setTimeout(resolve, 20));
        await redis.stop('SIGKILL');
        killedAt = Date.now();
        writeFileSync(killedFile, '');
      },
      120_000,
    );
    const total = runs.reduce((sum, run) => sum + answers(run), 0);
    const calls = loggedCalls(cli);
    const starts = windowStarts(calls, WINDOW_MS);
    const slowest = Math.max(...runs.map((run) => run.ms));
    const perWindow = starts.map((at, i) => calls.filter((c) => c >= at && c < (starts[i + 1] ?? Infinity)).length);
    const midnight = new Date(killedAt).setUTCHours(0, 0, 0, 0);
    console.log(
      `calls per window: ${perWindow.join(', ')}; Redis killed ${killedAt - midnight - (starts[0] ?? 0)} ms after the first call, windows opening at ${starts.map((at) => at - (starts[0] ?? 0)).join(', ')} ms`,
    );
    console.log(
      `Redis killed for good three windows in: ${total} rate-limit answers, ${calls.length} requests for ${1 + 5 * BUSY_CALLS + IDLE_CALLS} calls, ${starts.length} windows, slowest worker ${Math.round(slowest)} ms; answers per worker (the idle one first): ${runs.map(answers).join(', ')}`,
    );
    expect(killedAt).toBeGreaterThan(0);
    for (const run of runs) {
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.stdout, describeRun(run)).toMatch(/^done \d+$/m);
    }
    expect(total, runs.map(describeRun).join('\n')).toBe(0);
    // Never refused, never retried: the mock saw each call once.
    expect(calls).toHaveLength(1 + 5 * BUSY_CALLS + IDLE_CALLS);
  }, 150_000);
});
