// The repository's markdown (the README, CONTRIBUTING, the guides, the decisions, every other *.md outside
// node_modules) links only to files of this repository that exist, and to headings that exist in them, so a reader of a
// checkout, of GitHub or of npm (which resolves relative links against package.json's `repository`) can open each one.
// Nothing points at files outside the repository, such as the service's working notes it was built from.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../runtimes/support/runtime-install.js';
import { root } from './support/newcomer-project.js';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { repository: { url: string } };
/** owner/name of the repository package.json names. */
const repo = /github\.com[/:]([^/]+\/[^/.]+)/.exec(pkg.repository.url)![1]!;

/** Every markdown file git has or would add (tracked, or new and not ignored), relative to the root. */
async function markdownFiles(): Promise<string[]> {
  const run = await runCommand('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '*.md'], {
    cwd: root,
    env: process.env,
    timeoutMs: 30_000,
  });
  if (run.code !== 0) throw new Error(`git ls-files failed: ${run.stderr}`);
  return run.stdout
    .split('\0')
    .filter((f) => f.endsWith('.md') && !f.split('/').includes('node_modules') && existsSync(join(root, f)));
}

/** Every inline link and image target of a markdown text, outside code blocks and code spans. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^\s*```[\s\S]*?^\s*```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The headings of a markdown file, as GitHub anchors. */
const anchors = (file: string) =>
  (readFileSync(file, 'utf8').match(/^#{1,6} .*$/gm) ?? []).map((h) => slug(h.replace(/^#+ /, '')));

describe("the repository's markdown links only to files of the repository", async () => {
  const files = await markdownFiles();
  const links = files.flatMap((file) =>
    linkTargets(readFileSync(join(root, file), 'utf8')).map((target) => ({ file, target })),
  );

  it('finds the files and links it checks', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/service.md']));
    expect(links.filter((l) => l.file === 'README.md' && l.target.startsWith('docs/')).length).toBeGreaterThan(5);
  });

  it('are relative, never absolute URLs of the repository on GitHub', () => {
    const absolute = links.filter((l) =>
      new RegExp(`^https?://(?:github\\.com|raw\\.githubusercontent\\.com)/${repo}/`, 'i').test(l.target),
    );
    expect(absolute).toEqual([]);
  });

  it('name files that exist inside the repository, and headings that exist in them', () => {
    const broken = links.filter(({ file, target }) => {
      if (/^[a-z]+:/i.test(target)) return false;
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const resolved = path === '' ? join(root, file) : join(root, dirname(file), decodeURIComponent(path));
      if (relative(root, resolved).startsWith('..') || !existsSync(resolved)) return true;
      if (!anchor || !resolved.endsWith('.md')) return false;
      return !anchors(resolved).includes(anchor);
    });
    expect(broken).toEqual([]);
  });

  it('never sends readers to the working notes the service was described in (shared/spec), which are not here', () => {
    const mentions = files.filter((f) =>
      /shared\/spec|observed-behaviour\.md/.test(readFileSync(join(root, f), 'utf8')),
    );
    expect(mentions).toEqual([]);
  });
});
