// What open inspector pages cost everyone else (issue 21): API writes and an unrelated GET timed against the
// standalone server with 0, 1 and 300 feed readers (some of which never read) and a store of 1,500 pixels.
import { connect, type Socket } from 'node:net';
import { startMockServer } from '../../mock/adapters/node-server.js';
import type { PartOptions, PartReport } from './report.js';

const TOKEN = 'ctl_inspector_readers_bench';

/** One run: how big the store is, how many feeds are open, how many writes are timed. */
export interface ReadersRun {
  /** Pixels added to the store before the run. */
  pixels: number;
  /** Feeds open during the writes. */
  readers: number;
  /** Of the readers, how many stop reading after their first bytes (their socket stays paused). @default 0 */
  stalled?: number;
  /** Domains created one after another through `POST /api/domain/add`. */
  writes: number;
}

/** What a run measured. */
export interface ReadersFigures {
  /** Mean wall time of one write, in ms. */
  perWriteMs: number;
  /** 99th percentile of `GET /api/plans` sent meanwhile, one after another, in ms. */
  getP99Ms: number;
  /** Bytes one reading feed received during the writes (after its first snapshot). */
  bytesPerReader: number;
}

/** Opens a feed on a raw socket and counts what it receives; a `stalled` one reads its first bytes, then no more. */
function openReader(port: number, stalled: boolean): { socket: Socket; received: () => number } {
  const socket = connect(port, '127.0.0.1');
  socket.write(`GET /__mock/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`);
  let bytes = 0;
  socket.on('data', (d: Buffer) => {
    bytes += d.length;
    if (stalled) socket.pause();
  });
  return { socket, received: () => bytes };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
};

/** Runs the writes against a fresh server with `readers` feeds open; every socket is closed at the end. */
export async function measureReaders(run: ReadersRun): Promise<ReadersFigures> {
  const server = await startMockServer({ seed: 'demo', rateLimit: false, gateway: { controlToken: TOKEN } });
  const { store } = server.backend;
  const alice = [...store.users.values()].find((u) => u.username === 'alice')!;
  for (let i = 0; i < run.pixels; i++)
    store.addPixel(alice.id, { type: 'gtmpixel', name: `pixel ${i}`, tag: `GTM-${i}` });
  const port = Number(new URL(server.url).port);
  const stalled = run.stalled ?? 0;
  const readers = Array.from({ length: run.readers }, (_, i) => openReader(port, i < stalled));
  const headers = { authorization: `Bearer ${alice.apikey}`, 'content-type': 'application/json' };
  try {
    const deadline = performance.now() + 30_000;
    for (let open = 0; open < run.readers; open = readers.filter((r) => r.received() > 0).length) {
      if (performance.now() > deadline) throw new Error(`only ${open} of ${run.readers} feeds opened`);
      await new Promise((r) => setTimeout(r, 10));
    }
    // Every reader has had its snapshot; count from here.
    await new Promise((r) => setTimeout(r, 300));
    const watched = readers.slice(stalled);
    const before = watched.map((r) => r.received());
    let writing = true;
    const gets: number[] = [];
    const getter = (async () => {
      while (writing) {
        const started = performance.now();
        await (await fetch(`${server.url}/api/plans`, { headers })).arrayBuffer();
        gets.push(performance.now() - started);
      }
    })();
    const started = performance.now();
    for (let i = 0; i < run.writes; i++) {
      const res = await fetch(`${server.url}/api/domain/add`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ domain: `https://w${i}.bench.example` }),
      });
      if (res.status !== 200) throw new Error(`POST /api/domain/add answered ${res.status}: ${await res.text()}`);
    }
    const perWriteMs = (performance.now() - started) / run.writes;
    writing = false;
    await getter;
    // The last coalesced update reaches the readers.
    await new Promise((r) => setTimeout(r, 300));
    const got = watched.map((r, i) => r.received() - before[i]!);
    return { perWriteMs, getP99Ms: percentile(gets, 99), bytesPerReader: got.length ? Math.max(...got) : 0 };
  } finally {
    for (const r of readers) r.socket.destroy();
    await server.close();
  }
}

/** The reliability part: the cost of a write with no feed, one, and 300 (50 of them never reading). */
export async function inspectorReaders(options: PartOptions = {}): Promise<PartReport> {
  const writes = options.size === 'ci' ? 150 : 600;
  const pixels = 1_500;
  const none = await measureReaders({ pixels, readers: 0, writes });
  const one = await measureReaders({ pixels, readers: 1, writes });
  const many = await measureReaders({ pixels, readers: 300, stalled: 50, writes });
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  return {
    part: 'inspector readers',
    figures: {
      store: `${pixels} pixels, ${writes} writes`,
      'per write, no feed': ms(none.perWriteMs),
      'per write, 1 feed': ms(one.perWriteMs),
      'per write, 300 feeds (50 never read)': ms(many.perWriteMs),
      'GET p99, no feed': ms(none.getP99Ms),
      'GET p99, 300 feeds': ms(many.getP99Ms),
      'bytes per reader per write, 300 feeds': Math.round(many.bytesPerReader / writes),
    },
    checks: [
      // Generous: the machine is shared; before issue 21 the ratio was about 8.
      {
        name: 'per-write cost with 300 feeds over no feed',
        value: many.perWriteMs / none.perWriteMs,
        max: 3,
        unit: 'x',
      },
      {
        name: 'GET p99 with 300 feeds over no feed',
        value: many.getP99Ms / Math.max(1, none.getP99Ms),
        max: 4,
        unit: 'x',
      },
    ],
  };
}
