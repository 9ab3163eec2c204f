// Cold start of an SDK app on Node, step by step (bench/cold-start.bench.ts times whole apps against the floor of
// touching every fetch global): a fresh `node` that imports `linkgate` (built as published) and constructs a client,
// against the floor of a fresh `node` that reaches `fetch` (which the client calls). Target (issue #23): <= 1.5x the
// floor. Scripts in between show what each step costs: zod/mini alone (the one package linkgate loads), the import
// without the constructor. Median wall time of interleaved spawns, so a busy machine slows every variant alike.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './support/app-bundle.js';
import { buildShippedEntries } from './support/package-build.js';

const TARGET_RATIO = 1.5;
const RUNS = 21;

// Inside the repository, so the built entry resolves zod from its node_modules as an installed package would.
const workDir = join(root, '.tmp', 'cold-start-parts');
const construct = `new Linkgate({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9' });`;
const scripts: Record<string, string> = {
  'node alone': '',
  'node + fetch (floor)': `if (typeof fetch !== 'function') process.exit(1);`,
  'node + fetch + zod/mini': `await import('zod/mini'); if (typeof fetch !== 'function') process.exit(1);`,
  'node + import linkgate': `await import('./dist/index.js');`,
  'node + import linkgate + new Linkgate()': `const { Linkgate } = await import('./dist/index.js'); ${construct}`,
};

// The same steps timed inside one fresh process, in the order the import takes them: what each part costs.
const steps = `
const t = [performance.now()];
if (typeof fetch !== 'function') process.exit(1);
t.push(performance.now());
await import('zod/mini');
t.push(performance.now());
const { Linkgate } = await import('./dist/index.js');
t.push(performance.now());
${construct}
t.push(performance.now());
console.log(JSON.stringify(t.slice(1).map((x, i) => x - t[i])));
`;
const stepNames = ['fetch', 'zod/mini (its modules)', "linkgate's own modules", 'new Linkgate()'];

try {
  mkdirSync(workDir, { recursive: true });
  await buildShippedEntries(join(workDir, 'dist'));
  const files = Object.entries(scripts).map(([name, code], i) => {
    const file = join(workDir, `script-${i}.mjs`);
    writeFileSync(file, code);
    return { name, file, times: [] as number[] };
  });
  for (let run = 0; run < RUNS; run++) {
    for (const f of files) {
      const started = performance.now();
      const r = spawnSync(process.execPath, [f.file], { stdio: 'inherit' });
      if (r.status !== 0) throw new Error(`${f.name} exited with ${r.status ?? r.signal}`);
      f.times.push(performance.now() - started);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const floor = median(files[1]!.times);
  console.log(`Cold start, median of ${RUNS} interleaved spawns (ms):`);
  for (const f of files) {
    const m = median(f.times);
    console.log(`  ${f.name.padEnd(42)} ${m.toFixed(1).padStart(6)} ms  ${(m / floor).toFixed(2)}x the floor`);
  }
  const stepsFile = join(workDir, 'steps.mjs');
  writeFileSync(stepsFile, steps);
  const perStep: number[][] = stepNames.map(() => []);
  for (let run = 0; run < RUNS; run++) {
    const r = spawnSync(process.execPath, [stepsFile], { encoding: 'utf8' });
    for (const [i, ms] of (JSON.parse(r.stdout) as number[]).entries()) perStep[i]!.push(ms);
  }
  console.log('Inside one process, after node itself started (median ms):');
  for (const [i, name] of stepNames.entries()) {
    console.log(`  ${name.padEnd(42)} ${median(perStep[i]!).toFixed(1).padStart(6)} ms`);
  }
  const ratio = median(files.at(-1)!.times) / floor;
  console.log(`ratio ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}x) ${ratio <= TARGET_RATIO ? 'PASS' : 'MISS'}`);
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
