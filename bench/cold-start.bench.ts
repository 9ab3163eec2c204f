// Cold start of an app that installed linkgate: wall time from spawning `node app.mjs` to its exit, for a script that
// only touches the fetch globals (the floor: Node's start-up plus the undici any HTTP client loads), one that imports
// `linkgate` and constructs `new Linkgate()`, and one that imports `linkgate/webhooks` and calls
// `createWebhookHandler`. linkgate is built as published (tsup.config.ts, ESM) into a node_modules folder of its own,
// with the repository's package.json, so `linkgate/webhooks` resolves through the `node` export condition as it does
// for users. The three are spawned in turns so drifting load hits them alike; printed as ratios of the medians
// against the floor (issue 23: at most 1.5 each).
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildAsPublished } from '../test/e2e/support/built-cli.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const dir = `${root}node_modules/.cache/linkgate-bench/cold-start`;
const RUNS = 15;
const TARGET = 1.5;
const SECRET = 'whsec_live_0123456789abcdef0123456789abcdef';

// What every app script does last: report that it got there, so a script that failed cannot pass as fast.
const done = "process.stdout.write('done\\n');";
const APPS: Record<string, string> = {
  'fetch floor': `void [fetch, Request, Response, Headers];\n${done}`,
  "import('linkgate') + new Linkgate()": `const { Linkgate } = await import('linkgate');
new Linkgate({ apiKey: 'cold-start-key', baseUrl: 'https://links.example.com' });
${done}`,
  "import('linkgate/webhooks') + createWebhookHandler()": `const { createWebhookHandler } = await import('linkgate/webhooks');
createWebhookHandler({ secret: ${JSON.stringify(SECRET)}, on: { 'message.received': () => {} } });
${done}`,
};

rmSync(dir, { recursive: true, force: true });
const pkg = `${dir}/node_modules/linkgate`;
await buildAsPublished('index', `${pkg}/dist`, { format: ['esm'], dts: false });
copyFileSync(`${root}package.json`, `${pkg}/package.json`);
for (const dep of ['zod']) symlinkSync(`${root}node_modules/${dep}`, `${dir}/node_modules/${dep}`, 'dir');
mkdirSync(`${dir}/app`, { recursive: true });
const files = Object.entries(APPS).map(([name, source], i) => {
  const file = `${dir}/app/app-${i}.mjs`;
  writeFileSync(file, source);
  return { name, file, times: [] as number[] };
});

console.log(
  `Cold start: spawn to exit, median of ${RUNS} spawns each, in turns; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const app of files) await run(app.file); // warm the file system cache; not counted
for (let round = 0; round < RUNS; round++) {
  for (let i = 0; i < files.length; i++) {
    const app = files[(i + round) % files.length]!;
    app.times.push(await run(app.file));
  }
}
const [floor, ...rest] = files.map((f) => ({ ...f, ms: median(f.times) }));
console.log(`${floor!.name.padEnd(52)} ${floor!.ms.toFixed(0).padStart(4)} ms`);
for (const app of rest) {
  const ratio = app.ms / floor!.ms;
  console.log(
    `${app.name.padEnd(52)} ${app.ms.toFixed(0).padStart(4)} ms  ratio ${ratio.toFixed(2)} (+${(app.ms - floor!.ms).toFixed(0)} ms)  (target <= ${TARGET}) ${ratio <= TARGET ? 'PASS' : 'MISS'}`,
  );
}

/** Ms from spawning `node file` (in the app folder) to its exit; throws unless it exits 0 having printed `done`. */
async function run(file: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [file], { cwd: `${dir}/app`, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const ms = performance.now() - started;
  if (code !== 0 || out !== 'done\n') throw new Error(`${file} exited with ${code}: ${out}`);
  return ms;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
