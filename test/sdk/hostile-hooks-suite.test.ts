// The reliability suite's hooks part (bench/reliability/hostile-hooks.ts) at CI size, so `npm test` keeps proving
// issue 21's findings stay fixed; `npm run reliability -- hooks` runs it at full size and prints every figure.
import { describe, expect, it } from 'vitest';
import { attackHooks } from '../../bench/reliability/hostile-hooks.js';
import { DEFAULT_SEED, failures, printReport } from '../../bench/reliability/report.js';

describe('hostile hooks (reliability suite, CI size)', () => {
  it('end every call within its bounds with the expected error, never show the key, never reach another origin', async () => {
    const report = await attackHooks({ size: 'ci', seed: DEFAULT_SEED });
    const lines: string[] = [];
    printReport(report, (line) => lines.push(line));
    expect(failures(report), lines.join('\n')).toEqual([]);
  }, 60_000);
});
