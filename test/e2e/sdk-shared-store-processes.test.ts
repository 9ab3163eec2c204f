// Several processes sharing one API key and one RateLimitStore, as users run them: two worker programs, each its own
// node process, fire 40 creates at once against the CLI's server with a short window; together they keep to the limit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Linkgate } from 'linkgate';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type CliServer,
  describeRun,
  type ProgramResult,
  runProgram,
  startCli,
  writeProgram,
} from './support/processes.js';

const ADMIN_KEY = 'e2e-shared-store-processes-key-01';

/**
 * A store a user writes for themselves: the program implements the `RateLimitStore` contract on a JSON file under a
 * lock directory (the MemoryRateLimitStore's rules, made atomic across processes), and fires its creates all at once,
 * as a worker with a batch would. The Redis store of `linkgate/redis` is proven the same way in
 * redis-rate-budget-workers.test.ts.
 */
const SHARED_STORE_PROGRAM = `
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Linkgate, type RateLimitStore } from 'linkgate';

class FileRateLimitStore implements RateLimitStore {
  constructor(private file: string) {}
  async #atomically<T>(change: (states: Record<string, RateLimitStore.State>) => T): Promise<T> {
    for (;;) {
      try {
        mkdirSync(this.file + '.lock');
        break;
      } catch {
        await sleep(1);
      }
    }
    try {
      let states: Record<string, RateLimitStore.State> = {};
      try { states = JSON.parse(readFileSync(this.file, 'utf8')); } catch {}
      const result = change(states);
      writeFileSync(this.file, JSON.stringify(states));
      return result;
    } finally {
      rmdirSync(this.file + '.lock');
    }
  }
  take(key: string, now: number, inFlight: number, assumed: RateLimitStore.AssumedWindow): Promise<RateLimitStore.TakeResult> {
    return this.#atomically((states) => {
      let state = states[key];
      if (!state || now >= state.resetAt) {
        const limit = Math.max(1, state?.limit ?? assumed.limit);
        state = states[key] = { limit, remaining: Math.max(0, limit - inFlight), resetAt: now + assumed.windowMs, provisional: true };
      }
      if (state.remaining <= 0) return { granted: false, state: { ...state } };
      state.remaining--;
      return { granted: true, state: { ...state } };
    });
  }
  observe(key: string, seen: RateLimitStore.Observation, inFlight: number, now: number): Promise<void> {
    return this.#atomically((states) => {
      const state = states[key];
      if (seen.resetAt <= now) {
        if (state?.provisional) state.remaining = Math.min(state.limit, state.remaining + 1);
        return;
      }
      let remaining = Math.max(0, seen.remaining - inFlight);
      if (!state || state.provisional || seen.resetAt > state.resetAt) {
        // The other worker's requests taken from the guessed window may not have reached the server yet.
        if (state?.provisional) remaining = Math.min(remaining, Math.max(0, state.remaining + seen.limit - state.limit));
        states[key] = { limit: seen.limit, remaining, resetAt: seen.resetAt, provisional: false };
      } else if (seen.resetAt === state.resetAt) {
        state.limit = seen.limit;
        state.remaining = Math.min(state.remaining, remaining);
      }
    });
  }
  block(key: string, resetAt: number): Promise<void> {
    return this.#atomically((states) => {
      const state = states[key];
      if (!state) states[key] = { limit: 30, remaining: 0, resetAt, provisional: false };
      else {
        state.remaining = 0;
        state.resetAt = state.provisional ? resetAt : Math.max(state.resetAt, resetAt);
        state.provisional = false;
      }
    });
  }
}

const who = process.env.WORKER!;
const client = new Linkgate({
  rateLimitStore: process.env.STORE_FILE ? new FileRateLimitStore(process.env.STORE_FILE) : undefined,
  onRateLimit: (e) => console.log('held (' + e.reason + ')'),
});
const creates = Array.from({ length: 40 }, (_, n) =>
  client.pixels.create({ type: 'gapixel', name: who + ' ' + n, tag: 'G-' + who + n }),
);
console.log('created ' + (await Promise.all(creates)).length);
`;

describe('a RateLimitStore shared by several processes', () => {
  let cli: CliServer | undefined;
  afterEach(async () => {
    await cli?.stop();
    cli = undefined;
  });

  it('keeps two workers of 40 concurrent creates to the limit together, held by the budget and never refused by the API', async () => {
    cli = await startCli(['--rate-limit', '30/3s', '--seed', 'empty', '--admin-key', ADMIN_KEY]);
    const storeFile = join(mkdtempSync(join(tmpdir(), 'linkgate-shared-store-')), 'budget.json');
    const env = { LINKGATE_BASE_URL: cli.url, LINKGATE_API_KEY: ADMIN_KEY, STORE_FILE: storeFile };
    const program = writeProgram(SHARED_STORE_PROGRAM);
    const [a, b] = await Promise.all(
      ['A', 'B'].map((worker) => runProgram({ file: program }, { env: { ...env, WORKER: worker }, timeoutMs: 90_000 })),
    );
    for (const run of [a, b] as ProgramResult[]) {
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.stdout, describeRun(run)).toMatch(/^created 40$/m);
      // Held by the shared budget before sending; never refused by the API, which is what sharing is for.
      expect(run.stdout).not.toContain('held (answer)');
    }
    expect(`${a?.stdout}${b?.stdout}`).toContain('held (budget)');
    // 80 requests at 30 per 3 s: three windows, so at least two waits of (nearly) a window.
    expect(Math.max(a?.ms ?? 0, b?.ms ?? 0)).toBeGreaterThanOrEqual(5_000);
    expect(Math.max(a?.ms ?? 0, b?.ms ?? 0)).toBeLessThan(75_000); // three windows, plus the seconds a loaded machine takes seconds to start node and tsx
    const pixels = await new Linkgate({ apiKey: ADMIN_KEY, baseUrl: cli.url }).pixels.list({ limit: 100 }).toArray();
    expect(pixels).toHaveLength(80);
    rmSync(dirname(storeFile), { recursive: true, force: true });
  });
});
