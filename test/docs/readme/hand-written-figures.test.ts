// Figures that change with every commit are not written by hand in the pages people read: the README once said
// "1,506 tests" (there were 1,811) and "2.1 MB unpacked" (it was 2.4). Test counts are left out; the package's size is
// measured by `npm run size` and held by test/package/pack.test.ts, not quoted in prose.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  'docs/service.md',
  ...readdirSync(join(root, 'docs/guides')).map((f) => `docs/guides/${f}`),
];

/** The figures that went stale: a count of tests, and the unpacked size of the package. */
const STALE_KINDS: [string, RegExp][] = [
  ['a count of tests', /\b\d[\d,]* (?:tests|test files)\b/],
  ['the package size', /\b\d+(?:\.\d+)? ?[KM]B unpacked\b|\bunpacked (?:size )?(?:of|is) \d/],
];

describe('the pages people read', () => {
  it('write no count of tests and no package size by hand', () => {
    const found = PAGES.flatMap((page) => {
      const text = readFileSync(join(root, page), 'utf8');
      return STALE_KINDS.filter(([, pattern]) => pattern.test(text)).map(([kind]) => `${page}: ${kind}`);
    });
    expect(found).toEqual([]);
  });

  it('would catch the figures the README used to have', () => {
    const old =
      'npm test runs them all: 1,506 tests in 4 min 54 s. No source maps (2.1 MB unpacked instead of 6.3 MB).';
    expect(STALE_KINDS.filter(([, pattern]) => pattern.test(old)).length).toBe(2);
  });
});
