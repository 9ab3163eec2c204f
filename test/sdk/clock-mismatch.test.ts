import { RateLimitError } from 'linkgate';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/shared/clock.js';
import { rejectionOf, useMockApi } from './support/harness.js';

describe('a ManualClock given to the mock but not to the client', () => {
  const ctx = useMockApi();

  it('fails the first rate-limited call at once with a message naming the fix, instead of waiting on a clock that never moves', async () => {
    const warnings: string[] = [];
    const client = ctx.client({
      clock: systemClock,
      logger: { warn: (line: string) => warnings.push(line), info() {}, debug() {}, error() {} },
    });
    for (let i = 0; i < 30; i++) await client.account.get();
    const started = performance.now();
    const error = await rejectionOf(client.account.get());
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toMatch(/Server and client clocks differ by about \d+ h/);
    expect((error as Error).message).toMatch(/pass the same clock to the client: new Linkgate\(\{ clock \}\)/);
    // Said once, where a logger is given, as soon as it shows.
    expect(warnings.filter((w) => /clocks differ/.test(w))).toHaveLength(1);
  });
});

describe('a ManualClock given to the client but not to the mock', () => {
  const ctx = useMockApi(() => ({ clock: systemClock }));

  it('fails a rate-limited call at once naming the fix, instead of waiting for a manual clock nobody moves', async () => {
    const client = ctx.client();
    for (let i = 0; i < 30; i++) await client.account.get();
    const error = await rejectionOf(client.account.get());
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as Error).message).toMatch(/pass the same clock to the client/);
  });
});
