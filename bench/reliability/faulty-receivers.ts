// Part 4: faulty receivers through the gateway engine, on a ManualClock so every wait is exact. Real loopback
// receivers fail at random (5xx, 404, hangs until the 8 s deadline, slow answers), one is down for a while, and
// duplicates are injected. Every published event must end delivered or dead-lettered (none lost), and each circuit's
// open period must hold: no receiver call while open except the probe after it, and no opening undone early. The
// engine's own fetch is wrapped only to log, in order, when each call leaves; the real fetch still makes it.
// Over HTTP, the control API's clock advance must move past a receiver that never answers (finding 5).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startMockServer } from '../../mock/adapters/node-server.js';
import type { CircuitTransition } from '../../mock/delivery/circuit-breaker.js';
import { Gateway } from '../../mock/gateway/gateway.js';
import { ManualClock } from '../../mock/shared/manual-clock.js';
import { startNodeListener } from '../../test/mock/support/receiver.js';
import { seeded } from '../../test/mock/support/seeded.js';
import { DEFAULT_SEED, Examples, type PartOptions, type PartReport, zeroCheck } from './report.js';

const EVENTS = { ci: 150, full: 2_000 } as const;
/** Real time one settle may take before the run says so (the engine waits on loopback answers only). */
const SETTLE_LIMIT_MS = 10_000;
/** The control API's clock advance past a hanging receiver: its answer grace (2 s) plus margin, far below the old 15 s. */
const ADVANCE_BOUND_MS = 5_000;

type Behaviour = 'ok' | 'fail' | 'reject' | 'hang' | 'slow';

/** A log entry, in the order things happened: a call leaving the engine, or a circuit changing state. */
type LogEntry =
  | { kind: 'call'; url: string; at: number; deliveryId: string; copy: boolean }
  | { kind: 'circuit'; transition: CircuitTransition };

/** Runs the faulty-receiver scenarios and reports. */
export async function attackGateway(options: PartOptions = {}): Promise<PartReport> {
  const size = options.size ?? 'full';
  const seed = options.seed ?? DEFAULT_SEED;
  const lost = new Examples();
  const earlyCalls = new Examples();
  const undone = new Examples();
  const stuck = new Examples();

  // Receivers: one fails at random, one is down for the first two minutes, then answers.
  const clock = new ManualClock();
  let hangsOpen = 0;
  let answering = 0;
  const hanging = new Set<ServerResponse>();
  const hangingIds = new Set<string>();
  const serve = (behaviour: (req: IncomingMessage) => Behaviour) => (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const b = behaviour(req);
      if (b === 'hang') {
        const id = String(req.headers['x-service-delivery-id']);
        hangsOpen++;
        hanging.add(res);
        hangingIds.add(id);
        res.on('close', () => {
          hangsOpen--;
          hanging.delete(res);
          hangingIds.delete(id);
        });
        return;
      }
      answering++;
      const reply = () => {
        res.writeHead(b === 'ok' || b === 'slow' ? 200 : b === 'reject' ? 404 : 500, {
          'content-type': 'application/json',
        });
        res.end('{"status":"success"}');
        answering--;
      };
      if (b === 'slow') setTimeout(reply, 10 + Math.floor(unitHash(String(req.headers['x-service-delivery-id'])) * 40));
      else reply();
    });
  };
  // Each request's fate hangs on its delivery id and how often that id came before, not on arrival order, so a
  // seed replays the same run however the loopback schedules it.
  const seen = new Map<string, number>();
  const flaky = await startNodeListener(
    serve((req) => {
      const id = String(req.headers['x-service-delivery-id']);
      const n = seen.get(id) ?? 0;
      seen.set(id, n + 1);
      const r = unitHash(`${seed}:${id}:${n}`);
      return r < 0.55 ? 'ok' : r < 0.8 ? 'fail' : r < 0.85 ? 'reject' : r < 0.9 ? 'hang' : 'slow';
    }),
  );
  const downUntil = clock.now() + 120_000;
  const down = await startNodeListener(serve(() => (clock.now() < downUntil ? 'fail' : 'ok')));

  const log: LogEntry[] = [];
  let calls = 0;
  // The engine sends an injected duplicate with the very headers object of the attempt it copies.
  const sentHeaders = new WeakSet<object>();
  let copiesWhileOpen = 0;
  const loggingFetch: typeof fetch = (input, init) => {
    calls++;
    const copy = typeof init?.headers === 'object' && sentHeaders.has(init.headers);
    if (typeof init?.headers === 'object') sentHeaders.add(init.headers);
    const deliveryId = new Headers(init?.headers).get('x-service-delivery-id') ?? '';
    log.push({ kind: 'call', url: String(input), at: clock.now(), deliveryId, copy });
    return fetch(input, init);
  };
  const gateway = new Gateway(clock, seeded(seed), { fetch: loggingFetch });
  gateway.on('circuit', (transition) => log.push({ kind: 'circuit', transition }));
  let recorded = 0;
  gateway.on('attempt', (a) => {
    if (a.outcome !== 'circuit-open') recorded++;
  });
  const delivered = new Set<string>();
  const deadLettered = new Set<string>();
  gateway.on('delivered', (d) => delivered.add(d.deliveryId));
  gateway.on('dead-lettered', (d) => deadLettered.add(d.deliveryId));
  gateway.routing.setTenant('default', { url: flaky.url });
  gateway.routing.setTenant('down', { url: down.url });
  const devices = [gateway.devices.add({ tenant: 'default' }), gateway.devices.add({ tenant: 'down' })];

  // Waits until every call that will be answered has been and the engine is done with it: what is still out is
  // held by the receiver as a hang, twice in a row (a duplicate copy leaves right after its first exchange).
  const tracked = gateway as { inFlight?: () => { deliveryId: string }[] };
  const settle = async () => {
    const started = performance.now();
    let calm = 0;
    for (;;) {
      await new Promise((r) => setTimeout(r, 2));
      const flights = tracked.inFlight?.();
      const quiet =
        answering === 0 &&
        (flights ? flights.every((f) => hangingIds.has(f.deliveryId)) : recorded === calls - hangsOpen);
      calm = quiet ? calm + 1 : 0;
      if (calm >= 2) return;
      if (performance.now() - started > SETTLE_LIMIT_MS) {
        stuck.add(`at +${clock.now() - start} ms: ${calls} calls, ${recorded} recorded, ${hangsOpen} hanging`);
        return;
      }
    }
  };

  const start = clock.now();
  const queued: string[] = [];
  const started = performance.now();
  try {
    for (let i = 0; i < EVENTS[size]; i++) {
      if (i % 25 === 7) gateway.faults.next({ duplicate: true }, 1);
      const device = devices[i % 5 === 0 ? 1 : 0]!;
      const result = gateway.simulate.message({ device_id: device.id, sender: '15551234567', text: `event ${i}` });
      const delivery = (result as { delivery?: { queued: boolean; deliveryId?: string } }).delivery;
      if (delivery?.queued && delivery.deliveryId) queued.push(delivery.deliveryId);
      if (i % 10 === 9) {
        await settle();
        await clock.advance(1_000);
      }
    }
    // Then let time run until no retry, timeout or circuit wait is left.
    for (let steps = 0; steps < 100_000; steps++) {
      await settle();
      const next = clock.nextAt();
      if (next === null) break;
      await clock.advanceTo(next);
    }
    await settle();
  } finally {
    for (const res of hanging) res.destroy();
    await flaky.close();
    await down.close();
  }
  const realMs = performance.now() - started;

  for (const id of queued) {
    if (!delivered.has(id) && !deadLettered.has(id)) lost.add(`delivery ${id}: neither delivered nor dead-lettered`);
  }
  const { openings, copies } = checkCircuits(log, earlyCalls, undone);
  copiesWhileOpen = copies;
  const inFlight = await minimalInFlightCase(undone);
  const advance = await clockAdvancePastHang(stuck);

  return {
    part: 'faulty receivers through the gateway engine (ManualClock)',
    figures: {
      seed,
      'events published': queued.length,
      delivered: delivered.size,
      'dead-lettered': deadLettered.size,
      'receiver calls': calls,
      'circuit openings': openings,
      'injected duplicate copies sent while open (copies of attempts let through before)': copiesWhileOpen,
      'simulated time': `${Math.round((clock.now() - start) / 1000)} s`,
      'real time': `${Math.round(realMs)} ms`,
      'in-flight answer after opening (finding 4)': inFlight,
      'clock advance past a hanging receiver (finding 5)': advance,
    },
    checks: [
      zeroCheck('events lost', lost),
      zeroCheck('receiver calls while a circuit was open (probe excepted)', earlyCalls),
      zeroCheck('open periods ended early', undone),
      zeroCheck('waits stuck behind a receiver', stuck),
    ],
  };
}

/**
 * Walks the ordered log: between an opening and the next transition of that URL, calls of one delivery at most (the
 * probe, and its injected duplicate copy), none of them before the open period ends.
 */
function checkCircuits(log: LogEntry[], earlyCalls: Examples, undone: Examples): { openings: number; copies: number } {
  const open = new Map<string, { until: number; probe: string | undefined }>();
  let openings = 0;
  let copies = 0;
  for (const entry of log) {
    if (entry.kind === 'circuit') {
      const t = entry.transition;
      const current = open.get(t.url);
      if (current && t.at < current.until) {
        undone.add(
          `${t.url}: ${t.from} -> ${t.to} at ${t.at}, ${current.until - t.at} ms before the open period ended`,
        );
      }
      if (t.to === 'open') {
        openings++;
        open.set(t.url, { until: t.openUntil ?? t.at, probe: undefined });
      } else open.delete(t.url);
      continue;
    }
    const current = open.get(entry.url);
    if (!current) continue;
    // An injected duplicate belongs to the attempt it copies, which the circuit let through before it opened.
    if (entry.copy) {
      copies++;
      continue;
    }
    if (entry.at < current.until) {
      earlyCalls.add(
        `${entry.url}: a call at ${entry.at}, ${current.until - entry.at} ms before the circuit half-opens`,
      );
    } else if (current.probe === undefined) current.probe = entry.deliveryId;
    else if (current.probe !== entry.deliveryId) {
      earlyCalls.add(
        `${entry.url}: delivery ${entry.deliveryId} called beside the probe ${current.probe}, before its answer`,
      );
    }
  }
  return { openings, copies };
}

/**
 * The minimal case: six events, the first still in flight while the next five fail and open the circuit,
 * then the first answers 200. Only the probe's answer may change an open circuit.
 */
async function minimalInFlightCase(undone: Examples): Promise<string> {
  let n = 0;
  let release: (() => void) | undefined;
  const receiver = await startNodeListener((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = (status: number) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end('{"status":"success"}');
      };
      if (n++ === 0) release = () => answer(200);
      else answer(500);
    });
  });
  try {
    const clock = new ManualClock();
    const gateway = new Gateway(clock, seeded(1));
    gateway.routing.setTenant('default', { url: receiver.url });
    const device = gateway.devices.add();
    for (let i = 0; i < 6; i++) gateway.simulate.message({ device_id: device.id, sender: '15551234567' });
    const started = performance.now();
    while ((!release || gateway.circuits()[0]?.state !== 'open') && performance.now() - started < 5_000) {
      await new Promise((r) => setTimeout(r, 2));
    }
    const before = gateway.circuits()[0]?.state;
    release?.();
    await gateway.drain(5_000).catch(() => undefined);
    const after = gateway.circuits()[0]?.state;
    const verdict = `circuit ${before} before the in-flight 200, ${after} after`;
    if (before === 'open' && after !== 'open') undone.add(`minimal case: ${verdict}`);
    return verdict;
  } finally {
    await receiver.close();
  }
}

/** `POST /__mock/clock/advance {"ms":8000}` with a receiver that never answers must answer, and time the attempt out. */
async function clockAdvancePastHang(stuck: Examples): Promise<string> {
  const hung = new Set<ServerResponse>();
  const receiver = await startNodeListener((req, res) => {
    req.resume();
    hung.add(res);
  });
  const server = await startMockServer({
    clock: new ManualClock(),
    random: seeded(2),
    gateway: { controlToken: 'ctl_reliability' },
  });
  const control = (path: string, body: unknown) =>
    fetch(`${server.url}/__mock/${path}`, {
      method: 'POST',
      headers: { authorization: 'Bearer ctl_reliability', 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  try {
    await control('webhooks', { url: receiver.url });
    const device = (await (await control('devices', {})).json()) as { id: string };
    await control('simulate/message', { device_id: device.id, sender: '15551234567' });
    const started = performance.now();
    const res = await control('clock/advance', { ms: 8_000 }).catch((e: unknown) => ({
      status: 0,
      text: async () => String(e),
    }));
    const ms = performance.now() - started;
    const text = await res.text();
    const attempts = server.backend.gateway.attempts();
    const timedOut = attempts.some((a) => a.outcome === 'failed' && a.response === null);
    const verdict = `HTTP ${res.status} after ${Math.round(ms)} ms; attempt ${timedOut ? 'timed out and recorded' : 'not recorded as timed out'}`;
    if (res.status !== 200 || ms > ADVANCE_BOUND_MS || !timedOut)
      stuck.add(`clock advance past a hanging receiver: ${verdict} ${text.slice(0, 160)}`);
    return verdict;
  } finally {
    for (const res of hung) res.destroy();
    await receiver.close();
    await server.close();
  }
}

/** A number in [0, 1) from a string (FNV-1a), the same for the same string in every run. */
function unitHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  // The murmur3 finaliser spreads strings that differ only in their last characters.
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}
