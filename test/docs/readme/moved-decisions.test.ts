// The design log moved out of the README into docs/decisions/, one file per decision, and nothing was lost on the way:
// every decision of the README's former "Decisions" section (frozen in old-decisions.json as it stood at commit
// f2b7826) is in its own file, word for word, and the index lists every file and names no file that is missing.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import old from './old-decisions.json' with { type: 'json' };

const root = join(import.meta.dirname, '../../..');
const folder = join(root, 'docs/decisions');
const index = readFileSync(join(folder, 'README.md'), 'utf8');

/** The only words changed on the move: the README said "the spec", a file readers of the repository cannot open. */
const REWRITES: [string, string][] = [
  ["the spec's ", "the service's "],
  ['a spec path', 'a path of the service'],
  ['the spec ', "the service's description "],
];
const rewritten = (text: string) => REWRITES.reduce((t, [from, to]) => t.split(from).join(to), text);

/** A markdown file's `## name` section, without its heading. */
function section(markdown: string, name: string): string | undefined {
  const match = new RegExp(`^## ${name}\\n([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, 'm').exec(markdown);
  return match?.[1]?.trim();
}

const decisionFiles = readdirSync(folder).filter((f) => f.endsWith('.md') && f !== 'README.md');
/** The files the index links to, in order. */
const indexed = [...index.matchAll(/^- \[[^\]]*\]\(([^)#]+\.md)\)/gm)].map((m) => m[1]!);

describe('the design log in docs/decisions/', () => {
  it('holds every decision of the old README, each in a file titled as frozen, word for word', () => {
    expect(old.decisions.length).toBe(126);
    const lost = old.decisions.filter((d) => {
      const file = join(folder, d.file);
      if (!existsSync(file)) return true;
      const text = readFileSync(file, 'utf8');
      return text.split('\n')[0] !== `# ${d.title}` || !section(text, 'Decision')?.includes(rewritten(d.text));
    });
    expect(lost.map((d) => d.file)).toEqual([]);
  });

  it('gives every decision file a title, its context, the decision and what it costs', () => {
    const incomplete = decisionFiles.filter((f) => {
      const text = readFileSync(join(folder, f), 'utf8');
      return (
        !/^# \S/.test(text) || !['Context', 'Decision', 'What it costs'].every((s) => (section(text, s) ?? '') !== '')
      );
    });
    expect(incomplete).toEqual([]);
  });

  it("keeps the old README's groups as the index's headings", () => {
    const headings = index.match(/^## .*$/gm)!.map((h) => h.slice(3));
    expect(old.groups.filter((g) => !headings.includes(g))).toEqual([]);
  });

  it('indexes every file, and every file the index names exists', () => {
    expect(decisionFiles.filter((f) => !indexed.includes(f))).toEqual([]);
    expect(indexed.filter((f) => !existsSync(join(folder, f)))).toEqual([]);
  });

  it('marks a superseded decision in its file and in the index, naming what replaced it', () => {
    for (const [file, by] of [
      ['sdk-own-transport.md', 'sdk-sends-through-ky.md'],
      ['receiver-carries-no-zod.md', 'receiver-validates-with-zod.md'],
      ['changelog-at-pack-time.md', 'changelog-written-on-publish.md'],
    ]) {
      expect(readFileSync(join(folder, file!), 'utf8')).toMatch(new RegExp(`Superseded by \\[[^\\]]+\\]\\(${by}\\)`));
      const line = index.split('\n').find((l) => l.includes(`](${file})`));
      expect(line).toMatch(new RegExp(`Superseded by \\[[^\\]]+\\]\\(${by}\\)`));
    }
  });

  it('is no longer in the README, which links to it instead', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).not.toMatch(/^## Decisions/m);
    expect(readme).toContain('(docs/decisions/README.md)');
  });
});
