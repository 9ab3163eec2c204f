// Cold start of an app that installed linkgate: wall time from spawning `node app.mjs` to its exit. The SDK app imports
// `linkgate`, constructs a client and makes one call to a loopback server (cold start to first answer); its floor (the
// stack's, #30) is the same call made by hand with ky and a zod/mini schema, so both sides load the same packages and
// make the call: target <= 1.10x. The receiver app imports `linkgate/webhooks` and calls `createWebhookHandler`,
// against the stack's floor too (#30: zod/mini imported by hand and one event-sized schema parsed; at most 1.5), with its
// ratio to a script that only touches the fetch globals (issue 23's floor) printed beside it. linkgate is built as
// published (tsup.config.ts, ESM) into a node_modules folder of its own, with the repository's package.json, so
// `linkgate/webhooks` resolves through the `node` export condition as it does for users. The apps are spawned in
// turns so drifting load hits them alike; printed as ratios of the medians against their floors.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildAsPublished } from '../test/e2e/support/built-cli.js';
import { startAccountApi } from './support/account-api.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const dir = `${root}node_modules/.cache/linkgate-bench/cold-start`;
const RUNS = 15;
const SDK_TARGET = 1.1;
const TARGET = 1.5;
const SECRET = 'whsec_live_0123456789abcdef0123456789abcdef';
const KEY = 'cold-start-key-0123456789';

// What every app script does last: report that it got there, so a script that failed cannot pass as fast.
const done = "process.stdout.write('done\\n');";
const api = await startAccountApi();
const url = JSON.stringify(api.baseUrl);
const APPS: Record<string, string> = {
  'fetch floor': `void [fetch, Request, Response, Headers];\n${done}`,
  'ky + zod/mini by hand: one call (floor)': `const { default: ky } = await import('ky');
const z = await import('zod/mini');
const Account = z.object({ error: z.number(), data: z.object({ id: z.number(), email: z.string(), username: z.string(), avatar: z.string(), status: z.string(), expires: z.nullable(z.string()), registered: z.string() }) });
const body = await ky.get(${url} + '/api/account', { headers: { Authorization: 'Bearer ${KEY}' } }).json();
if (Account.parse(body).data.username !== 'admin') process.exit(1);
${done}`,
  'zod/mini by hand: one schema parsed (floor)': `const z = await import('zod/mini');
const Message = z.object({ event: z.literal('message.received'), device_id: z.string(), data: z.object({ message_id: z.string(), sender: z.string(), text: z.optional(z.string()), timestamp: z.number() }) });
if (Message.parse({ event: 'message.received', device_id: 'd', data: { message_id: 'm', sender: 's', timestamp: 1 } }).device_id !== 'd') process.exit(1);
${done}`,
  "import('linkgate') + new Linkgate() + one call": `const { Linkgate } = await import('linkgate');
const client = new Linkgate({ apiKey: '${KEY}', baseUrl: ${url} });
if ((await client.account.get()).username !== 'admin') process.exit(1);
${done}`,
  "import('linkgate/webhooks') + createWebhookHandler()": `const { createWebhookHandler } = await import('linkgate/webhooks');
createWebhookHandler({ secret: ${JSON.stringify(SECRET)}, on: { 'message.received': () => {} } });
${done}`,
};

rmSync(dir, { recursive: true, force: true });
const pkg = `${dir}/node_modules/linkgate`;
await buildAsPublished('index', `${pkg}/dist`, { format: ['esm'], dts: false });
copyFileSync(`${root}package.json`, `${pkg}/package.json`);
for (const dep of ['ky', 'zod']) symlinkSync(`${root}node_modules/${dep}`, `${dir}/node_modules/${dep}`, 'dir');
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
api.close();
const [fetchFloor, kyFloor, zodFloor, sdk, receiver] = files.map((f) => ({ ...f, ms: median(f.times) }));
/** One line: the app's median, its ratio to its floor and whether it meets `target`. */
function report(app: { name: string; ms: number }, floor: { ms: number }, target: number): boolean {
  const ratio = app.ms / floor.ms;
  console.log(
    `${app.name.padEnd(52)} ${app.ms.toFixed(0).padStart(4)} ms  ratio ${ratio.toFixed(2)} (+${(app.ms - floor.ms).toFixed(0)} ms)  (target <= ${target}) ${ratio <= target ? 'PASS' : 'MISS'}`,
  );
  return ratio <= target;
}
console.log(`${kyFloor!.name.padEnd(52)} ${kyFloor!.ms.toFixed(0).padStart(4)} ms`);
if (!report(sdk!, kyFloor!, SDK_TARGET)) process.exitCode = 1;
console.log(`${zodFloor!.name.padEnd(52)} ${zodFloor!.ms.toFixed(0).padStart(4)} ms`);
if (!report(receiver!, zodFloor!, TARGET)) process.exitCode = 1;
console.log(
  `${fetchFloor!.name.padEnd(52)} ${fetchFloor!.ms.toFixed(0).padStart(4)} ms  [info] the receiver is ${(receiver!.ms / fetchFloor!.ms).toFixed(2)}x this (issue 23's floor, before zod ran at run time)`,
);

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
