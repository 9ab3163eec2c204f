// A real redis-server for the tests (started by redis-process.ts). Tests that need it go through describeWithRedis,
// which skips loudly (saying why) only when the binary is missing.
import { describe } from 'vitest';
import { redisMissing } from './redis-process.js';

export {
  REDIS_SERVER_BINARY,
  type RedisServer,
  redisMissing,
  startRedisServer,
  waitAfterRestart,
} from './redis-process.js';

/**
 * `describe` for tests that need redis-server; when it is missing, the block is skipped and the reason printed, so a
 * run never passes silently without them.
 */
export function describeWithRedis(name: string, body: () => void): void {
  if (redisMissing) {
    console.warn(`\n!!! ${name}: SKIPPED because ${redisMissing}.\n!!! The Redis stores were NOT tested.\n`);
    describe.skip(name, body);
  } else {
    describe(name, body);
  }
}
