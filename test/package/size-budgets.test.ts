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

  it('prints the figure beside its floor, measured in the same run, with the ratio', () => {
    const floor = { name: 'ky + zod/mini + one small schema', source: '' };
    expect(judgeSize(21.8, { ...budget, budgetKb: 22.3, targetKb: 16, floor }, 13).line).toBe(
      'app: 21.8 KB gzip (floor 13.0 KB, ky + zod/mini + one small schema: 1.68x); budget 22.3 KB kept; target 16 KB missed',
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
