// Part 5: hostile hooks for the SDK (issue 21). Every hook list runs inside the guarantees of the call that runs it:
// hooks that never settle (each kind, against the call's `timeout` and against its signal), hooks that throw odd
// values (null, undefined, numbers, symbols, frozen and cyclic objects, a Proxy that throws on access, errors and
// headers holding the key), and beforeRequest hooks returning a Request for another origin. Real loopback servers:
// a mock behind the client, one that always answers 503 (so beforeRetry runs), and one that counts what reaches it.
import { inspect } from 'node:util';
import { startMockServer } from '../../mock/adapters/node-server.js';
import { Linkgate, LinkgateError } from '../../src/index.js';
import { listen } from './hostile-servers.js';
import { Examples, type PartOptions, type PartReport, zeroCheck } from './report.js';

const KEY = 'reliability-hooks-key-0f1e2d3c4b5a';

type Kind = 'beforeRequest' | 'afterResponse' | 'beforeRetry' | 'beforeError';
const KINDS: Kind[] = ['beforeRequest', 'afterResponse', 'beforeRetry', 'beforeError'];

/** One call with hostile hooks: what it must end with, and within what wall time. */
interface Case {
  name: string;
  run: () => Promise<unknown>;
  /** The error class the call must fail with (by name), or `thrown`: the thrown value, or a LinkgateError instead. */
  expect: string;
  thrown?: unknown;
  /** Wall time the call must take at least and may take at most, in ms. */
  within: [number, number];
}

/** Values a careless or hostile hook throws; built afresh per call, since the client changes them in place. */
const ODD_VALUES: [string, () => unknown][] = [
  ['null', () => null],
  ['undefined', () => undefined],
  ['0', () => 0],
  ['NaN', () => Number.NaN],
  ['a bigint', () => 42n],
  ['a symbol naming the key', () => Symbol(KEY)],
  ['the key as a string', () => `Bearer ${KEY}`],
  ['a frozen object holding the key', () => Object.freeze({ authorization: `Bearer ${KEY}` })],
  ['a frozen object without it', () => Object.freeze({ reason: 'quota' })],
  [
    'a cyclic object holding the key',
    () => {
      const node: Record<string, unknown> = { token: KEY };
      node.self = node;
      return node;
    },
  ],
  [
    'a Proxy that throws on access',
    () => {
      const trap = () => {
        throw new Error(`trap ${KEY}`);
      };
      return new Proxy({ key: KEY }, { get: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, has: trap });
    },
  ],
  ['an Error whose cause chain holds the key', () => new Error('x', { cause: new TypeError(`Bearer ${KEY}`) })],
  ['an AggregateError holding the key', () => new AggregateError([new Error(KEY), KEY], `all ${KEY}`)],
  [
    'an object with a getter giving the key',
    () => ({
      get token() {
        return KEY;
      },
    }),
  ],
  ['Headers holding the key', () => new Headers({ authorization: `Bearer ${KEY}` })],
  [
    'an object 100,000 levels deep',
    () => {
      let deep: Record<string, unknown> = { key: KEY };
      for (let i = 0; i < 100_000; i++) deep = { next: deep };
      return deep;
    },
  ],
];

/** Runs every case and reports its figures. */
export async function attackHooks(options: PartOptions = {}): Promise<PartReport> {
  const timeout = options.size === 'ci' ? 500 : 1000;
  const mock = await startMockServer({ seed: 'demo', rateLimit: false, adminKey: KEY });
  const otherOrigin = new Examples();
  const elsewhere = await listen((req, res) => {
    otherOrigin.add(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
    res.end('{"error":0}');
  });
  const failing = await listen((_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end('{}');
  });
  /** A client whose `kind` hooks are `hooks`; beforeRetry's against the server that always fails, so it runs. */
  const client = (kind: Kind, hook: (...args: never[]) => unknown, extra: object = {}) =>
    new Linkgate({
      apiKey: KEY,
      baseUrl: kind === 'beforeRetry' ? failing.url : mock.url,
      maxRetries: kind === 'beforeRetry' ? 1 : 0,
      random: () => 0,
      hooks: { [kind]: [hook] },
      ...extra,
    });
  // beforeError runs on a failure: a QR code that does not exist.
  const call = (c: Linkgate, kind: Kind, signal?: AbortSignal) =>
    kind === 'beforeError' ? c.qr.get(999_999, { signal }) : c.account.get({ signal });
  const never = () => new Promise<never>(() => {});

  const cases: Case[] = [];
  for (const kind of KINDS) {
    cases.push({
      name: `${kind} never settles, timeout ${timeout} ms`,
      run: () => call(client(kind, never, { timeout }), kind),
      expect: 'APIConnectionTimeoutError',
      within: [timeout * 0.9, timeout + 2_000],
    });
    cases.push({
      name: `${kind} never settles, signal aborting at ${timeout} ms`,
      run: () => call(client(kind, never), kind, AbortSignal.timeout(timeout)),
      expect: 'APIUserAbortError',
      within: [timeout * 0.9, timeout + 2_000],
    });
    for (const [name, make] of ODD_VALUES) {
      const thrown = make();
      cases.push({
        name: `${kind} throws ${name}`,
        run: () =>
          call(
            client(kind, () => {
              throw thrown;
            }),
            kind,
          ),
        expect: 'thrown',
        thrown,
        within: [0, 5_000],
      });
    }
  }
  const { port } = new URL(mock.url);
  for (const target of [
    elsewhere.url,
    `http://localhost:${port}`,
    `https://127.0.0.1:${port}`,
    'http://example.invalid',
  ]) {
    cases.push({
      name: `beforeRequest returns a Request for ${target}`,
      run: () =>
        call(
          client('beforeRequest', ({ request }: { request: Request }) => new Request(`${target}/steal`, request)),
          'beforeRequest',
        ),
      expect: 'CrossOriginRedirectError',
      within: [0, 5_000],
    });
  }

  const broken = new Examples(9);
  const late = new Examples(9);
  const leaked = new Examples(9);
  let slowest = 0;
  let slowestName = '';
  const waits: string[] = [];
  try {
    // Together: the never-settling ones wait out their bounds side by side.
    await Promise.all(
      cases.map(async (c) => {
        const started = performance.now();
        // The harness's own bound: a call still pending past it is counted, not waited for forever.
        const guard = new Promise<'pending'>((resolve) =>
          setTimeout(() => resolve('pending'), c.within[1] + 5_000).unref(),
        );
        const outcome = await Promise.race([
          c.run().then(
            () => ({ ok: true as const, error: undefined }),
            (error: unknown) => ({ ok: false as const, error }),
          ),
          guard,
        ]);
        const ms = performance.now() - started;
        if (c.name.includes('never settles')) waits.push(`${c.name}: ${Math.round(ms)} ms`);
        if (ms > slowest) [slowest, slowestName] = [ms, c.name];
        if (outcome === 'pending' || ms < c.within[0] || ms > c.within[1]) {
          late.add(
            `${c.name}: ${outcome === 'pending' ? 'still pending at' : ''} ${Math.round(ms)} ms, outside ${c.within.join('–')} ms`,
          );
        }
        if (outcome === 'pending') return;
        const { ok, error } = outcome;
        if (!ok && inspect(error, { depth: 10, showHidden: true }).includes(KEY))
          leaked.add(`${c.name}: ${describe(error)}`);
        const expected =
          c.expect === 'thrown'
            ? !ok &&
              (error === c.thrown || error instanceof LinkgateError || typeof error !== 'object' || error === null)
            : !ok && (error as Error)?.constructor?.name === c.expect;
        if (!expected) broken.add(`${c.name}: expected ${c.expect}, got ${ok ? 'a result' : describe(error)}`);
      }),
    );
  } finally {
    await Promise.all([mock.close(), elsewhere.close(), failing.close()]);
  }
  return {
    part: 'hostile hooks for the SDK',
    figures: {
      calls: cases.length,
      'hook timeout / signal': `${timeout} ms`,
      'odd values thrown, per kind of hook': ODD_VALUES.length,
      'slowest call': `${Math.round(slowest)} ms (${slowestName})`,
      ...Object.fromEntries(waits.sort().map((w, i) => [`  ${i + 1}`, w])),
    },
    checks: [
      zeroCheck('calls without the expected error', broken),
      zeroCheck('calls outside their time bounds (or still pending)', late),
      zeroCheck('errors showing the API key (util.inspect, hidden properties, depth 10)', leaked),
      zeroCheck('requests that reached another origin', otherOrigin),
    ],
  };
}

function describe(error: unknown): string {
  if (!(error instanceof Error))
    return `non-Error ${typeof error === 'symbol' ? error.toString() : inspect(error, { depth: 1 })}`;
  return `${error.constructor.name}: ${error.message}`;
}
