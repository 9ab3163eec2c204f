// The README's links to the repository's own files work in a checkout without a network, and on npm, which resolves
// relative links against package.json's `repository`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from './support/newcomer-project.js';

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { repository: { url: string } };
/** owner/name of the repository package.json names. */
const repo = /github\.com[/:]([^/]+\/[^/.]+)/.exec(pkg.repository.url)![1]!;

/** Every inline link and image target of the README, outside code blocks and code spans. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

describe('README links to files of this repository', () => {
  const targets = linkTargets(readme);

  it('finds the links it checks', () => {
    expect(targets.filter((t) => t.startsWith('docs/')).length).toBeGreaterThan(5);
  });

  it('are relative, never absolute URLs of the repository on GitHub', () => {
    const absolute = targets.filter((t) =>
      new RegExp(`^https?://(?:github\\.com|raw\\.githubusercontent\\.com)/${repo}/`, 'i').test(t),
    );
    expect(absolute).toEqual([]);
  });

  it('name files that exist, and headings that exist in them', () => {
    const local = targets.filter((t) => !/^[a-z]+:/i.test(t) && !t.startsWith('#'));
    const broken = local.filter((t) => {
      const [path, anchor] = t.split('#') as [string, string | undefined];
      const file = join(root, decodeURIComponent(path));
      if (!existsSync(file)) return true;
      if (!anchor || !file.endsWith('.md')) return false;
      const headings = readFileSync(file, 'utf8').match(/^#{1,6} .*$/gm) ?? [];
      return !headings.some((h) => slug(h.replace(/^#+ /, '')) === anchor);
    });
    expect(broken).toEqual([]);
  });
});
