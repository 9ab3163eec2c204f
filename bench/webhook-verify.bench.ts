// Verify + parse of one message.received delivery with linkgate/webhooks, against the floor measured in the same run:
// JSON.parse plus a constant-time compare of the secret header (node:crypto timingSafeEqual), nothing else
// (shared/notes/measurements.md). Targets (#30): throughput >= 0.64 of the floor, p99 per delivery < 10 µs.
// It measures the build Node loads (the `node` export condition: src/webhooks/index.node.ts), which parses with the
// zod/mini event schemas compiled by zod's `compile`, and, for information, the same schemas as written (what browsers
// and edges run).
import { timingSafeEqual } from 'node:crypto';
import { createTestDelivery, verifyWebhook, verifyWebhookSync } from '../src/webhooks/index.node.js';
import { useCompiledEventParsers } from '../src/webhooks/node-parsers.js';
import { useSchemaPreparer } from '../src/webhooks/parse.js';
import { messageReceived } from '../test/webhooks/support/fixtures.js';

const SECRET = 'whsec_live_0123456789abcdef0123456789abcdef';
const RATIO_TARGET = 0.64;
const P99_TARGET_US = 10;
const BATCH = 50_000;
const ROUNDS = 30;
const SAMPLES = 100_000;

// The test suite's spec-shaped message.received, stamped with the real time so the default 300 s window accepts it.
const nowS = Math.floor(Date.now() / 1000);
const delivery = createTestDelivery({
  event: { ...messageReceived, timestamp: nowS, data: { ...messageReceived.data, timestamp: nowS } },
  secret: SECRET,
  timestamp: nowS,
});
// As node:http hands them over: lower-case names.
const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k.toLowerCase(), v]));
const input = { headers, body: delivery.body };
const options = { secret: SECRET };

const secretBytes = Buffer.from(SECRET);
function floor(): unknown {
  const presented = Buffer.from(headers['x-service-secret']!);
  if (presented.length !== secretBytes.length || !timingSafeEqual(presented, secretBytes)) throw new Error('mismatch');
  return JSON.parse(input.body);
}
const ours = (): unknown => verifyWebhookSync(input, options);

let sink = 0;
function opsPerSecond(fn: () => unknown, n: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink ^= (fn() as { timestamp: number }).timestamp;
  return n / (Number(process.hrtime.bigint() - start) / 1e9);
}

async function asyncOpsPerSecond(n: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink ^= (await verifyWebhook(input, options)).timestamp;
  return n / (Number(process.hrtime.bigint() - start) / 1e9);
}

function latencies(fn: () => unknown, n: number): { p50: number; p99: number; max: number } {
  const us = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const start = process.hrtime.bigint();
    sink ^= (fn() as { timestamp: number }).timestamp;
    us[i] = Number(process.hrtime.bigint() - start) / 1000;
  }
  us.sort();
  return { p50: us[Math.floor(n * 0.5)]!, p99: us[Math.floor(n * 0.99)]!, max: us[n - 1]! };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// Warm-up: let both paths reach optimised code before measuring.
opsPerSecond(floor, BATCH);
opsPerSecond(ours, BATCH);

/** Paired rounds of the floor and ours: each side's rates and the ratio of each pair. */
function pairedRounds(rounds: number): { floorRuns: number[]; ourRuns: number[]; ratios: number[] } {
  const floorRuns: number[] = [];
  const ourRuns: number[] = [];
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    // Short paired rounds, alternating which side goes first: on a shared machine, load drifts within seconds, and a
    // ratio of two neighbouring measurements cancels most of it.
    const floorFirst = r % 2 === 0;
    const a = opsPerSecond(floorFirst ? floor : ours, BATCH);
    const b = opsPerSecond(floorFirst ? ours : floor, BATCH);
    const [f, o] = floorFirst ? [a, b] : [b, a];
    floorRuns.push(f);
    ourRuns.push(o);
    ratios.push(o / f);
  }
  return { floorRuns, ourRuns, ratios };
}
const { floorRuns, ourRuns, ratios } = pairedRounds(ROUNDS);
const asyncRate = await asyncOpsPerSecond(BATCH);
const floorLat = latencies(floor, SAMPLES);
const ourLat = latencies(ours, SAMPLES);

// What browsers and edges run: the zod/mini schemas as written, uncompiled.
useSchemaPreparer();
opsPerSecond(ours, BATCH);
const asWritten = median(pairedRounds(ROUNDS / 3).ratios);
useCompiledEventParsers();

const floorRate = median(floorRuns);
const ourRate = median(ourRuns);
// The median of the paired ratios, not the ratio of medians: robust to load from other processes.
const ratio = median(ratios);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const us = (n: number) => n.toFixed(2);

console.log(
  `webhook verify + parse, one message.received delivery (${delivery.body.length} bytes), Node ${process.version}`,
);
console.log(
  `  floor  JSON.parse + timingSafeEqual     ${fmt(floorRate)} /s  (${us(1e6 / floorRate)} µs)  p50 ${us(floorLat.p50)} µs  p99 ${us(floorLat.p99)} µs`,
);
console.log(
  `  linkgate verifyWebhookSync             ${fmt(ourRate)} /s  (${us(1e6 / ourRate)} µs)  p50 ${us(ourLat.p50)} µs  p99 ${us(ourLat.p99)} µs  max ${us(ourLat.max)} µs`,
);
console.log(`  linkgate verifyWebhook (await)         ${fmt(asyncRate)} /s  (${us(1e6 / asyncRate)} µs)  [info]`);
console.log(
  `  throughput ratio vs floor: ${ratio.toFixed(2)} (median of ${ROUNDS} paired rounds of ${fmt(BATCH)}; range ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}) (target >= ${RATIO_TARGET})  ${ratio >= RATIO_TARGET ? 'PASS' : 'MISS'}`,
);
console.log(
  `  the zod/mini schemas as written (the browser and edge build): ratio ${asWritten.toFixed(2)} (median of ${ROUNDS / 3} paired rounds)  [info]`,
);
console.log(
  `  cross-check, per-call p50 ratio (floor p50 / ours p50): ${(floorLat.p50 / ourLat.p50).toFixed(2)}  [info]`,
);
console.log(
  `  p99 per delivery: ${us(ourLat.p99)} µs (target < ${P99_TARGET_US} µs)  ${ourLat.p99 < P99_TARGET_US ? 'PASS' : 'MISS'}`,
);
if (sink === 0.5) console.log('unreachable; keeps results alive');
