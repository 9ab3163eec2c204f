// Per-call cost of `client.account.get()` against bare ky (`ky.get(url).json()`, the stack's floor: the SDK sends
// through ky) on the same loopback server, in one run; raw fetch + JSON.parse printed beside it.
// Target (#30): the SDK (ky, limiter, error mapping, schema parse) costs at most 1.10x bare ky.
// Also (#15): the same call with a no-op hook of each kind and a subscriber on both tracing channels, against the
// client without them, so what hooks and traces cost when on is printed beside the ratio of the path without them.
// Cost is the process's CPU time (user + system, process.cpuUsage) per call: on loopback a call waits for nothing
// but CPU, and on a loaded machine wall time mostly measures the other processes (wall time is printed beside it).
// The variants take turns in short batches, and the ratio is the median of each round's own ratio, so drift (GC,
// CPU frequency, caches) falls on floor and SDK alike.
import { tracingChannel } from 'node:diagnostics_channel';
import ky from 'ky';
import { Linkgate } from '../src/index.js';
import { startAccountApi } from './support/account-api.js';

const TARGET = 1.1;
const CALLS = Number(process.env.CALLS ?? 200);
const ROUNDS = Number(process.env.ROUNDS ?? 31);

// A generous budget, so the limiter never holds a call and only its bookkeeping is measured.
const server = await startAccountApi();
const { baseUrl } = server;
const apiKey = 'bench-key-0123456789abcdef';
const client = new Linkgate({ apiKey, baseUrl });
const url = `${baseUrl}/api/account`;
const headers = { Authorization: `Bearer ${apiKey}` };

/** The floor: bare ky, as an app on ky makes the same call. */
const bareKy = () => ky.get(url, { headers }).json();
/** For reference: raw fetch and JSON.parse. */
async function raw(): Promise<unknown> {
  const res = await fetch(url, { headers });
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

/** Wall time (µs per call) of every batch timed, for the line printed beside the CPU figures. */
const wall: Record<string, number[]> = {};

/** CPU time in µs per call of `CALLS` calls of `fn`, one after another; its wall time goes to `wall[fn.name]`. */
async function time(fn: () => Promise<unknown>): Promise<number> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await fn();
  const used = process.cpuUsage(cpu);
  wall[fn.name] = [...(wall[fn.name] ?? []), ((performance.now() - start) * 1000) / CALLS];
  return (used.user + used.system) / CALLS;
}

// Warm every path (JIT, keep-alive sockets).
for (let i = 0; i < 3; i++) {
  await time(raw);
  await time(bareKy);
  await time(sdk);
  await timeTraced();
}
const runs = { raw: [] as number[], ky: [] as number[], sdk: [] as number[], traced: [] as number[] };
const ratios: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  // Alternate the order so drift hits floor and SDK alike.
  let k: number;
  let s: number;
  if (r % 2) {
    s = await time(sdk);
    k = await time(bareKy);
  } else {
    k = await time(bareKy);
    s = await time(sdk);
  }
  runs.ky.push(k);
  runs.sdk.push(s);
  ratios.push(s / k);
  runs.raw.push(await time(raw));
  runs.traced.push(await timeTraced());
}
server.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const floor = median(runs.ky);
const ours = median(runs.sdk);
const ratio = median(ratios);
console.log(`calls per batch: ${CALLS}, rounds: ${ROUNDS}; CPU µs per call (medians), wall µs in brackets`);
const line = (label: string, cpu: number[], name: string) =>
  `${label}: ${median(cpu).toFixed(1)} µs/call (wall ${median(wall[name] ?? []).toFixed(1)})`;
console.log(line('ref    raw fetch + JSON.parse ', runs.raw, 'raw'));
console.log(
  `${line('floor  bare ky.get(url).json()', runs.ky, 'bareKy')} = ${(floor / median(runs.raw)).toFixed(2)}x raw`,
);
console.log(line('linkgate client.account.get()', runs.sdk, 'sdk'));
console.log(
  `${line('hooks+traces on              ', runs.traced, 'withHooksAndTraces')} = ${(median(runs.traced) / ours).toFixed(2)}x the client without hooks or subscribers`,
);
console.log(
  `ratio: ${ratio.toFixed(2)}x bare ky (median of each round's ratio; target <= ${TARGET}x) ${ratio <= TARGET ? 'PASS' : 'MISS'}`,
);
if (ratio > TARGET) process.exitCode = 1;
