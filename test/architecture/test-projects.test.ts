// Every test file runs in exactly one project of vitest.config.ts: a file no project includes would never run, one in
// two would run twice. The projects go by folder, so this fails only when a new test folder needs a project.
import { globSync } from 'node:fs';
import { matchesGlob } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROJECTS } from '../../vitest.config.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('the test projects', () => {
  it('hold every test file exactly once', () => {
    const files = globSync(['test/**/*.test.ts', 'examples/**/*.test.ts'], {
      cwd: root,
      exclude: ['**/node_modules/**'],
    });
    expect(files.length).toBeGreaterThan(100);
    const homeless: string[] = [];
    const twice: string[] = [];
    for (const file of files) {
      const projects = Object.entries(PROJECTS).filter(([, globs]) => globs.some((glob) => matchesGlob(file, glob)));
      if (projects.length === 0) homeless.push(file);
      if (projects.length > 1) twice.push(`${file}: ${projects.map(([name]) => name).join(', ')}`);
    }
    expect(homeless, 'test files no project of vitest.config.ts includes').toEqual([]);
    expect(twice, 'test files in more than one project').toEqual([]);
  });

  it('keep the processes, browsers, runtimes and servers out of the unit project', () => {
    for (const folder of [
      'test/e2e',
      'test/docs/snippets',
      'test/browser',
      'test/runtimes',
      'test/redis',
      'test/package',
    ]) {
      expect(PROJECTS.unit.some((glob) => glob.startsWith(folder))).toBe(false);
    }
  });
});
