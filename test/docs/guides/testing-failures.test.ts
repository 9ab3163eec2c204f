// docs/guides/testing-failures.md, run as written: its vitest suite in a vitest of its own, its plan file given to
// `linkgate mock --faults` in its own process, and its Python client (python3, standard library) against that server,
// twice, each output compared with the guide's.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root, spawnNode } from '../../e2e/support/processes.js';
import { runCommand as run } from '../../e2e/support/run-command.js';

const GUIDE = 'docs/guides/testing-failures.md';
const MARK = `<!-- tested: test/docs/guides/testing-failures.test.ts -->`;

/** The guide's fenced blocks marked as run by this test, in order: [info string, text]. */
function testedBlocks(): [string, string][] {
  const lines = readFileSync(join(root, GUIDE), 'utf8').split('\n');
  const blocks: [string, string][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== MARK) continue;
    const info = /^```(\w*)$/.exec(lines[i + 1] ?? '')?.[1];
    if (info === undefined) throw new Error(`${GUIDE}:${i + 2}: a marked line not followed by a fence`);
    const end = lines.indexOf('```', i + 2);
    blocks.push([info, lines.slice(i + 2, end).join('\n')]);
  }
  return blocks;
}

const [suite, suiteOutput, plan, serverCommand, bannerLine, python, pythonCommand, pythonOutput] = testedBlocks() as [
  string,
  string,
][];
const tmp = join(root, '.tmp');
mkdirSync(tmp, { recursive: true });
const dir = mkdtempSync(join(tmp, 'guide-testing-failures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plain = (text: string) =>
  text
    // biome-ignore lint/suspicious/noControlCharactersInRegex: colour codes of the reporter
    .replace(/\x1b\[[0-9;]*m/g, '')
    .replace(/ \d+(\.\d+)?m?s$/gm, '')
    .replace(/\s+$/gm, '');

/** The guide's three uses, each a section whose blocks this test runs. */
const SECTIONS = [
  '1. In a vitest suite, in-process',
  '2. In CI, from a plan file',
  '3. From another language, over HTTP',
];

describe(GUIDE, () => {
  it('has the blocks this test runs, in order, under its three sections', () => {
    const guide = readFileSync(join(root, GUIDE), 'utf8');
    for (const section of SECTIONS) expect(guide).toContain(`\n## ${section}\n`);
    expect(
      [suite, suiteOutput, plan, serverCommand, bannerLine, python, pythonCommand, pythonOutput].map((b) => b![0]),
    ).toEqual(['ts', 'text', 'json', 'sh', 'text', 'python', 'sh', 'text']);
  });

  it('the vitest suite passes as written and prints what the guide shows', async () => {
    const at = join(dir, 'vitest');
    mkdirSync(at);
    writeFileSync(join(at, 'faults.test.ts'), suite![1]);
    // The repository's aliases (`linkgate`, `linkgate/mock` to the sources), nothing else of its projects.
    writeFileSync(
      join(at, 'vitest.config.ts'),
      `import base from ${JSON.stringify(join(root, 'vitest.config.ts'))};\nexport default { resolve: base.resolve, test: { include: ['faults.test.ts'] } };\n`,
    );
    const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
    const result = await run(process.execPath, [vitest, 'run', '--root', at, '--reporter=verbose'], { cwd: at });
    const out = plain(result.out);
    expect(result.code, out).toBe(0);
    for (const line of plain(suiteOutput![1]).split('\n')) expect(out).toContain(line.trim());
  }, 120_000);

  it('the plan arms at start, and the Python client prints the guide’s lines, the same in two runs', async () => {
    writeFileSync(join(dir, 'plan.json'), plan![1]);
    writeFileSync(join(dir, 'retry.py'), python![1]);
    // `npx linkgate mock ...` from the sources, on a free port.
    const args = serverCommand![1]
      .trim()
      .replace(/^npx linkgate /, '')
      .replace('--port 4010', '--port 0')
      .split(/\s+/);
    const [, env, script] = /^(\w+=\S+) python3 (\S+)$/.exec(pythonCommand![1].trim())!;
    const [name, value] = env!.split('=') as [string, string];
    const outputs: string[] = [];
    for (let round = 0; round < 2; round++) {
      const server = spawnNode([join(root, 'mock', 'cli.ts'), ...args], { cwd: dir });
      const [, url] = await server.printed(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      await server.printed(/faults: .*\n/);
      expect(server.out()).toContain(`${bannerLine![1]}\n`);
      const client = await run('python3', [script!], { cwd: dir, env: { [name]: value, LINKGATE_BASE_URL: url! } });
      server.child.kill('SIGTERM');
      await server.exited;
      expect(client.code, client.out).toBe(0);
      outputs.push(client.out);
    }
    expect(outputs[0]).toBe(`${pythonOutput![1]}\n`);
    expect(outputs[1]).toBe(outputs[0]);
  }, 120_000);
});
