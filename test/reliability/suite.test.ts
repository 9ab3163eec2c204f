// The reliability suite of issue 11 at CI size with its fixed seed, so `npm test` (and .ci/run) keeps proving the
// findings stay fixed. `npm run reliability` runs the same parts at full size and prints every figure.
import { describe, expect, it } from 'vitest';
import { attackGateway } from '../../bench/reliability/faulty-receivers.js';
import { attackReceivers } from '../../bench/reliability/hostile-deliveries.js';
import { attackSdk } from '../../bench/reliability/hostile-servers.js';
import { fuzzMockApi } from '../../bench/reliability/mock-api-fuzz.js';
import { DEFAULT_SEED, failures, type PartReport, printReport } from '../../bench/reliability/report.js';

const ci = { size: 'ci', seed: DEFAULT_SEED } as const;

/** The whole report, attached to a failing assertion so the figures come with it. */
function figures(report: PartReport): string {
  const lines: string[] = [];
  printReport(report, (line) => lines.push(line));
  return lines.join('\n');
}

describe('reliability suite (CI size, fixed seed)', () => {
  it('fuzzing every field of the mock over HTTP gives no 5xx, no state changed by a refusal, no pollution, no request over 100 ms', async () => {
    const report = await fuzzMockApi(ci);
    expect(failures(report), figures(report)).toEqual([]);
  });

  it('both receiver adapters accept no forgery, refuse before reading, and leave no request hanging or memory growing', async () => {
    const report = await attackReceivers(ci);
    expect(failures(report), figures(report)).toEqual([]);
  });

  it('the SDK ends every hostile answer with its typed error, in bounded time and memory, and never follows another origin', async () => {
    const report = await attackSdk(ci);
    expect(failures(report), figures(report)).toEqual([]);
  });

  it('faulty receivers lose no event through the gateway, and open circuits hold exactly', async () => {
    const report = await attackGateway(ci);
    expect(failures(report), figures(report)).toEqual([]);
  });
});
