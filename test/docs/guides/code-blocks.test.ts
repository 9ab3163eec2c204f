// Every command, program and output block of the README and the guides is either run by a test as written or marked
// as a sketch, so a reader knows which examples are proved: the line before each fence says
// `<!-- tested: test/path.test.ts -->` or `<!-- sketch -->`. A `tested:` test must exist and must read that very
// block: it names the markdown file and holds the block's heading (as `readmeSnippet('heading', ...)` does), a
// distinctive line of the block, or its first line.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type DocBlock, docBlocks, root } from '../support/doc-blocks.js';

const DOCS = [
  'README.md',
  ...readdirSync(join(root, 'docs/guides'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/guides/${f}`),
];
const blocks = DOCS.flatMap((file) => docBlocks(file));
const where = (b: DocBlock) => `${b.file}:${b.line} (under "${b.heading}")`;

/** The quoted strings of a test's source, line by line: what it can find a block by. */
const literals = (source: string) =>
  source
    .split('\n')
    .flatMap((line) => [...line.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\$]|\\.)*)`/g)])
    .map((m) => (m[1] ?? m[2] ?? m[3]!).replace(/\\(.)/g, '$1'));

/** Whether `source` (a test file) reads `block`: it names the block's file and finds the block by a text of it. */
function reads(source: string, block: DocBlock): boolean {
  const name = block.file === 'README.md' ? 'README' : basename(block.file);
  if (!source.includes(name)) return false;
  const firstLine = block.body
    .split('\n')
    .find((l) => l.trim() !== '')!
    .trim();
  if (source.includes(firstLine)) return true;
  return literals(source).some(
    (text) => (text.length >= 5 && block.heading.startsWith(text)) || (text.length >= 12 && block.body.includes(text)),
  );
}

describe('the code blocks of the README and the guides', () => {
  it('finds the blocks it checks', () => {
    expect(blocks.filter((b) => b.file === 'README.md').length).toBeGreaterThan(8);
    expect(DOCS).toContain('docs/guides/webhooks.md');
  });

  it('are each marked as run by a test or as a sketch, on the line before the fence', () => {
    expect(blocks.filter((b) => b.marker === undefined).map(where)).toEqual([]);
  });

  it('name, when tested, a test file that exists and reads that block', () => {
    const wrong = blocks.flatMap((b) => {
      if (!b.marker || !('tested' in b.marker)) return [];
      const test = join(root, b.marker.tested);
      if (!/^test\/.+\.test\.ts$/.test(b.marker.tested) || !existsSync(test)) {
        return [`${where(b)}: no test file ${b.marker.tested}`];
      }
      return reads(readFileSync(test, 'utf8'), b) ? [] : [`${where(b)}: ${b.marker.tested} does not read it`];
    });
    expect(wrong).toEqual([]);
  });

  it('include every quick start of the README among the tested ones', () => {
    const quickStart = blocks.filter((b) => b.file === 'README.md' && /^\d\. /.test(b.heading));
    expect(quickStart.length).toBe(6);
    expect(quickStart.filter((b) => !(b.marker && 'tested' in b.marker)).map(where)).toEqual([]);
  });
});
