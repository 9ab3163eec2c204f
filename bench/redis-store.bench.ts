// What the Redis stores (#13) add on loopback, against the in-memory stores in the same run, with a real redis-server:
// - per SDK call: `client.account.get()` with RedisRateLimitStore (node-redis, ioredis) vs MemoryRateLimitStore;
// - per verified delivery: createWebhookHandler with RedisDedupeStore vs MemoryDedupeStore.
// Target: the Redis store adds at most one round trip per call, p50 added < 0.3 ms. Per-call timings, p50 of all rounds.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { Linkgate, MemoryRateLimitStore, type RateLimitStore } from '../src/index.js';
import { RedisDedupeStore, RedisRateLimitStore } from '../src/redis/index.js';
import { createTestDelivery, createWebhookHandler, MemoryDedupeStore } from '../src/webhooks/index.js';
import { startRedisServer } from '../test/redis/support/redis-server.js';
import { messageReceived } from '../test/webhooks/support/fixtures.js';
import { startAccountApi } from './support/account-api.js';

const ADDED_TARGET_MS = 0.3;
const CALLS = Number(process.env.CALLS ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);

const redisServer = await startRedisServer();
const nodeRedis = createClient({ url: redisServer.url });
nodeRedis.on('error', () => {});
await nodeRedis.connect();
const ioRedis = new Redis(redisServer.url, { lazyConnect: true });
await ioRedis.connect();

// The API: a loopback server with a budget too large to hold any call, so only the store's bookkeeping is measured.
const api = await startAccountApi();
const { baseUrl } = api;
const sdk = (options: { rateLimitStore: RateLimitStore }) =>
  new Linkgate({ apiKey: 'bench-key-0123456789abcdef', baseUrl, ...options });
const calls = {
  memory: sdk({ rateLimitStore: new MemoryRateLimitStore() }),
  'node-redis': sdk({ rateLimitStore: new RedisRateLimitStore({ client: nodeRedis }) }),
  ioredis: sdk({ rateLimitStore: new RedisRateLimitStore({ client: ioRedis }) }),
};

// The receiver: a fresh delivery id per delivery, so every one is claimed and marked done.
const SECRET = 'whsec_live_0123456789abcdef0123456789abcdef';
const nowS = Math.floor(Date.now() / 1000);
const event = { ...messageReceived, timestamp: nowS, data: { ...messageReceived.data, timestamp: nowS } };
const receiver = (dedupe: ConstructorParameters<typeof RedisDedupeStore>[0] | 'memory') =>
  createWebhookHandler({
    secret: SECRET,
    dedupe: dedupe === 'memory' ? new MemoryDedupeStore() : new RedisDedupeStore(dedupe),
    on: { 'message.received': () => {} },
  });
const receivers = {
  memory: receiver('memory'),
  'node-redis': receiver({ client: nodeRedis }),
  ioredis: receiver({ client: ioRedis }),
};
let serial = 0;
const deliver = async (handler: (request: Request) => Promise<Response>, start: () => number) => {
  const { request } = createTestDelivery({ event, secret: SECRET, timestamp: nowS, deliveryId: `bench-${serial++}` });
  const t = start();
  const answer = await handler(request);
  if (answer.status !== 200) throw new Error(`delivery answered ${answer.status}`);
  return t;
};

/** Each call's duration in µs. */
async function timeEach(run: () => Promise<unknown>, n: number, into: number[]): Promise<void> {
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await run();
    into.push((performance.now() - start) * 1000);
  }
}
async function timeDeliveries(handler: (request: Request) => Promise<Response>, n: number, into: number[]) {
  for (let i = 0; i < n; i++) {
    const start = await deliver(handler, () => performance.now());
    into.push((performance.now() - start) * 1000);
  }
}
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

// One Redis round trip alone, for scale.
const pings: number[] = [];
await timeEach(() => nodeRedis.ping(), 200, []);
await timeEach(() => nodeRedis.ping(), CALLS, pings);

const kinds = ['memory', 'node-redis', 'ioredis'] as const;
const callTimes = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as Record<(typeof kinds)[number], number[]>;
const deliveryTimes = Object.fromEntries(kinds.map((k) => [k, [] as number[]])) as typeof callTimes;
// Warm every path (JIT, sockets, scripts loaded into Redis).
for (const kind of kinds) {
  await timeEach(() => calls[kind].account.get(), 200, []);
  await timeDeliveries(receivers[kind], 200, []);
}
const evalshaBefore = await commandCalls('evalsha');
for (let r = 0; r < ROUNDS; r++) {
  // Rotate the order so drift (GC, CPU frequency, other load) hits every store alike.
  for (const kind of [...kinds.slice(r % 3), ...kinds.slice(0, r % 3)]) {
    await timeEach(() => calls[kind].account.get(), CALLS, callTimes[kind]);
  }
}
const evalshaPerCall = ((await commandCalls('evalsha')) - evalshaBefore) / (2 * ROUNDS * CALLS);
for (let r = 0; r < ROUNDS; r++) {
  for (const kind of [...kinds.slice(r % 3), ...kinds.slice(0, r % 3)]) {
    await timeDeliveries(receivers[kind], CALLS, deliveryTimes[kind]);
  }
}

/** How many times Redis has run `command`, from INFO commandstats. */
async function commandCalls(command: string): Promise<number> {
  const info = await nodeRedis.info('commandstats');
  return Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
}

api.close();
nodeRedis.destroy();
ioRedis.disconnect();
await redisServer.stop();

console.log(`calls per round: ${CALLS}, rounds: ${ROUNDS}; p50 of every call`);
console.log(`one Redis round trip (PING, node-redis)       : ${p50(pings).toFixed(1)} µs`);
const baseCall = p50(callTimes.memory);
console.log(`client.account.get(), MemoryRateLimitStore   : ${baseCall.toFixed(1)} µs/call`);
let pass = true;
for (const kind of ['node-redis', 'ioredis'] as const) {
  const ours = p50(callTimes[kind]);
  const added = (ours - baseCall) / 1000;
  pass &&= added < ADDED_TARGET_MS;
  console.log(
    `client.account.get(), RedisRateLimitStore (${kind.padEnd(10)}): ${ours.toFixed(1)} µs/call, ${(ours / baseCall).toFixed(2)}x memory, +${added.toFixed(3)} ms`,
  );
}
console.log(`Redis scripts per SDK call: ${evalshaPerCall.toFixed(2)} (take, awaited; observe, sent without waiting)`);
const baseDelivery = p50(deliveryTimes.memory);
console.log(`verified delivery, MemoryDedupeStore          : ${baseDelivery.toFixed(1)} µs/delivery`);
for (const kind of ['node-redis', 'ioredis'] as const) {
  const ours = p50(deliveryTimes[kind]);
  console.log(
    `verified delivery, RedisDedupeStore (${kind.padEnd(10)})    : ${ours.toFixed(1)} µs/delivery, ${(ours / baseDelivery).toFixed(2)}x memory, +${((ours - baseDelivery) / 1000).toFixed(3)} ms`,
  );
}
console.log(`added per SDK call: target < ${ADDED_TARGET_MS} ms on loopback ${pass ? 'PASS' : 'MISS'}`);
