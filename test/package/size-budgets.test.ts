import { afterAll, describe, expect, it } from 'vitest';
import { gzipped, removeWorkDir } from '../../bench/support/app-bundle.js';
import { judgeSize, type SizeBudget, sizeBudgets } from '../../bench/support/size-budgets.js';

const budget: SizeBudget = { name: 'app', source: '', budgetKb: 24.5, targetKb: 20 };

describe('size budgets (npm run size)', () => {
  afterAll(removeWorkDir);

  it('fails a bundle over its budget and says so', () => {
    expect(judgeSize(24.6, budget)).toEqual({
      ok: false,
      line: 'app: 24.6 KB gzip; budget 24.5 KB EXCEEDED; target 20 KB missed',
    });
  });

  it('passes a bundle within its budget and reports the target separately', () => {
    expect(judgeSize(24.5, budget).ok).toBe(true);
    expect(judgeSize(19.9, budget).line).toBe('app: 19.9 KB gzip; budget 24.5 KB kept; target 20 KB met');
    expect(judgeSize(30, { ...budget, targetKb: undefined }).line).not.toContain('target');
  });

  it('prints the floor measured in the same run beside the figure, with the ratio to it', () => {
    const withFloor = { ...budget, floor: { name: 'zod/mini and the schemas', source: '' } };
    expect(judgeSize(15.1, withFloor, 8.5).line).toBe(
      'app: 15.1 KB gzip; budget 24.5 KB kept; target 20 KB met; floor (zod/mini and the schemas) 8.5 KB, 1.78x',
    );
  });

  it.each(sizeBudgets.map((b, i) => [b.name, b, i] as const))(
    'bundles %s for the browser, with no Node built-ins',
    async (_name, entry, i) => {
      // platform: 'browser' makes esbuild fail on any node:* import, so this also guards the isomorphic claim.
      const { gz, raw } = await gzipped(entry.source, `test-budget-${i}`);
      expect(gz).toBeGreaterThan(1024);
      expect(raw).toBeGreaterThan(gz);
    },
  );
});
