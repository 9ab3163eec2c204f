// Issue #31.12, as it was found: six worker processes share one budget through Redis against `linkgate mock
// --rate-limit 30/6s`; one of them, on ioredis, sends 3 calls in the first window, then idles until redis-server is
// killed (partway into a window the others are spending) and then goes on. No worker may get a rate-limit answer: on
// their own budgets, none may spend what the server's window in progress no longer has. The arrangement (real
// processes, the CLI's server, a real redis-server killed mid-run) is bench/reliability/redis-idle-worker.ts, which
// `npm run reliability` runs too.
import { expect, it } from 'vitest';
import { IDLE_ARRANGEMENT, idleWorkerAfterRedisDies } from '../../bench/reliability/redis-idle-worker.js';
import { describeWithRedis } from './support/redis-server.js';
import { restartRedisAfterEach, useRedisServer } from './support/redis-suite.js';

const describeRun = (w: { code: number | null; stdout: string; stderr: string }) =>
  `exit ${w.code}\nstdout:\n${w.stdout}\nstderr:\n${w.stderr}`;

describeWithRedis('six workers sharing one budget through Redis, one idle on ioredis when Redis dies', () => {
  const redis = useRedisServer();
  restartRedisAfterEach(redis);

  it('get no rate-limit answer once Redis is gone, the idle worker included', async () => {
    const run = await idleWorkerAfterRedisDies(redis);
    console.log(
      `Redis killed partway into window 3: calls per window ${run.perWindow.join(', ')}; answers per worker (the idle one first): ${run.workers.map((w) => w.answers).join(', ')}`,
    );
    for (const worker of run.workers) {
      expect(worker.code, describeRun(worker)).toBe(0);
      expect(worker.stdout, describeRun(worker)).toMatch(/^done \d+$/m);
    }
    expect(
      run.workers.map((w) => w.answers),
      run.workers.map(describeRun).join('\n'),
    ).toEqual([0, 0, 0, 0, 0, 0]);
    expect(Math.max(...run.perWindow)).toBeLessThanOrEqual(IDLE_ARRANGEMENT.limit);
    // Never refused, never retried: the mock saw each call once.
    expect(run.calls).toBe(run.expectedCalls);
  }, 200_000);
});
