// Part 3: hostile servers for the SDK. Each scenario is a loopback node:http server that misbehaves (endless body,
// huge body, gzip bomb, 429 with only Retry-After, X-RateLimit-Limit: 0, redirects to another origin) and, where the
// scenario then answers normally, forwards to a real mock server, so no answer of our API is re-stated here. A client
// with default options calls it; the call must end with the expected result or typed error, within its time bound,
// without memory growing past the bound and without a request reaching another origin.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { startMockServer } from '../../mock/adapters/node-server.js';
import { APIConnectionError, Linkgate, LinkgateError } from '../../src/index.js';
import { sampleMemory } from './memory-peak.js';
import { Examples, type PartOptions, type PartReport, zeroCheck } from './report.js';

/** Growth of resident memory allowed while one hostile answer is read (the client's default bound is 16 MiB). */
export const SDK_MEMORY_BOUND_MB = 100;

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void | Promise<void>;

interface Scenario {
  name: string;
  serve: Handler;
  /** What the client does. */
  call: (client: Linkgate, signal: AbortSignal) => Promise<unknown>;
  /**
   * What the call must end with: a result; a LinkgateError of the class named (by name, so the suite also runs, and
   * fails, against versions without that class); or `settled`: a result or any LinkgateError, as long as it ends.
   */
  expect: 'result' | 'settled' | 'ResponseTooLargeError' | 'CrossOriginRedirectError';
  /** Wall time the call may take, and (where waiting is the point) must at least take, in ms. */
  within: [number, number];
}

/** Runs every scenario and reports its figures. */
export async function attackSdk(options: PartOptions = {}): Promise<PartReport> {
  const size = options.size ?? 'full';
  // What a hostile server pushes at most: enough that an unbounded reader shows, not enough to endanger the machine.
  const cap = (size === 'ci' ? 96 : 384) * 1024 * 1024;
  const mock = await startMockServer({ seed: 'demo', rateLimit: false });
  const elsewhere = await listen((_req, res) => {
    otherOrigin.add(`${_req.method} ${_req.url} ${JSON.stringify(_req.headers)}`);
    res.end('{"error":0}');
  });
  const otherOrigin = new Examples();
  const forward = forwardTo(mock.url);
  // Compressed before any measuring starts: inflating it is the client's cost, not ours.
  const gzipBomb = bomb(cap);
  const scenarios: Scenario[] = [
    {
      name: 'endless body',
      serve: (_req, res) => pump(res, cap, {}),
      call: (c, signal) => c.account.get({ signal }),
      expect: 'ResponseTooLargeError',
      within: [0, 5_000],
    },
    {
      name: 'huge body with its length declared',
      serve: (_req, res) => pump(res, cap, { 'content-length': String(cap) }),
      call: (c, signal) => c.account.get({ signal }),
      expect: 'ResponseTooLargeError',
      within: [0, 5_000],
    },
    {
      name: 'gzip bomb',
      serve: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipBomb);
      },
      call: (c, signal) => c.account.get({ signal }),
      expect: 'ResponseTooLargeError',
      within: [0, 5_000],
    },
    {
      name: '429 with Retry-After: 1 and no rate headers, then the real answer',
      serve: (req, res, n) => {
        if (n > 0) return forward(req, res);
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end('{"error":1,"message":"Too many requests"}');
      },
      call: (c, signal) => c.account.get({ signal }),
      expect: 'result',
      within: [900, 4_000],
    },
    {
      name: '200 with error 429 and Retry-After: 1, no rate headers, then the real answer',
      serve: (req, res, n) => {
        if (n > 0) return forward(req, res);
        res.writeHead(200, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end('{"error":429,"message":"Rate limit exceeded"}');
      },
      call: (c, signal) => c.account.get({ signal }),
      expect: 'result',
      within: [900, 4_000],
    },
    {
      name: '429 with an HTTP-date Retry-After 2 s ahead, then the real answer',
      serve: (req, res, n) => {
        if (n > 0) return forward(req, res);
        res.writeHead(429, {
          'content-type': 'application/json',
          'retry-after': new Date(Date.now() + 2_000).toUTCString(),
        });
        res.end('{"error":1,"message":"Too many requests"}');
      },
      call: (c, signal) => c.account.get({ signal }),
      expect: 'result',
      within: [900, 5_000],
    },
    {
      name: 'X-RateLimit-Limit: 0 on every answer, two calls',
      serve: (req, res) => forward(req, res, { 'x-ratelimit-limit': '0', 'x-ratelimit-remaining': '0' }),
      call: async (c, signal) => {
        await c.account.get({ signal }).catch(() => undefined);
        return c.account.get({ signal });
      },
      expect: 'settled',
      within: [0, 5_000],
    },
    {
      name: '307 of a POST to another origin',
      serve: (_req, res) => {
        res.writeHead(307, { location: `${elsewhere.url}/api/domain/add` });
        res.end();
      },
      call: (c, signal) => c.domains.create({ domain: 'https://go.hostile.example' }, { signal }),
      expect: 'CrossOriginRedirectError',
      within: [0, 5_000],
    },
    {
      name: '302 of a GET to another origin',
      serve: (_req, res) => {
        res.writeHead(302, { location: `${elsewhere.url}/api/account` });
        res.end();
      },
      call: (c, signal) => c.account.get({ signal }),
      expect: 'CrossOriginRedirectError',
      within: [0, 5_000],
    },
  ];

  const broken = new Examples(9);
  const late = new Examples(9);
  let peakMb = 0;
  let worstMemory = '';
  const timings: string[] = [];
  try {
    for (const s of scenarios) {
      let n = 0;
      pushed = 0;
      const server = await listen((req, res) => s.serve(req, res, n++));
      const client = new Linkgate({
        apiKey: mock.backend.adminKey,
        baseUrl: server.url,
        headers: { 'X-Custom-Header': 'must-not-leave-this-origin' },
        ...(process.env.RELIABILITY_UNBOUNDED ? { maxResponseBytes: 1e10 } : {}),
      });
      const memory = sampleMemory();
      const started = performance.now();
      let outcome: string;
      let ok: boolean;
      try {
        await s.call(client, AbortSignal.timeout(s.within[1] + 2_000));
        outcome = 'result';
        ok = s.expect === 'result' || s.expect === 'settled';
      } catch (error) {
        outcome = describeError(error);
        ok =
          error instanceof LinkgateError &&
          (s.expect === 'settled' || classNames(error).includes(s.expect)) &&
          // A body we refused to read is not a network failure; saying "could not connect" sends users astray.
          !(error instanceof APIConnectionError);
      }
      const ms = performance.now() - started;
      const growth = memory.stop();
      await server.close();
      const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
      timings.push(
        `${s.name}: ${Math.round(ms)} ms, RSS +${growth.rssMb.toFixed(0)} MB, heap + buffers +${growth.heapMb.toFixed(0)} MB, server sent ${mb(pushed)}; ${outcome.slice(0, 60)}`,
      );
      if (!ok) broken.add(`${s.name}: expected ${s.expect}, got ${outcome}`);
      if (ms < s.within[0] || ms > s.within[1]) {
        late.add(
          `${s.name}: ${Math.round(ms)} ms, outside ${s.within[0]}–${s.within[1]} ms (${outcome.slice(0, 120)})`,
        );
      }
      const held = Math.max(growth.rssMb, growth.heapMb);
      if (held > peakMb) {
        peakMb = held;
        worstMemory = `${s.name} (server pushed ${(pushed / 1024 / 1024).toFixed(1)} MB before the client stopped)`;
      }
      // Let the scenario's garbage go before the next one measures.
      globalThis.gc?.();
    }
  } finally {
    await elsewhere.close();
    await mock.close();
  }
  return {
    part: 'hostile servers for the SDK',
    figures: {
      scenarios: scenarios.length,
      'bytes a hostile server may push': `${cap / 1024 / 1024} MB`,
      ...Object.fromEntries(timings.map((t, i) => [`  ${i + 1}`, t])),
    },
    checks: [
      zeroCheck('calls without the expected result or typed error', broken),
      zeroCheck('calls outside their time bounds', late),
      zeroCheck('requests that reached another origin', otherOrigin),
      {
        name: 'peak memory growth reading one hostile answer (RSS or heap + buffers)',
        value: peakMb,
        max: SDK_MEMORY_BOUND_MB,
        unit: 'MB',
        examples: [worstMemory],
      },
    ],
  };
}

/** The names of an error's class and its ancestors. */
function classNames(error: object): string[] {
  const names: string[] = [];
  for (let p = Object.getPrototypeOf(error); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    names.push(p.constructor.name);
  }
  return names;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return `non-Error ${String(error)}`;
  return `${error.constructor.name}: ${error.message}`;
}

/** Bytes the current scenario's server has written into its body. */
let pushed = 0;

/** Writes 64 KB chunks as fast as the client reads them, up to `cap` bytes, then ends. */
function pump(res: ServerResponse, cap: number, headers: Record<string, string>): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.write('{"data":"');
  let sent = 0;
  const more = () => {
    while (sent < cap && !res.destroyed) {
      sent += chunk.length;
      pushed += chunk.length;
      if (!res.write(chunk)) return;
    }
    if (!res.destroyed) res.end();
  };
  res.on('drain', more);
  more();
}

/** A gzip body that inflates to `size` bytes of one repeated byte (about 1000:1). */
function bomb(size: number): Buffer {
  return gzipSync(Buffer.alloc(size, 0x20), { level: 9 });
}

/** Forwards a request to the real mock and relays its answer, with extra headers. */
function forwardTo(base: string) {
  return async (req: IncomingMessage, res: ServerResponse, extra: Record<string, string> = {}) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host') headers.set(k, v);
    const answer = await fetch(`${base}${req.url}`, {
      method: req.method ?? 'GET',
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = Buffer.from(await answer.arrayBuffer());
    const out: Record<string, string> = { 'content-type': answer.headers.get('content-type') ?? 'application/json' };
    res.writeHead(answer.status, { ...out, ...extra });
    res.end(body);
  };
}

/** A loopback server around `handler`. */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
