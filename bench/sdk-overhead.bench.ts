// Per-call cost of `client.account.get()` against raw `fetch` + `JSON.parse` on the same loopback server, in one run.
// Target: the SDK (ky transport, limiter, error mapping, schema parse) costs at most 1.3x the raw call.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import ky from 'ky';
import { Linkgate } from '../src/index.js';

const TARGET = 1.3;
const CALLS = Number(process.env.CALLS ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);

const body = JSON.stringify({
  error: 0,
  data: {
    id: 1,
    email: 'admin@example.com',
    username: 'admin',
    avatar: 'https://www.gravatar.com/avatar/admin?d=identicon',
    status: 'pro',
    expires: null,
    registered: '2026-01-01 00:00:00',
  },
});
const reset = String(Math.ceil(Date.now() / 1000) + 3600);
const server = createServer((_req, res) => {
  // A generous budget, so the limiter never holds a call and only its bookkeeping is measured.
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'X-RateLimit-Limit': '1000000000',
    'X-RateLimit-Remaining': '999999999',
    'X-RateLimit-Reset': reset,
  });
  res.end(body);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const apiKey = 'bench-key-0123456789abcdef';
const client = new Linkgate({ apiKey, baseUrl });

async function raw(): Promise<unknown> {
  const res = await fetch(`${baseUrl}/api/account`, {
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
  });
  return JSON.parse(await res.text());
}
const sdk = () => client.account.get();
// For reference: the transport alone (ky without retries or timeout), the part of the cost the design fixes.
const bareKy = ky.create({ baseUrl, retry: 0, timeout: false, headers: { Authorization: `Bearer ${apiKey}` } });
const kyOnly = () => bareKy.get('/api/account').json();

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await fn();
  return ((performance.now() - start) * 1000) / CALLS;
}

// Warm both paths (JIT, keep-alive sockets).
await time(raw);
await time(sdk);
await time(kyOnly);
const rawRuns: number[] = [];
const sdkRuns: number[] = [];
const kyRuns: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  // Alternate the order so drift (GC, CPU frequency) hits both alike.
  if (r % 2) {
    sdkRuns.push(await time(sdk));
    rawRuns.push(await time(raw));
  } else {
    rawRuns.push(await time(raw));
    sdkRuns.push(await time(sdk));
  }
  kyRuns.push(await time(kyOnly));
}
server.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const floor = median(rawRuns);
const ours = median(sdkRuns);
const ratio = ours / floor;
console.log(`calls per round: ${CALLS}, rounds: ${ROUNDS} (medians)`);
console.log(`floor  raw fetch + JSON.parse : ${floor.toFixed(1)} µs/call`);
console.log(
  `ref    bare ky .json()         : ${median(kyRuns).toFixed(1)} µs/call (${(median(kyRuns) / floor).toFixed(2)}x raw)`,
);
console.log(
  `linkgate client.account.get() : ${ours.toFixed(1)} µs/call (${(ours / median(kyRuns)).toFixed(2)}x bare ky)`,
);
console.log(`ratio: ${ratio.toFixed(2)}x (target <= ${TARGET}x) ${ratio <= TARGET ? 'PASS' : 'MISS'}`);
