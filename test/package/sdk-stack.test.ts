// The SDK is on its stack (#30): each SDK app's browser bundle, built against the published entry as `npm run size`
// builds it, carries ky's own code (the SDK sends through ky, so a transport of its own would show here as ky's code
// missing), and the package depends on ky and zod and nothing else.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appEntry, bundleText, removeWorkDir, root } from '../../bench/support/app-bundle.js';
import { buildShippedEntries } from '../../bench/support/package-build.js';

// Text only ky's sources hold: its NetworkError's message (ky tells network failures apart for the SDK) and the
// check its constructor makes on every request's options. Minifying keeps string literals.
const KY_MARKERS = ['Request failed due to a network error', 'The `prefixUrl` option has been renamed `prefix` in v2'];

describe('the SDK apps, bundled against the published linkgate entry', () => {
  let shipped: string;
  beforeAll(async () => {
    shipped = await buildShippedEntries();
  }, 120_000);
  afterAll(removeWorkDir);

  for (const app of ['messaging', 'one-call', 'every-resource']) {
    it(`${app} carries ky’s code`, async () => {
      const code = await bundleText(appEntry(app), app, shipped);
      expect(KY_MARKERS.filter((marker) => !code.includes(marker))).toEqual([]);
    }, 60_000);
  }
});

describe('the package', () => {
  it('depends on ky and zod, nothing else', () => {
    const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['ky', 'zod']);
    expect(pkg.dependencies.ky).toMatch(/^\^2\./);
  });
});
