// The testing guide's snapshot snippet (docs/guides/testing-with-the-mock.md, "Keep the state") as users run it: a
// program of its own that must print what the guide says it holds and exit by itself.
import { describe, expect, it } from 'vitest';
import { readmeSnippet } from '../package/support/newcomer-project.js';
import { describeRun, runProgram } from './support/processes.js';

const GUIDE = 'docs/guides/testing-with-the-mock.md';

describe('the guide’s snapshot snippet, in its own node process', () => {
  it('takes a snapshot, resets, restores, and has carol back', async () => {
    const snippet = readmeSnippet('Keep the state: state files and snapshots', 0, GUIDE);
    expect(snippet).toContain('backend.restore(saved);');
    const result = await runProgram({ source: snippet }, { timeoutMs: 90_000 });
    expect(result.code, describeRun(result)).toBe(0);
    expect(result.stdout.trim()).toBe('carol@example.com');
  });
});
