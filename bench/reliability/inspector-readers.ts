// What open inspector pages cost everyone else (issue 21): API writes and an unrelated GET timed against the
// standalone server with 0, 1 and 300 feed readers (some of which stop reading) and a store of 1,500 pixels. The
// readers run in a process of their own (inspector-readers-child.ts), so only the server's work is timed.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
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
  /**
   * Read the feeds in the server's own process, as fast as its event loop lets them: every update reaches every
   * reader, the worst case for the server. Otherwise they read from a process of their own, and only the server's
   * work is timed. @default false
   */
  sameProcess?: boolean;
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

/** Open feeds: what {@link openFeeds} hands back. */
export interface Readers {
  /** The bytes each reading feed got since all were open; ends the readers. */
  report(): Promise<number[]>;
  stop(): void;
}

/**
 * Opens `readers` feeds in this process on raw sockets, the first `stalled` of which stop reading after their first
 * bytes; resolves once every feed has had its snapshot.
 */
export async function openFeeds(port: number, token: string, readers: number, stalled: number): Promise<Readers> {
  const received = new Array<number>(readers).fill(0);
  const sockets = received.map((_, i) => {
    const socket = connect(port, '127.0.0.1');
    socket.write(`GET /__mock/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    socket.on('data', (d: Buffer) => {
      received[i]! += d.length;
      if (i < stalled) socket.pause();
    });
    return socket;
  });
  const deadline = performance.now() + 30_000;
  while (received.some((n) => n === 0)) {
    if (performance.now() > deadline) throw new Error(`only ${received.filter((n) => n > 0).length} feeds opened`);
    await new Promise((r) => setTimeout(r, 10));
  }
  await new Promise((r) => setTimeout(r, 300));
  const atOpen = [...received];
  const stop = () => {
    for (const s of sockets) s.destroy();
  };
  return {
    async report() {
      stop();
      return received.map((n, i) => n - atOpen[i]!).slice(stalled);
    },
    stop,
  };
}

/** Opens the feeds from inspector-readers-child.ts, in a process of their own; resolves once all are open. */
async function openReaders(port: number, readers: number, stalled: number): Promise<Readers> {
  const script = fileURLToPath(new URL('./inspector-readers-child.ts', import.meta.url));
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, String(port), TOKEN, String(readers), String(stalled)],
    {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  let out = '';
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.startsWith('open\n')) resolve();
    });
    void closed.then((code) => reject(new Error(`the readers' process exited with ${code}: ${out}`)));
  });
  return {
    async report() {
      child.stdin.write('report\n');
      const code = await closed;
      if (code !== 0) throw new Error(`the readers' process exited with ${code}: ${out}`);
      return JSON.parse(out.slice('open\n'.length)) as number[];
    },
    stop: () => child.kill('SIGTERM'),
  };
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
  const readers =
    run.readers === 0
      ? undefined
      : run.sameProcess
        ? await openFeeds(port, TOKEN, run.readers, stalled)
        : await openReaders(port, run.readers, stalled);
  const headers = { authorization: `Bearer ${alice.apikey}`, 'content-type': 'application/json' };
  try {
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
    const got = (await readers?.report()) ?? [];
    return { perWriteMs, getP99Ms: percentile(gets, 99), bytesPerReader: got.length ? Math.max(...got) : 0 };
  } finally {
    readers?.stop();
    await server.close();
  }
}

/** The reliability part: the cost of a write with no feed, one, and 300 (50 of them stop reading), read in the
 * server's process (every update reaches every reader) and from a process of their own. */
export async function inspectorReaders(options: PartOptions = {}): Promise<PartReport> {
  const writes = options.size === 'ci' ? 150 : 600;
  const pixels = 1_500;
  const none = await measureReaders({ pixels, readers: 0, writes });
  const one = await measureReaders({ pixels, readers: 1, writes, sameProcess: true });
  const many = await measureReaders({ pixels, readers: 300, stalled: 50, writes, sameProcess: true });
  const apart = await measureReaders({ pixels, readers: 300, stalled: 50, writes });
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  return {
    part: 'inspector readers',
    figures: {
      store: `${pixels} pixels, ${writes} writes`,
      'per write, no feed': ms(none.perWriteMs),
      'per write, 1 feed': ms(one.perWriteMs),
      'per write, 300 feeds (50 stop reading)': ms(many.perWriteMs),
      'per write, 300 feeds read from another process': ms(apart.perWriteMs),
      'GET p99, no feed': ms(none.getP99Ms),
      'GET p99, 300 feeds': ms(many.getP99Ms),
      'GET p99, 300 feeds read from another process': ms(apart.getP99Ms),
    },
    checks: [
      // Generous: the machine is shared; before issue 21 both ratios were about 8.
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
      // Before: 1–8 KB a write (the whole data section, as often as a reader kept up).
      { name: 'bytes a feed gets per write, 300 feeds', value: Math.round(apart.bytesPerReader / writes), max: 300 },
    ],
  };
}
