// Eight worker processes, one API key, one Redis, as the guide sets them up (docs/guides/running-on-many-processes.md,
// its snippets run as they are): against `linkgate mock --rate-limit 30/3s`, 240 calls between them with no rate-limit
// answer; the in-memory store's answers as the contrast; and Redis killed in the middle of a run.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { adapt, readmeSnippet } from '../package/support/newcomer-project.js';
import { describeWithRedis, type RedisServer, startRedisServer } from '../redis/support/redis-server.js';
import { answers, loggedCalls, runWorkers, withStartLine } from '../redis/support/worker-processes.js';
import { type CliServer, describeRun, startCli, writeProgram } from './support/processes.js';

const GUIDE = 'docs/guides/running-on-many-processes.md';
const ADMIN_KEY = 'e2e-redis-rate-budget-workers-01';
const nodeRedisWorker = readmeSnippet('Eight workers, one API key', 0, GUIDE);
const ioRedisWorker = readmeSnippet('Eight workers, one API key', 1, GUIDE);
const WORKERS = 8;
const CALLS_PER_WORKER = 30;
const WINDOW_MS = 3_000;

/** Runs the eight workers (four on each library) together; `during` runs alongside once they have started. */
const runEight = (cli: CliServer, redis: RedisServer, programs: string[], during?: () => Promise<void>) =>
  runWorkers(
    WORKERS,
    programs,
    { LINKGATE_BASE_URL: cli.url, LINKGATE_API_KEY: ADMIN_KEY, REDIS_URL: redis.url },
    during,
  );

describeWithRedis('eight worker processes sharing one API key through Redis', () => {
  let redis: RedisServer;
  let cli: CliServer | undefined;
  let programs: string[];
  beforeAll(async () => {
    redis = await startRedisServer();
    programs = [writeProgram(withStartLine(nodeRedisWorker)), writeProgram(withStartLine(ioRedisWorker))];
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    await cli?.stop();
    cli = undefined;
  });

  it('has the snippets the test runs, one per library', () => {
    expect(nodeRedisWorker).toContain("from 'redis'");
    expect(ioRedisWorker).toContain("from 'ioredis'");
    for (const worker of [nodeRedisWorker, ioRedisWorker]) {
      expect(worker).toContain('rateLimitStore: new RedisRateLimitStore({ client: redis })');
      expect(worker).toContain(
        'const accounts = await Promise.all(Array.from({ length: 30 }, () => client.account.get()));',
      );
    }
  });

  it('make 240 calls between them with no rate-limit answer, within 10 windows', async () => {
    cli = await startCli(['--rate-limit', '30/3s', '--seed', 'empty', '--admin-key', ADMIN_KEY]);
    const runs = await runEight(cli, redis, programs);
    for (const run of runs) {
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.stdout, describeRun(run)).toMatch(/^done 30$/m);
      expect(answers(run), describeRun(run)).toBe(0);
    }
    // Held by the shared budget, so the mock saw each call once: never refused, never retried.
    const calls = loggedCalls(cli);
    expect(calls).toHaveLength(WORKERS * CALLS_PER_WORKER);
    const span = Math.max(...calls) - Math.min(...calls);
    console.log(`240 calls of eight workers sharing one budget through Redis: ${span} ms from the first to the last`);
    // 240 at 30 per window is 8 windows: the last opens 7 windows after the first. Within 10 windows, each counted
    // as the client can know it: X-RateLimit-Reset is in whole seconds, rounded up, so a 3 s window may end for the
    // client up to 1 s later (measured: 31.7 s from the first call to the last, load average 11 on two cores).
    expect(span).toBeGreaterThanOrEqual(7 * WINDOW_MS - 1_000);
    expect(span).toBeLessThan(10 * (WINDOW_MS + 1_000));
  }, 180_000);

  it('each keeping its own budget in memory instead, run into rate-limit answers (the contrast)', async () => {
    cli = await startCli(['--rate-limit', '30/3s', '--seed', 'empty', '--admin-key', ADMIN_KEY]);
    const inMemory = [nodeRedisWorker, ioRedisWorker].map((worker) =>
      writeProgram(withStartLine(adapt(worker, 'rateLimitStore: new RedisRateLimitStore({ client: redis }),', ''))),
    );
    const runs = await runEight(cli, redis, inMemory);
    const total = runs.reduce((sum, run) => sum + answers(run), 0);
    console.log(`in-memory budgets: ${total} rate-limit answers, ${loggedCalls(cli).length} requests for 240 calls`);
    expect(total, runs.map(describeRun).join('\n')).toBeGreaterThan(0);
    // Every refused call was sent again: the mock saw more requests than calls.
    expect(loggedCalls(cli).length).toBeGreaterThan(WORKERS * CALLS_PER_WORKER);
  }, 180_000);

  it('finish every call when Redis is killed in the middle: each falls back to its share of the budget, says so, and shares again once Redis is back', async () => {
    cli = await startCli(['--rate-limit', '30/3s', '--seed', 'empty', '--admin-key', ADMIN_KEY]);
    const server = cli;
    let killedAt = 0;
    let restartedAt = 0;
    const runs = await runEight(cli, redis, programs, async () => {
      // Two windows into the job, Redis dies; two windows later it is back, empty.
      while (loggedCalls(server).length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      await new Promise((resolve) => setTimeout(resolve, 2 * WINDOW_MS));
      await redis.stop('SIGKILL');
      killedAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 2 * WINDOW_MS));
      await redis.restart();
      restartedAt = Date.now();
    });
    expect(restartedAt).toBeGreaterThan(killedAt);
    for (const run of runs) {
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.stdout, describeRun(run)).toMatch(/^done 30$/m);
    }
    // Redis died with work left for every worker: each still calling fell back, and said so through console.warn.
    const fellBack = runs.filter((run) =>
      /^RedisRateLimitStore: Redis .*; using this process's own budget until Redis answers again/m.test(run.stderr),
    );
    expect(fellBack.length, runs.map(describeRun).join('\n')).toBeGreaterThan(0);
    // Those still calling well after the restart shared through Redis again, and said so: the client reconnects
    // within its back-off (up to 2 s), the store tries Redis at its next call a second or more after the last failure.
    const back = 'RedisRateLimitStore: Redis answers again; the budget is shared through it again.';
    for (const run of fellBack)
      if (run.endedAt > restartedAt + 8_000) expect(run.stdout, describeRun(run)).toContain(back);
    expect(runs.some((run) => run.stdout.includes(back))).toBe(true);
    expect(loggedCalls(cli).length).toBeGreaterThanOrEqual(WORKERS * CALLS_PER_WORKER);
    const total = runs.reduce((sum, run) => sum + answers(run), 0);
    console.log(`Redis killed for 6 s: ${total} rate-limit answers, ${loggedCalls(cli).length} requests for 240 calls`);
  }, 180_000);
});
