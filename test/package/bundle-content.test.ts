// What an app's browser bundle carries when it imports `linkgate` as published: a messaging-only app pays for no
// management operation or schema (issue #23). Bundled like `npm run size` does, against the built entry.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appEntry, bundleText, removeWorkDir } from '../../bench/support/app-bundle.js';
import { buildShippedEntries } from '../../bench/support/package-build.js';
import { MANAGEMENT_OPERATIONS } from '../../src/schemas/operations.js';

// Words only the management schemas hold: a field of a record, a rule's message, a paging field, a pixel provider.
const MANAGEMENT_SCHEMA_WORDS = [
  'redirectroot',
  'uniqueClicks',
  'currentpage',
  'gtmpixel',
  'must be a colour in the form rgb(R,G,B)',
  'must be 4-20 letters, digits or underscores',
  'must be a date in the form YYYY-MM-DD HH:MM:SS',
];

/** Every management operation's id and path as string literals, and the schema words above. */
const managementMarkers = [
  ...MANAGEMENT_OPERATIONS.flatMap((op) => [`"${op.id}"`, `"${op.path}"`]),
  ...MANAGEMENT_SCHEMA_WORDS,
];

describe('bundles of apps importing the published linkgate entry', () => {
  let shipped: string;
  beforeAll(async () => {
    shipped = await buildShippedEntries();
  }, 120_000);
  afterAll(removeWorkDir);

  it('carries no management operation or schema in a MessagingClient app', async () => {
    const code = await bundleText(appEntry('messaging'), 'messaging', shipped);
    expect(code).toContain('"messages.send"');
    expect(managementMarkers.filter((marker) => code.includes(marker))).toEqual([]);
  }, 60_000);

  it('finds those markers in an app that calls every management resource, so their absence above means something', async () => {
    const code = await bundleText(appEntry('every-resource'), 'every-resource', shipped);
    expect(managementMarkers.filter((marker) => !code.includes(marker))).toEqual([]);
  }, 60_000);
});
