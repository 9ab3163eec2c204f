// Three webhook receiver replicas, as users run them: the guide's replica snippet (docs/guides/running-on-many-processes.md)
// in three `node` processes sharing one real redis-server, behind a round-robin proxy, receiving the CLI gateway's
// deliveries in real time with injected duplicates and handlers that fail the first time: every event is handled
// once, and again after a failure; with Redis stopped mid-run, deliveries are answered 500 and handled once it is
// back; against a gateway that mints a delivery id per attempt, dedupeKey: 'event' keeps it to once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { adapt, readmeSnippet } from '../package/support/newcomer-project.js';
import { describeWithRedis, type RedisServer, startRedisServer } from '../redis/support/redis-server.js';
import { controlApi } from './support/gateway-control.js';
import { type NodeProcess, spawnNode, startCli, writeProgram } from './support/processes.js';
import { type RoundRobinProxy, startRoundRobinProxy } from './support/round-robin-proxy.js';

const GUIDE = 'docs/guides/running-on-many-processes.md';
const TOKEN = 'ctl-e2e-redis-dedupe-replicas';
const SECRET = `whsec_live_${'5'.repeat(32)}`;
const DEVICE = 'phone-1';

const replicaSnippet = readmeSnippet('Receiver replicas', 0, GUIDE);

/**
 * The app's own `saveMessage`, which the snippet calls: it prints what it saved, with the replica and delivery. A
 * message whose text starts with `flaky` fails the first time any replica saves it (the database was briefly down),
 * and one starting with `crash` kills its replica the first time (mid-handler, as the kernel's OOM killer would): the
 * first replica to get it makes a marker directory, which only one process can.
 */
const APP = `import { mkdirSync } from 'node:fs';
const saveMessage = async (data: { message_id: string; text?: string }) => {
  if (data.text?.startsWith('flaky') || data.text?.startsWith('crash')) {
    let first = true;
    try { mkdirSync(process.env.MARKS + '/' + data.message_id); } catch { first = false; }
    if (first) {
      console.log('failed ' + JSON.stringify({ replica: process.env.REPLICA, text: data.text }));
      if (data.text.startsWith('crash')) process.kill(process.pid, 'SIGKILL');
      throw new Error('database unavailable');
    }
  }
  console.log('saved ' + JSON.stringify({ replica: process.env.REPLICA, text: data.text }));
};
`;

/** The snippet as the test runs it: bound to loopback (servers here bind 127.0.0.1 only), with a dedupe key. */
function replicaProgram(dedupeKey: 'deliveryId' | 'event', extraOptions = ''): string {
  const onLoopback = adapt(
    replicaSnippet,
    'server.listen(Number(process.env.PORT ?? 3000), () => {',
    "server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {",
  );
  return APP + adapt(onLoopback, "dedupeKey: 'deliveryId',", `dedupeKey: '${dedupeKey}',${extraOptions}`);
}

/** The replica program on ioredis instead of node-redis, as the guide's note after the snippet says. */
function onIoredis(program: string): string {
  return adapt(
    program,
    `const redis = await createClient({ url: process.env.REDIS_URL })
  .on('error', (error) => console.error(\`redis: \${error.message}\`))
  .connect();`,
    `import { Redis } from 'ioredis';
const redis = new Redis(process.env.REDIS_URL!);
redis.on('error', (error) => console.error(\`redis: \${error.message}\`));`,
  );
}

interface Saved {
  replica: string;
  text: string;
}

describeWithRedis('webhook receiver replicas sharing one RedisDedupeStore', () => {
  let redis: RedisServer;
  let marks: string;
  let proxy: RoundRobinProxy | undefined;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    // Replicas and the CLI are killed by the process support after each test; their markers go here.
    if (marks) rmSync(marks, { recursive: true, force: true });
    if (redis.pid() === null) await redis.restart();
  });

  /** The CLI's gateway, three replicas of the snippet and the proxy in front of them, the webhook pointed at it. */
  async function setUp(options: { dedupeKey: 'deliveryId' | 'event'; cliArgs?: string[]; extraOptions?: string }) {
    marks = mkdtempSync(join(tmpdir(), 'linkgate-replicas-'));
    const cli = await startCli([
      '--seed',
      'empty',
      '--quiet',
      '--control-token',
      TOKEN,
      '--device',
      DEVICE,
      '--allow-http-receivers',
      ...(options.cliArgs ?? []),
    ]);
    const program = replicaProgram(options.dedupeKey, options.extraOptions);
    // Replica 2 runs on ioredis, as the guide says either library works: all three share one Redis.
    const files = [writeProgram(program), writeProgram(onIoredis(program)), writeProgram(program)];
    const replicas: NodeProcess[] = [1, 2, 3].map((n) =>
      spawnNode([files[n - 1]!], {
        env: { WEBHOOK_SECRET: SECRET, REDIS_URL: redis.url, PORT: '0', REPLICA: String(n), MARKS: marks },
      }),
    );
    const ports = await Promise.all(replicas.map(async (r) => (await r.printed(/listening on port (\d+)/))[1]));
    proxy = await startRoundRobinProxy(ports.map((port) => `http://127.0.0.1:${port}`));
    const control = controlApi(cli.url, TOKEN);
    expect((await control.post('webhooks', { url: proxy.url, secret: SECRET })).status).toBe(201);
    return { cli, replicas, control, proxy };
  }

  /** What the replicas saved and failed, from their output. */
  function outcomes(replicas: NodeProcess[]): { saved: Saved[]; failed: Saved[] } {
    const read = (word: string) =>
      replicas.flatMap((r) =>
        [...r.out().matchAll(new RegExp(`^${word} (\\{.*\\})$`, 'gm'))].map((m) => JSON.parse(m[1]!) as Saved),
      );
    return { saved: read('saved'), failed: read('failed') };
  }

  /**
   * Waits (real time, bounded) until every text in `texts` was saved and the gateway has nothing left to send: no
   * attempt in flight and no retry scheduled.
   */
  async function settled(
    control: ReturnType<typeof controlApi>,
    replicas: NodeProcess[],
    texts: string[],
    withinMs: number,
  ): Promise<void> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const saved = new Set(outcomes(replicas).saved.map((s) => s.text));
      const scheduled = (await control.get('scheduled')).body.scheduled as unknown[];
      const drained = (await control.post('drain')).body.ok === true;
      if (texts.every((t) => saved.has(t)) && scheduled.length === 0 && drained) return;
      if (Date.now() > deadline) {
        throw new Error(
          `not settled within ${withinMs} ms: saved ${[...saved].join(', ')}; ${scheduled.length} scheduled\n` +
            replicas.map((r, i) => `replica ${i + 1}:\n${r.out()}${r.err()}`).join('\n'),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** The gateway's attempts: the event's id, the id sent, the answer and the faults. */
  async function attempts(control: ReturnType<typeof controlApi>) {
    const list = (await control.get('attempts?redact=1')).body.attempts as {
      deliveryId: string;
      attempt: number;
      request: { headers: Record<string, string>; body: string };
      response: { status: number } | null;
      faults: string[];
    }[];
    return list.map((a) => ({
      event: a.deliveryId,
      sent: a.request.headers['X-Service-Delivery-ID'],
      text: (JSON.parse(a.request.body) as { data: { text?: string } }).data.text,
      attempt: a.attempt,
      status: a.response?.status ?? null,
      copy: a.faults.includes('duplicate-copy'),
    }));
  }

  const count = (items: Saved[], text: string) => items.filter((s) => s.text === text).length;

  async function until(condition: () => boolean, withinMs: number): Promise<void> {
    const deadline = Date.now() + withinMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('handles every event once across the replicas, duplicates acknowledged on another replica, a failed one again on its retry', async () => {
    const { replicas, control, proxy } = await setUp({ dedupeKey: 'deliveryId' });
    const started = performance.now();
    const plain = ['m1', 'm2', 'm3', 'm4'];
    const flaky = ['flaky-1', 'flaky-2'];
    for (const text of plain) {
      // Sent twice, one after the other, so the round robin puts the copy on the next replica.
      await control.post('faults', { duplicate: true });
      const served = proxy.served.length;
      expect((await control.post('simulate/message', { device_id: DEVICE, sender: '15551234567', text })).status).toBe(
        200,
      );
      await until(() => proxy.served.length >= served + 2, 10_000);
    }
    for (const text of flaky)
      await control.post('simulate/message', { device_id: DEVICE, sender: '15551234567', text });
    await settled(control, replicas, [...plain, ...flaky], 30_000);
    const elapsed = performance.now() - started;

    const { saved, failed } = outcomes(replicas);
    for (const text of [...plain, ...flaky]) expect(count(saved, text), `${text} saved`).toBe(1);
    expect(failed.map((f) => f.text).sort()).toEqual(flaky);
    expect(new Set(saved.map((s) => s.replica)).size).toBeGreaterThan(1);

    const tried = await attempts(control);
    for (const text of plain) {
      const own = tried.filter((a) => a.text === text);
      // The original and its copy were both answered 200, by two different replicas; only one handled it.
      expect(own.map((a) => [a.copy, a.status])).toEqual([
        [true, 200],
        [false, 200],
      ]);
      const upstreams = proxy.served.filter((r) => r.deliveryId === own[0]!.sent).map((r) => r.upstream);
      expect(upstreams).toHaveLength(2);
      expect(upstreams[0]).not.toBe(upstreams[1]);
    }
    for (const text of flaky) {
      // The failure answered 500 and released the claim; the gateway's retry 3 s later was handled.
      expect(tried.filter((a) => a.text === text).map((a) => [a.attempt, a.status])).toEqual([
        [1, 500],
        [2, 200],
      ]);
    }
    // The retries wait 3 s (+ up to 1 s of jitter); nothing else waits.
    expect(elapsed).toBeGreaterThan(3_000);
    expect(elapsed).toBeLessThan(25_000);
    for (const r of replicas) expect(r.child.exitCode).toBeNull();
  }, 120_000);

  it('answers 500 while Redis is stopped, and handles each delivery once on the retry after it is back; no replica crashes', async () => {
    const { replicas, control } = await setUp({ dedupeKey: 'deliveryId' });
    const before = ['before-1', 'before-2'];
    for (const text of before)
      await control.post('simulate/message', { device_id: DEVICE, sender: '15551234567', text });
    await settled(control, replicas, before, 20_000);

    await redis.stop('SIGKILL');
    const during = ['during-1', 'during-2', 'during-3'];
    const stoppedAt = performance.now();
    for (const text of during)
      await control.post('simulate/message', { device_id: DEVICE, sender: '15551234567', text });
    // Each first attempt is answered 500: at once once the client knows it lost Redis, else after timeoutMs (2 s).
    for (;;) {
      const firsts = (await attempts(control)).filter((a) => during.includes(a.text!) && a.attempt === 1);
      if (firsts.length === during.length && firsts.every((a) => a.status !== null)) {
        expect(firsts.map((a) => a.status)).toEqual([500, 500, 500]);
        break;
      }
      expect(performance.now() - stoppedAt).toBeLessThan(15_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(outcomes(replicas).saved.filter((s) => during.includes(s.text))).toEqual([]);
    await redis.restart();

    await settled(control, replicas, during, 60_000);
    const { saved } = outcomes(replicas);
    for (const text of [...before, ...during]) expect(count(saved, text), `${text} saved`).toBe(1);
    const tried = await attempts(control);
    for (const text of during) {
      const own = tried.filter((a) => a.text === text);
      // Answered 500 until Redis was back, then handled; never acknowledged without being handled.
      expect(own.at(-1)!.status).toBe(200);
      expect(own.slice(0, -1).every((a) => a.status === 500)).toBe(true);
    }
    // Nothing was dead-lettered, and every replica is still running.
    expect((await control.get('dead-letters')).body.items ?? []).toEqual([]);
    for (const r of replicas) expect(r.child.exitCode).toBeNull();
    // The store's logger (console) said once per replica that Redis went away, and once that it is back.
    const said = replicas.map((r) => r.err() + r.out()).join('');
    expect(said).toMatch(/RedisDedupeStore: .*deliveries are answered 500 \(so the gateway retries them later\)/);
    expect(said).toContain('RedisDedupeStore: Redis answers again; deliveries are deduped through it again.');
  }, 150_000);

  it("with a gateway that mints a delivery id per attempt, dedupeKey: 'event' handles each event once across the replicas", async () => {
    const { replicas, control } = await setUp({ dedupeKey: 'event', cliArgs: ['--variant', 'perAttemptDeliveryIds'] });
    const texts = ['e1', 'flaky-e2', 'e3'];
    await control.post('faults', { duplicate: true, times: texts.length });
    for (const text of texts)
      await control.post('simulate/message', { device_id: DEVICE, sender: '15551234567', text });
    await settled(control, replicas, texts, 30_000);

    const { saved, failed } = outcomes(replicas);
    for (const text of texts) expect(count(saved, text), `${text} saved`).toBe(1);
    expect(failed.map((f) => f.text)).toEqual(['flaky-e2']);
    const tried = await attempts(control);
    // Every attempt and copy carried a delivery id of its own, and the copies were still acknowledged unhandled.
    expect(new Set(tried.map((a) => a.sent)).size).toBe(tried.length);
    expect(tried.filter((a) => a.copy).every((a) => a.status === 200)).toBe(true);
    for (const r of replicas) expect(r.child.exitCode).toBeNull();
  }, 120_000);

  it('handles the event on a retry after the replica handling it died mid-handler, once its claim expired', async () => {
    // A claim TTL of 8 s (above the 7 s ack timeout) instead of 30 s, so the test waits for the gateway's 2nd retry.
    const { replicas, control, proxy } = await setUp({
      dedupeKey: 'deliveryId',
      extraOptions: ' dedupeClaimTtlMs: 8_000,',
    });
    const started = performance.now();
    await control.post('simulate/message', { device_id: DEVICE, sender: '15551234567', text: 'crash-1' });
    await settled(control, replicas, ['crash-1'], 60_000);
    const elapsed = performance.now() - started;

    const { saved, failed } = outcomes(replicas);
    expect(failed.map((f) => f.text)).toEqual(['crash-1']);
    expect(saved.map((s) => s.text)).toEqual(['crash-1']);
    const dead = replicas.filter((r) => r.child.signalCode === 'SIGKILL');
    expect(dead).toHaveLength(1);
    // The dead replica's connection broke (the proxy answered 502); the next replica found the claim still held and
    // answered 503 in_progress; the one after, 9 s after the crash, found it expired and handled the event.
    expect((await attempts(control)).map((a) => a.status)).toEqual([502, 503, 200]);
    expect(proxy.served.map((r) => r.upstream)).toEqual([0, 1, 2]);
    expect(elapsed).toBeGreaterThan(8_000);
    expect(elapsed).toBeLessThan(40_000);
  }, 120_000);
});
