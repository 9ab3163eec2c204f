// The fenced blocks of a markdown file, each with the heading it sits under and the marker on the line before it:
// `<!-- tested: test/path.test.ts -->` (a test runs it as written) or `<!-- sketch -->` (it is not run).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const root = fileURLToPath(new URL('../../../', import.meta.url));

/** One fenced block of a markdown file. */
export interface DocBlock {
  /** The file, relative to the root. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The text of the closest heading above it, without its `#`s. */
  heading: string;
  /** The fence's info string (`ts`, `sh`, `text`, or empty). */
  lang: string;
  /** The block's text between the fences, as written. */
  body: string;
  /** What the line before the fence says: tested by a test file, a sketch, or nothing. */
  marker: { tested: string } | { sketch: true } | undefined;
}

const TESTED = /^<!-- tested: (\S+) -->$/;

/** Every fenced block of `file` (relative to the root), in order. */
export function docBlocks(file: string): DocBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^(\s*)(```+)(.*)$/.exec(line);
    if (!fence) {
      if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '');
      continue;
    }
    const close = lines.findIndex((l, j) => j > i && l.trim() === fence[2]);
    const end = close < 0 ? lines.length : close;
    const before = (lines[i - 1] ?? '').trim();
    const tested = TESTED.exec(before);
    blocks.push({
      file,
      line: i + 1,
      heading,
      lang: fence[3]!.trim(),
      body: lines.slice(i + 1, end).join('\n'),
      marker: tested ? { tested: tested[1]! } : before === '<!-- sketch -->' ? { sketch: true } : undefined,
    });
    i = end;
  }
  return blocks;
}

/**
 * The block of `file` under the heading that starts with `heading` whose text contains `containing`; throws when
 * there is none, or more than one, so a test cannot run a block the docs no longer have.
 */
export function docBlock(file: string, heading: string, containing: string): DocBlock {
  const found = docBlocks(file).filter((b) => b.heading.startsWith(heading) && b.body.includes(containing));
  if (found.length !== 1) {
    throw new Error(`${file}: ${found.length} blocks under "${heading}" contain ${JSON.stringify(containing)}`);
  }
  return found[0]!;
}
