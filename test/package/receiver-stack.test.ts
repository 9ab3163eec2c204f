// The receiver validates with zod, the design's package for it (#30): bundled as an app ships it, against the package
// as built, the receiver app (bench/apps/webhook-receiver.ts) carries zod's code in both builds of linkgate/webhooks
// that the package's exports give (browsers and edges: zod/mini as written; Node: the same schemas compiled by zod).
// A receiver that validated by other means would carry no zod and fail here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appEntry, bundleText, type Platform, removeWorkDir, webhooksFile } from '../../bench/support/app-bundle.js';
import { buildShippedEntries } from '../../bench/support/package-build.js';

// Strings minifying keeps that only zod holds: the name its schema constructor gives the object schema class (zod's
// own $constructor), the type name of its issue list error, and the symbol its compiled parsers answer with.
const ZOD_OBJECT_SCHEMA = '"$ZodObject"';
const ZOD_ERROR = '"$ZodError"';
const ZOD_COMPILER = 'zod.compile.invalid';

describe('the receiver app, bundled against linkgate/webhooks as built', () => {
  let shipped: string;
  const bundles = new Map<Platform, string>();
  beforeAll(async () => {
    shipped = await buildShippedEntries();
    for (const platform of ['browser', 'node'] as const) {
      bundles.set(platform, await bundleText(appEntry('webhook-receiver'), `receiver-${platform}`, shipped, platform));
    }
  }, 120_000);
  afterAll(removeWorkDir);

  it('loads each build the package exports give (browser: webhooks.js; node: webhooks.node.js)', () => {
    expect(webhooksFile('browser')).toBe('webhooks.js');
    expect(webhooksFile('node')).toBe('webhooks.node.js');
  });

  it.each(['browser', 'node'] as const)('carries zod’s schemas and parser on %s', (platform) => {
    const code = bundles.get(platform)!;
    expect(code).toContain(ZOD_OBJECT_SCHEMA);
    expect(code).toContain(ZOD_ERROR);
  });

  it('carries zod’s compiler on Node only, which the Node build parses with', () => {
    expect(bundles.get('node')).toContain(ZOD_COMPILER);
    expect(bundles.get('browser')).not.toContain(ZOD_COMPILER);
  });
});
