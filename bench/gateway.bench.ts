// Webhook delivery throughput and messaging-key validation latency, each against its floor in the same run.
//
// Throughput: deliveries per second from the gateway engine (routing, ULID delivery id, spec headers, 8 s abort
// timer on the clock, circuit bookkeeping, attempt record) to a local receiver that answers 200, side by side with a
// bare loop of `fetch` POSTs of the very same bodies and headers at the same concurrency (the floor). The receiver
// runs in a child process so it never shares an event loop with the sender being measured.
//
// Key validation: p50/p99 of MessagingKeyring.authenticate (the messaging group's guard) over 100k validations of
// keys from a ring of 1,000, timed one by one with hrtime.
import { type ChildProcess, spawn } from 'node:child_process';
import { GatewayEngine } from '../mock/delivery/delivery-engine.js';
import { WebhookRouting } from '../mock/delivery/webhook-routing.js';
import { MessagingKeyring } from '../mock/messaging/messaging-keyring.js';
import { systemClock } from '../src/shared/clock.js';
import { deliveryHeaders } from '../src/webhooks/delivery-headers.js';

const CONCURRENCY = 16;
const EVENTS = 4_000;
const ROUNDS = 3;
const RATIO_TARGET = 0.5;
const VALIDATIONS = 100_000;
const P99_TARGET_US = 20;

const RECEIVER = `
const http = require('node:http');
const ok = '{"status":"success"}';
const server = http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json', 'content-length': ok.length }); res.end(ok); });
});
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

async function startReceiver(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) =>
    child.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim())),
  );
  return { url: `http://127.0.0.1:${port}/hook`, child };
}

function payload(i: number): Record<string, unknown> {
  return {
    event: 'message.received',
    device_id: 'dev_1',
    timestamp: 1_767_225_600,
    data: {
      message_id: `3EB0${i.toString(16).padStart(16, '0').toUpperCase()}`,
      sender: '15551234567',
      sender_jid: '15551234567@s.whatsapp.net',
      push_name: 'Bench',
      text: `message number ${i}`,
      has_media: false,
      timestamp: 1_767_225_600,
    },
  };
}

/** The floor: the same POSTs with bare fetch, CONCURRENCY at a time. */
async function floor(url: string, secret: string): Promise<number> {
  const bodies = Array.from({ length: EVENTS }, (_, i) => JSON.stringify(payload(i)));
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < bodies.length) {
      const i = next++;
      const headers = deliveryHeaders({
        secret,
        deliveryId: `01J${String(i).padStart(23, '0')}`,
        event: 'message.received',
        deviceId: 'dev_1',
        timestamp: Date.now() / 1000,
      });
      const res = await fetch(url, { method: 'POST', headers, body: bodies[i] });
      if (res.status !== 200) throw new Error(`floor: receiver answered ${res.status}`);
      await res.text();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return EVENTS / ((performance.now() - started) / 1000);
}

/** The engine: publish every event, then wait until all are delivered. */
async function engine(url: string, secret: string): Promise<number> {
  const routing = new WebhookRouting(Math.random);
  routing.setTenant('default', { url, secret });
  const gateway = new GatewayEngine(routing, { clock: systemClock, concurrency: CONCURRENCY, jitterMs: 0 });
  let delivered = 0;
  gateway.on('delivered', () => delivered++);
  const payloads = Array.from({ length: EVENTS }, (_, i) => payload(i));
  const started = performance.now();
  for (const p of payloads)
    gateway.publish({ tenant: 'default', deviceId: 'dev_1', event: 'message.received', payload: p });
  await gateway.drain(120_000);
  const elapsed = performance.now() - started;
  if (delivered !== EVENTS) throw new Error(`engine: ${delivered} of ${EVENTS} delivered`);
  return EVENTS / (elapsed / 1000);
}

function keyValidation(): { p50: number; p99: number; max: number } {
  const ring = new MessagingKeyring(systemClock, Math.random);
  const headers = Array.from({ length: 1_000 }, (_, i) => `Bearer ${ring.create({ tenant: `t${i % 10}` }).key}`);
  // Warm up the JIT before timing.
  for (let i = 0; i < 20_000; i++) ring.authenticate(headers[i % headers.length]);
  const samples = new Float64Array(VALIDATIONS);
  for (let i = 0; i < VALIDATIONS; i++) {
    const header = headers[(i * 7919) % headers.length];
    const t = process.hrtime.bigint();
    const ok = ring.authenticate(header);
    samples[i] = Number(process.hrtime.bigint() - t) / 1000;
    if (!ok) throw new Error('key validation failed for a valid key');
  }
  samples.sort();
  return {
    p50: samples[VALIDATIONS * 0.5]!,
    p99: samples[Math.floor(VALIDATIONS * 0.99)]!,
    max: samples[VALIDATIONS - 1]!,
  };
}

const secret = `whsec_live_${'0'.repeat(32)}`;
const receiver = await startReceiver();
try {
  // Warm-up of both paths (connections, JIT), not measured.
  await floor(receiver.url, secret);
  await engine(receiver.url, secret);
  const floors: number[] = [];
  const engines: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    floors.push(await floor(receiver.url, secret));
    engines.push(await engine(receiver.url, secret));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const f = median(floors);
  const e = median(engines);
  const ratio = e / f;
  console.log(`webhook deliveries, ${EVENTS} events x ${ROUNDS} rounds, concurrency ${CONCURRENCY} (median)`);
  console.log(
    `  floor  (bare fetch loop): ${f.toFixed(0)} deliveries/s   rounds: ${floors.map((x) => x.toFixed(0)).join(', ')}`,
  );
  console.log(
    `  engine (GatewayEngine)  : ${e.toFixed(0)} deliveries/s   rounds: ${engines.map((x) => x.toFixed(0)).join(', ')}`,
  );
  console.log(`  ratio ${ratio.toFixed(2)} (target >= ${RATIO_TARGET}) ${ratio >= RATIO_TARGET ? 'PASS' : 'MISS'}`);
} finally {
  receiver.child.kill();
}

const kv = keyValidation();
console.log(`messaging key validation, ${VALIDATIONS} validations over 1,000 keys`);
console.log(`  p50 ${kv.p50.toFixed(2)} µs, p99 ${kv.p99.toFixed(2)} µs, max ${kv.max.toFixed(1)} µs`);
console.log(
  `  p99 target < ${P99_TARGET_US} µs: ${kv.p99 < P99_TARGET_US ? 'PASS' : 'MISS'}; spec < 200 µs: ${kv.p99 < 200 ? 'PASS' : 'MISS'} (ratio to target ${(kv.p99 / P99_TARGET_US).toFixed(2)})`,
);
