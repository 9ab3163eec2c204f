// Large state files for the end-to-end tests: the seed state a real server writes, grown as bench/reliability's
// state attacks grow it (bench/reliability/grown-state.ts), so a test starts `linkgate mock --state` on it.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { StateDoc } from '../../../bench/reliability/grown-state.js';
import { startCli } from './processes.js';

export { writeGrownState } from '../../../bench/reliability/grown-state.js';

/** The seed state a server writes at its first start (`--seed demo`), parsed. */
export async function seedState(file: string): Promise<StateDoc> {
  const cli = await startCli(['--seed', 'demo', '--quiet', '--state', file]);
  expect(await cli.stop()).toBe(0);
  return JSON.parse(readFileSync(file, 'utf8')) as StateDoc;
}
