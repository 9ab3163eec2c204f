// A recording's `variants` key as `linkgate mock --fixture` reads it before the server is made: the names it switches
// on, none without the key, and a sentence naming the field and the known variants for a bad entry.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFixtureVariants } from '../../mock/cli/state-file.js';

const dir = mkdtempSync(join(tmpdir(), 'linkgate-recording-variants-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
};

describe('readFixtureVariants', () => {
  it("reads a recording's variants in the mock's order, and none from a fixture without the key", () => {
    expect(readFixtureVariants(file('two.json', { users: [], variants: ['stringIds', 'overlayCollection'] }))).toEqual([
      'overlayCollection',
      'stringIds',
    ]);
    expect(readFixtureVariants(file('none.json', { users: [] }))).toEqual([]);
  });

  it('refuses an unknown name or a value that is not a list, naming the field and the known variants', () => {
    const unknown = file('unknown.json', { variants: ['stringIDs'] });
    expect(() => readFixtureVariants(unknown)).toThrow(
      `The fixture ${unknown} was not loaded: variants unknown variant "stringIDs"; the known variants are overlayCollection, stringIds, negativeRemaining, perAttemptDeliveryIds.`,
    );
    const text = file('text.json', { variants: 'stringIds' });
    expect(() => readFixtureVariants(text)).toThrow(
      `The fixture ${text} was not loaded: variants must be a list of variant names; the known variants are overlayCollection, stringIds, negativeRemaining, perAttemptDeliveryIds.`,
    );
  });
});
