// What `linkgate proxy` adds to a call (#25): the median latency of `GET /api/account` through the proxy (the CLI in
// its own process, checking every exchange) against the same call made directly, on loopback, in one run.
// Target: at most 1 ms added at the median.
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startAccountApi } from './support/account-api.js';

const TARGET_ADDED_MS = 1;
const CALLS = Number(process.env.CALLS ?? 1500);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const root = fileURLToPath(new URL('../', import.meta.url));

const server = await startAccountApi();
const proxy = spawn(
  process.execPath,
  ['--import', 'tsx', 'mock/cli.ts', 'proxy', '--upstream', server.baseUrl, '--port', '0'],
  {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
let printed = '';
const proxyUrl = await new Promise<string>((resolve, reject) => {
  proxy.stdout.on('data', (d) => {
    printed += d;
    const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(printed);
    if (match) resolve(match[1] as string);
  });
  proxy.on('exit', (code) => reject(new Error(`the proxy exited with ${code} before listening:\n${printed}`)));
});

// One kept-alive connection per target, as an app's client would hold.
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const headers = { Authorization: 'Bearer bench-key-0123456789abcdef' };
function call(base: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(`${base}/api/account`, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - started));
    })
      .on('error', reject)
      .end();
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
async function round(base: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) times.push(await call(base));
  return median(times);
}

// Warm both paths (JIT, sockets, the proxy's checker).
await round(server.baseUrl);
await round(proxyUrl);
const direct: number[] = [];
const proxied: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  // Alternate the order so drift (GC, CPU frequency) hits both alike.
  if (r % 2) {
    proxied.push(await round(proxyUrl));
    direct.push(await round(server.baseUrl));
  } else {
    direct.push(await round(server.baseUrl));
    proxied.push(await round(proxyUrl));
  }
}
proxy.kill('SIGTERM');
agent.destroy();
server.close();

const floor = median(direct);
const through = median(proxied);
const added = through - floor;
console.log(`calls per round: ${CALLS}, rounds: ${ROUNDS} (medians of per-call medians)`);
console.log(`direct            : ${(floor * 1000).toFixed(0)} µs/call`);
console.log(`through the proxy : ${(through * 1000).toFixed(0)} µs/call (${(through / floor).toFixed(2)}x direct)`);
console.log(
  `added by the proxy: ${(added * 1000).toFixed(0)} µs at the median (target <= ${TARGET_ADDED_MS} ms) ${added <= TARGET_ADDED_MS ? 'PASS' : 'MISS'}`,
);
