// `npm run changelog` (and `npm publish`, through prepublishOnly; never `npm pack`, which must leave the checkout as it
// is): writes the release notes of the version in package.json from the pending changesets in .changeset/, in
// `changeset version`'s format, above the sections of earlier versions. With no changeset pending (`npx changeset
// version` has consumed them) the file is left as it is.
// Run: node --import tsx scripts/changelog.ts
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** How much a changeset moves the version, as its front matter says. */
export type Bump = 'major' | 'minor' | 'patch';

/** One pending changeset of this package: its bump and its summary, as written. */
export interface PendingChange {
  /** The file under `.changeset/`. */
  file: string;
  bump: Bump;
  summary: string;
}

const HEADINGS: Record<Bump, string> = {
  major: 'Major Changes',
  minor: 'Minor Changes',
  patch: 'Patch Changes',
};

/**
 * Reads one changeset: front matter naming `packageName` and its bump, then the summary. Throws, naming the file,
 * when the front matter is missing or names no bump for the package, so a malformed changeset fails the pack.
 */
export function parseChangeset(file: string, text: string, packageName: string): PendingChange | undefined {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`.changeset/${file}: no front matter (--- "${packageName}": patch --- then a summary)`);
  const bumps = [...match[1]!.matchAll(/^\s*["']?([^"':\s]+)["']?\s*:\s*(major|minor|patch)\s*$/gm)];
  if (bumps.length === 0 && match[1]!.trim() !== '') {
    throw new Error(`.changeset/${file}: front matter names no package with major, minor or patch`);
  }
  const own = bumps.find((b) => b[1] === packageName);
  if (!own) return undefined;
  return { file, bump: own[2] as Bump, summary: match[2]!.trim() };
}

/** Every pending changeset for `packageName` in `dir`, by file name (the README there is not one). */
export function pendingChanges(dir: string, packageName: string): PendingChange[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .sort()
    .flatMap((f) => parseChangeset(f, readFileSync(join(dir, f), 'utf8'), packageName) ?? []);
}

/** A summary as one list item, as @changesets/cli/changelog writes it: first line after "- ", the rest indented. */
const releaseLine = (summary: string) => {
  const [first, ...rest] = summary.split('\n');
  return [`- ${first}`, ...rest.map((line) => (line.trim() === '' ? '' : `  ${line}`))].join('\n');
};

/** The section of `version`: a heading, then the changes grouped major, minor, patch. */
export function versionSection(version: string, changes: PendingChange[]): string {
  const groups = (['major', 'minor', 'patch'] as const)
    .map((bump) => ({ bump, lines: changes.filter((c) => c.bump === bump).map((c) => releaseLine(c.summary)) }))
    .filter((g) => g.lines.length > 0)
    .map((g) => `### ${HEADINGS[g.bump]}\n\n${g.lines.join('\n')}\n`);
  return `## ${version}\n\n${groups.join('\n')}`;
}

/**
 * The changelog with `version`'s section written from `changes`: it replaces that version's section if there is one,
 * keeps every other version's section below it, and drops any text before the first section but the title.
 */
export function writeChangelogText(
  current: string,
  packageName: string,
  version: string,
  changes: PendingChange[],
): string {
  if (changes.length === 0) return current;
  const sections = current.split(/^(?=## )/m).filter((s) => s.startsWith('## '));
  const earlier = sections.filter((s) => s.split('\n')[0]!.trim() !== `## ${version}`);
  return `${[`# ${packageName}`, versionSection(version, changes), ...earlier].map((s) => s.trimEnd()).join('\n\n')}\n`;
}

function main(): void {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  const file = join(root, 'CHANGELOG.md');
  const current = readFileSync(file, 'utf8');
  const changes = pendingChanges(join(root, '.changeset'), pkg.name);
  const next = writeChangelogText(current, pkg.name, pkg.version, changes);
  if (next !== current) writeFileSync(file, next);
  console.log(`changelog: ${changes.length} pending changesets as the notes of ${pkg.name}@${pkg.version}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
