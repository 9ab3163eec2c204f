import { afterAll, describe, expect, it } from 'vitest';
import { gzipped, removeWorkDir, withHost } from '../../bench/support/app-bundle.js';
import { hostOnKyAndZod } from '../../bench/support/floor-apps.js';
import { judgeSize, sizeBudgets } from '../../bench/support/size-budgets.js';

const limit = { budgetKb: 24.5, stretchKb: 20 };

describe('size budgets (npm run size)', () => {
  afterAll(removeWorkDir);

  it('fails a bundle over its budget and says MISS', () => {
    expect(judgeSize({ what: 'app', kb: 24.6, limit })).toEqual({
      ok: false,
      line: 'app: 24.6 KB gzip; budget <= 24.5 KB MISS; stretch <= 20 KB MISS',
    });
  });

  it('passes a bundle within its budget and reports the stretch goal apart, without failing on it', () => {
    expect(judgeSize({ what: 'app', kb: 24.5, limit }).ok).toBe(true);
    expect(judgeSize({ what: 'app', kb: 19.9, limit }).line).toBe(
      'app: 19.9 KB gzip; budget <= 24.5 KB PASS; stretch <= 20 KB PASS',
    );
    expect(judgeSize({ what: 'app', kb: 30, limit: { budgetKb: 31 } }).line).not.toContain('stretch');
    expect(judgeSize({ what: 'app', kb: 30 })).toEqual({ ok: true, line: 'app: 30.0 KB gzip' });
  });

  it('prints the floor measured in the same run beside the figure, with the ratio to it, and a note last', () => {
    const floor = { name: 'zod/mini and the schemas', kb: 8.5 };
    expect(judgeSize({ what: 'app', kb: 15.1, limit, floor, note: 'host 13.1 KB' }).line).toBe(
      'app: 15.1 KB gzip; budget <= 24.5 KB PASS; stretch <= 20 KB PASS; floor (zod/mini and the schemas) 8.5 KB, 1.78x; host 13.1 KB',
    );
  });

  it('measures an app added to a host as the host and the app bundled together, neither shaken out', async () => {
    const alone = (await gzipped(hostOnKyAndZod.source, 'test-host')).gz;
    const receiver = sizeBudgets.find((b) => b.name.startsWith('linkgate/webhooks'))!;
    const both = (await gzipped(withHost(hostOnKyAndZod.source, receiver.source, 'test-hosted'), 'test-hosted')).gz;
    const receiverAlone = (await gzipped(receiver.source, 'test-receiver')).gz;
    // Together more than either, less than both apart (they share zod/mini).
    expect(both).toBeGreaterThan(Math.max(alone, receiverAlone));
    expect(both).toBeLessThan(alone + receiverAlone);
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
