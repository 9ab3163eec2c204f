// Cold start of an SDK app on Node to its first answer, step by step (bench/cold-start.bench.ts times whole apps): a
// fresh `node` that imports `linkgate` (built as published), constructs a client and makes one call to a loopback
// server, against the floor of a fresh `node` making the same call by hand with ky and a zod/mini schema (the stack
// the SDK is on; both sides load it and make the call). Target (#30): <= 1.10x the floor. Scripts in between show
// what each step costs: the import alone, the constructor. Median wall time of interleaved spawns, so a busy machine
// slows every variant alike; then each step's share timed inside one process.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startAccountApi } from './support/account-api.js';
import { root } from './support/app-bundle.js';
import { buildShippedEntries } from './support/package-build.js';

const TARGET_RATIO = 1.1;
const RUNS = 21;
const KEY = 'cold-start-parts-key-0123';

// Inside the repository, so the built entry resolves ky and zod from its node_modules as an installed package would.
const workDir = join(root, '.tmp', 'cold-start-parts');
const api = await startAccountApi();
const url = JSON.stringify(api.baseUrl);
const construct = `const client = new Linkgate({ apiKey: '${KEY}', baseUrl: ${url} });`;
const call = `if ((await client.account.get()).username !== 'admin') process.exit(1);`;
const schema = `const Account = z.object({ error: z.number(), data: z.object({ id: z.number(), email: z.string(), username: z.string(), avatar: z.string(), status: z.string(), expires: z.nullable(z.string()), registered: z.string() }) });`;
const byHand = `${schema}
const body = await ky.get(${url} + '/api/account', { headers: { Authorization: 'Bearer ${KEY}' } }).json();
if (Account.parse(body).data.username !== 'admin') process.exit(1);`;
const scripts: Record<string, string> = {
  'node alone': '',
  'node + fetch': `if (typeof fetch !== 'function') process.exit(1);`,
  'ky + zod/mini, one call by hand (floor)': `const { default: ky } = await import('ky'); const z = await import('zod/mini');
${byHand}`,
  'node + import linkgate': `await import('./dist/index.js');`,
  'node + import linkgate + new Linkgate()': `const { Linkgate } = await import('./dist/index.js'); ${construct}`,
  'node + import linkgate + new Linkgate() + one call': `const { Linkgate } = await import('./dist/index.js'); ${construct}
${call}`,
};
const FLOOR = 'ky + zod/mini, one call by hand (floor)';

// The same steps timed inside one fresh process, in the order the SDK's first answer takes them: what each costs.
const steps = `
const t = [performance.now()];
if (typeof fetch !== 'function') process.exit(1);
t.push(performance.now());
await import('zod/mini');
t.push(performance.now());
await import('ky');
t.push(performance.now());
const { Linkgate } = await import('./dist/index.js');
t.push(performance.now());
${construct}
t.push(performance.now());
${call}
t.push(performance.now());
console.log(JSON.stringify(t.slice(1).map((x, i) => x - t[i])));
`;
const stepNames = [
  'fetch',
  'zod/mini (its modules)',
  'ky (its modules)',
  "linkgate's own modules",
  'new Linkgate()',
  'the first call',
];

/** Runs `node file`, resolving with its wall time and stdout; throws unless it exits 0. */
function run(file: string): Promise<{ ms: number; out: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  return new Promise((resolve, reject) =>
    child.on('close', (code, signal) =>
      code === 0
        ? resolve({ ms: performance.now() - started, out })
        : reject(new Error(`${file} exited with ${code ?? signal}`)),
    ),
  );
}

try {
  mkdirSync(workDir, { recursive: true });
  await buildShippedEntries(join(workDir, 'dist'));
  const files = Object.entries(scripts).map(([name, code], i) => {
    const file = join(workDir, `script-${i}.mjs`);
    writeFileSync(file, code);
    return { name, file, times: [] as number[] };
  });
  for (let round = 0; round < RUNS; round++) {
    // In turns, each round starting one further on, so no variant always follows the same one.
    for (let i = 0; i < files.length; i++) {
      const f = files[(i + round) % files.length]!;
      f.times.push((await run(f.file)).ms);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const floor = median(files.find((f) => f.name === FLOOR)!.times);
  console.log(`Cold start, median of ${RUNS} interleaved spawns (ms):`);
  for (const f of files) {
    const m = median(f.times);
    console.log(`  ${f.name.padEnd(42)} ${m.toFixed(1).padStart(6)} ms  ${(m / floor).toFixed(2)}x the floor`);
  }
  const stepsFile = join(workDir, 'steps.mjs');
  writeFileSync(stepsFile, steps);
  const perStep: number[][] = stepNames.map(() => []);
  for (let round = 0; round < RUNS; round++) {
    const { out } = await run(stepsFile);
    for (const [i, ms] of (JSON.parse(out) as number[]).entries()) perStep[i]!.push(ms);
  }
  console.log('Inside one process, after node itself started (median ms):');
  for (const [i, name] of stepNames.entries()) {
    console.log(`  ${name.padEnd(42)} ${median(perStep[i]!).toFixed(1).padStart(6)} ms`);
  }
  const ratio = median(files.at(-1)!.times) / floor;
  console.log(
    `first answer: ${median(files.at(-1)!.times).toFixed(1)} ms, floor ${floor.toFixed(1)} ms: ratio ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}x) ${ratio <= TARGET_RATIO ? 'PASS' : 'MISS'}`,
  );
  if (ratio > TARGET_RATIO) process.exitCode = 1;
} finally {
  api.close();
  rmSync(workDir, { recursive: true, force: true });
}
