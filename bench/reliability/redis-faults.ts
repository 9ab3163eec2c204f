// Part 5: Redis faults under both Redis stores. A real redis-server, reached through a loopback proxy, fails in five
// ways in the middle of a run: killed (and started again, empty), slow (every command held 2.5 s), flushed, full
// (`maxmemory` with `noeviction`: every write refused) and a fake server answering garbage (an HTTP 400 to all).
// Rate budget: three clients, each with its own node-redis connection and RedisRateLimitStore, make their calls against the mock
// with a short window; no call may fail, and the API's rate-limit answers are counted. Webhook dedupe: two receiver
// replicas, each with its own ioredis connection and RedisDedupeStore, get every delivery twice (one copy each), retried like
// the gateway does until answered 200; no event may be lost, and none handled twice unless Redis lost what it held.
// At full size, #31.12's arrangement too (bench/reliability/redis-idle-worker.ts): six worker processes, one idle on
// ioredis, against `linkgate mock --rate-limit 30/6s`, redis-server killed partway into a window and left dead; no
// worker may get a rate-limit answer.

import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { startMockServer } from '../../mock/adapters/node-server.js';
import { Linkgate } from '../../src/index.js';
import { RedisDedupeStore, RedisRateLimitStore } from '../../src/redis/index.js';
import { createTestDelivery, createWebhookHandler } from '../../src/webhooks/index.js';
import { type RedisServer, redisMissing, startRedisServer } from '../../test/redis/support/redis-process.js';
import { idleWorkerAfterRedisDies } from './redis-idle-worker.js';
import { Examples, type PartOptions, type PartReport, zeroCheck } from './report.js';

const SECRET = 'whsec_live_0123456789abcdef0123456789abcdef';
/** How long Redis stays faulty, in ms: longer than the stores' timeout and than a rate window. */
const FAULT_MS = 2_500;
/** The stores' timeoutMs: short, so a slow Redis shows within the run. */
const TIMEOUT_MS = 300;
const SIZES = { ci: { calls: 15, events: 10 }, full: { calls: 30, events: 30 } };
const quiet = { warn: () => {}, info: () => {} };

/** A fault: what makes Redis fail, what ends it, and whether Redis loses what it held. */
interface Fault {
  name: string;
  /** True when Redis forgets its keys (done marks, windows): a copy arriving later may be handled again. */
  losesState: boolean;
  start(redis: RedisServer, proxy: Proxy): Promise<void>;
  end(redis: RedisServer, proxy: Proxy): Promise<void>;
}

const FAULTS: Fault[] = [
  { name: 'none (the baseline)', losesState: false, start: async () => {}, end: async () => {} },
  {
    name: 'killed, then started again empty',
    losesState: true,
    start: (redis) => redis.stop('SIGKILL'),
    end: (redis) => redis.restart(),
  },
  {
    name: `slow (every command held ${FAULT_MS / 1000} s)`,
    losesState: false,
    start: (redis) => admin(redis, ['CLIENT', 'PAUSE', String(FAULT_MS), 'ALL']),
    end: async () => {},
  },
  { name: 'flushed (FLUSHALL)', losesState: true, start: (redis) => admin(redis, ['FLUSHALL']), end: async () => {} },
  {
    name: 'full (maxmemory 1, noeviction)',
    losesState: false,
    start: async (redis) => {
      await admin(redis, ['CONFIG', 'SET', 'maxmemory-policy', 'noeviction']);
      await admin(redis, ['CONFIG', 'SET', 'maxmemory', '1']);
    },
    end: (redis) => admin(redis, ['CONFIG', 'SET', 'maxmemory', '0']),
  },
  {
    name: 'a fake server answering garbage (an HTTP 400)',
    losesState: false,
    start: async (_redis, proxy) => {
      proxy.garbage = true;
    },
    end: async (_redis, proxy) => {
      proxy.garbage = false;
    },
  },
];

/** Runs both stores under every fault. */
export async function redisFaults(options: PartOptions = {}): Promise<PartReport> {
  if (redisMissing) throw new Error(`the Redis fault part needs redis-server: ${redisMissing}`);
  const size = SIZES[options.size ?? 'full'];
  const redis = await startRedisServer();
  const proxy = await startProxy(redis.port);
  const figures: PartReport['figures'] = {};
  const failedCalls = new Examples();
  const lost = new Examples();
  const twice = new Examples();
  const answers = new Examples();
  let sent = 0;
  try {
    for (const fault of FAULTS) {
      const budget = await rateBudgetUnder(fault, redis, proxy, size.calls);
      sent += budget.requests;
      for (const failure of budget.failures) failedCalls.add(`${fault.name}: ${failure}`);
      // An empty Redis starts a new shared window that knows nothing of the server's: it may overshoot it once.
      if (!fault.losesState) for (let i = 0; i < budget.answers; i++) answers.add(fault.name);
      figures[`rate budget, ${fault.name}`] =
        `${budget.answers} rate-limit answers, ${budget.requests} requests for ${budget.calls} calls, ${budget.ms} ms`;
      const dedupe = await dedupeUnder(fault, redis, proxy, size.events);
      sent += dedupe.requests;
      for (const id of dedupe.lost) lost.add(`${fault.name}: ${id}`);
      if (!fault.losesState) for (const id of dedupe.twice) twice.add(`${fault.name}: ${id}`);
      figures[`dedupe, ${fault.name}`] =
        `${dedupe.lost.length} lost, ${dedupe.twice.length} handled twice, ${dedupe.errors} answered 500, ${dedupe.requests} deliveries for ${size.events} events`;
    }
  } finally {
    await proxy.close();
    await redis.stop();
  }
  const idleAnswers = new Examples();
  if (options.size !== 'ci') {
    // A Redis of its own, killed and left dead.
    const own = await startRedisServer();
    try {
      const run = await idleWorkerAfterRedisDies(own);
      sent += run.calls;
      run.workers.forEach((worker, i) => {
        for (let n = 0; n < worker.answers; n++) idleAnswers.add(i === 0 ? 'the idle worker (ioredis)' : `worker ${i}`);
        if (worker.code !== 0) failedCalls.add(`#31.12 arrangement: worker ${i} exited ${worker.code}`);
      });
      figures['six workers, one idle on ioredis, Redis killed mid-window (#31.12)'] =
        `${run.workers.map((w) => w.answers).join(', ')} rate-limit answers per worker (the idle one first); calls per 6 s window ${run.perWindow.join(', ')}; ${run.calls} requests for ${run.expectedCalls} calls, ${run.ms} ms`;
    } finally {
      await own.stop();
    }
  }
  figures['requests sent'] = sent;
  return {
    part: 'Redis faults',
    figures,
    checks: [
      zeroCheck('SDK calls failed because Redis did', failedCalls),
      zeroCheck('rate-limit answers while Redis kept its state', answers),
      zeroCheck('rate-limit answers after Redis died, six workers, one idle on ioredis (#31.12)', idleAnswers),
      zeroCheck('events lost', lost),
      zeroCheck('events handled twice while Redis kept its state', twice),
    ],
  };
}

/** Three clients sharing a budget through Redis make their calls; Redis fails a second in, for FAULT_MS. */
async function rateBudgetUnder(fault: Fault, redis: RedisServer, proxy: Proxy, calls: number) {
  const mock = await startMockServer({ seed: 'empty', rateLimit: { limit: 30, windowMs: 1_000 } });
  const connections = await Promise.all([0, 1, 2].map(() => connectThrough(proxy)));
  let answers = 0;
  let requests = 0;
  const failures: string[] = [];
  const started = performance.now();
  try {
    const clients = connections.map(
      (client) =>
        new Linkgate({
          apiKey: mock.backend.adminKey,
          baseUrl: mock.url,
          rateLimitStore: new RedisRateLimitStore({ client, timeoutMs: TIMEOUT_MS, logger: quiet }),
          onRateLimit: (e) => {
            if (e.reason === 'answer') answers++;
          },
          hooks: { beforeRequest: [() => void requests++] },
        }),
    );
    const run = Promise.all(
      clients.flatMap((client) =>
        Array.from({ length: calls }, () =>
          client.account.get().catch((error: unknown) => {
            failures.push(String(error));
          }),
        ),
      ),
    );
    await faultDuring(fault, redis, proxy);
    await run;
  } finally {
    for (const connection of connections) connection.destroy();
    await mock.close();
  }
  return { answers, requests, calls: 3 * calls, failures, ms: Math.round(performance.now() - started) };
}

/**
 * Two replicas get every event's delivery once each, a delivery every 100 ms, each copy sent again 200 ms after any
 * answer but 200, for up to 20 s; Redis fails a second in, for FAULT_MS.
 */
async function dedupeUnder(fault: Fault, redis: RedisServer, proxy: Proxy, events: number) {
  const connections = await Promise.all([0, 1].map(() => connectIoRedisThrough(proxy)));
  const handled = new Map<string, number>();
  let requests = 0;
  let errors = 0;
  try {
    const replicas = connections.map((client) =>
      createWebhookHandler({
        secret: SECRET,
        dedupe: new RedisDedupeStore({ client, timeoutMs: TIMEOUT_MS, logger: quiet }),
        onError: () => {},
        on: {
          'message.received': (_event, { deliveryId }) => {
            handled.set(deliveryId as string, (handled.get(deliveryId as string) ?? 0) + 1);
          },
        },
      }),
    );
    const deadline = performance.now() + 20_000;
    const deliver = async (replica: (typeof replicas)[number], deliveryId: string) => {
      while (performance.now() < deadline) {
        requests++;
        const answer = await replica(
          createTestDelivery({ secret: SECRET, event: 'message.received', deliveryId }).request,
        );
        if (answer.status === 200) return;
        if (answer.status >= 500 && answer.status !== 503) errors++;
        await pause(200);
      }
    };
    const ids = Array.from({ length: events }, (_, i) => `redis-fault-${Date.now()}-${i}`);
    const run = Promise.all(
      ids.map(async (id, i) => {
        await pause(i * 100);
        await Promise.all(replicas.map((replica) => deliver(replica, id)));
      }),
    );
    await faultDuring(fault, redis, proxy);
    await run;
    return {
      lost: ids.filter((id) => !handled.has(id)),
      twice: ids.filter((id) => (handled.get(id) ?? 0) > 1),
      errors,
      requests,
    };
  } finally {
    for (const connection of connections) connection.disconnect();
  }
}

/** A second into the run, Redis fails for FAULT_MS, then the fault ends. */
async function faultDuring(fault: Fault, redis: RedisServer, proxy: Proxy): Promise<void> {
  await pause(1_000);
  await fault.start(redis, proxy);
  await pause(FAULT_MS);
  await fault.end(redis, proxy);
}

/** A node-redis client through the proxy, errors swallowed (the stores see them as failed commands). */
async function connectThrough(proxy: Proxy) {
  const client = createClient({ url: `redis://127.0.0.1:${proxy.port}` });
  client.on('error', () => {});
  await client.connect();
  return client;
}

/**
 * An ioredis client through the proxy, errors swallowed. The replicas use ioredis: it drops a connection that answered
 * what it cannot parse and reconnects, where node-redis v6 keeps it and never hears an answer on it again.
 */
async function connectIoRedisThrough(proxy: Proxy) {
  const client = new Redis(proxy.port, '127.0.0.1');
  client.on('error', () => {});
  await client.ping();
  return client;
}

/** Sends one command to Redis itself (not through the proxy). */
async function admin(redis: RedisServer, command: string[]): Promise<void> {
  const client = createClient({ url: redis.url });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.sendCommand(command);
  } finally {
    client.destroy();
  }
}

/** A loopback TCP proxy to Redis that can turn into a fake server answering an HTTP 400 to whatever it is sent. */
interface Proxy {
  port: number;
  garbage: boolean;
  close(): Promise<void>;
}

async function startProxy(redisPort: number): Promise<Proxy> {
  const sockets = new Set<Socket>();
  const proxy: Proxy = { port: 0, garbage: false, close: async () => {} };
  const server: Server = createServer((client) => {
    sockets.add(client);
    const upstream = tcpConnect(redisPort, '127.0.0.1');
    sockets.add(upstream);
    client.on('data', (chunk) => {
      if (proxy.garbage) client.write('HTTP/1.1 400 Bad Request\r\n\r\n');
      else upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!proxy.garbage) client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) socket.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as AddressInfo).port;
  proxy.close = () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return proxy;
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
