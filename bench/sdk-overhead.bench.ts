// Per-call cost of `client.account.get()` against raw `fetch` + `JSON.parse` on the same loopback server, in one run.
// Target: the SDK (ky transport, limiter, error mapping, schema parse) costs at most 1.3x the raw call.
// Also (#15): the same call with a no-op hook of each kind and a subscriber on both tracing channels, against the
// client without them, so what hooks and traces cost when on is printed beside the ratio of the path without them.
import { tracingChannel } from 'node:diagnostics_channel';
import ky from 'ky';
import { Linkgate } from '../src/index.js';
import { startAccountApi } from './support/account-api.js';

const TARGET = 1.3;
const CALLS = Number(process.env.CALLS ?? 2000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);

// A generous budget, so the limiter never holds a call and only its bookkeeping is measured.
const server = await startAccountApi();
const { baseUrl } = server;
const apiKey = 'bench-key-0123456789abcdef';
const client = new Linkgate({ apiKey, baseUrl });

async function raw(): Promise<unknown> {
  const res = await fetch(`${baseUrl}/api/account`, {
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
  });
  return JSON.parse(await res.text());
}
const sdk = () => client.account.get();
const noop = () => {};
const hooked = new Linkgate({
  apiKey,
  baseUrl,
  hooks: { beforeRequest: [noop], afterResponse: [noop], beforeRetry: [noop], beforeError: [noop] },
});
const subscriber = { start: noop, end: noop, asyncStart: noop, asyncEnd: noop, error: noop };
const channels = [tracingChannel('linkgate:request'), tracingChannel('linkgate:attempt')];
/** A call with hooks and with both channels subscribed; the subscriptions last only as long as its timing. */
const withHooksAndTraces = () => hooked.account.get();
async function timeTraced(): Promise<number> {
  for (const channel of channels) channel.subscribe(subscriber);
  try {
    return await time(withHooksAndTraces);
  } finally {
    for (const channel of channels) channel.unsubscribe(subscriber);
  }
}
// For reference: the transport alone (ky without retries or timeout), the part of the cost the design fixes.
const bareKy = ky.create({ baseUrl, retry: 0, timeout: false, headers: { Authorization: `Bearer ${apiKey}` } });
const kyOnly = () => bareKy.get('/api/account').json();

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await fn();
  return ((performance.now() - start) * 1000) / CALLS;
}

// Warm every path (JIT, keep-alive sockets).
await time(raw);
await time(sdk);
await time(kyOnly);
await timeTraced();
const rawRuns: number[] = [];
const sdkRuns: number[] = [];
const kyRuns: number[] = [];
const tracedRuns: number[] = [];
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
  tracedRuns.push(await timeTraced());
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
console.log(
  `hooks+traces on                : ${median(tracedRuns).toFixed(1)} µs/call (${(median(tracedRuns) / ours).toFixed(2)}x the client without hooks or subscribers)`,
);
console.log(`ratio: ${ratio.toFixed(2)}x (target <= ${TARGET}x) ${ratio <= TARGET ? 'PASS' : 'MISS'}`);
