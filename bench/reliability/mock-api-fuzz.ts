// Part 1: bounded fuzz of the mock's management, messaging and control APIs over real HTTP against a standalone server.
// Every operation and every body field the OpenAPI document declares gets hostile values in turn (round-robin, so
// none is skipped), with a fixed fast-check seed. Counted: 5xx answers, refused requests that changed stored state
// (snapshot before and after each request), prototype pollution, and the slowest request (a request over the bound
// is replayed twice and its fastest time kept, so one scheduling hiccup on a loaded machine is not a finding).
import fc from 'fast-check';
import { startMockServer } from '../../mock/adapters/node-server.js';
import type { BackendCore } from '../../mock/backend.js';
import { ManualClock } from '../../mock/shared/manual-clock.js';
import { seeded } from '../../test/mock/support/seeded.js';
import { type BodyVariant, type Operation, operationsOf, validValue } from './api-operations.js';
import {
  hostileBody,
  hostileValue,
  nthCraftedString,
  POLLUTION_KEYS,
  POLLUTION_MARKER,
  POLLUTION_OBJECTS,
  RawJson,
  toJsonText,
} from './hostile-values.js';
import { probeProtocolEdges } from './protocol-edges.js';
import { DEFAULT_SEED, Examples, type PartOptions, type PartReport, type SuiteSize, zeroCheck } from './report.js';

/** The bound for one request with a crafted body. */
export const CRAFTED_REQUEST_BOUND_MS = 100;
const MESSAGING_KEY = 'gw_live_reliabilityfuzz000000000000';
const CONTROL_TOKEN = 'ctl_reliability_fuzz';
const RESET_EVERY = 20;
/** Tries of a request over the bound: a deterministic slowness stays, a hiccup of a loaded machine does not. */
const TRIES = 5;
const RETRY_OVER_MS = CRAFTED_REQUEST_BOUND_MS / 2;
const ROUNDS = { ci: 4, full: 96 } as const;
const HOSTILE_PATH_IDS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  '99999999999999999999',
  '__proto__',
  'constructor',
  '%00',
  '%2e%2e',
  'x'.repeat(2000),
];
const HOSTILE_QUERY = [
  '0',
  '-1',
  '1e9',
  'abc',
  '',
  '99999999999999999999',
  'NaN',
  '1.5',
  '__proto__',
  'x'.repeat(5000),
];

type Target =
  | { kind: 'valid' | 'body' | 'auth' | 'pollute' }
  | { kind: 'field' | 'crafted'; variant: BodyVariant; field: string; index: number }
  | { kind: 'drop'; variant: BodyVariant }
  | { kind: 'param'; name: string };

interface Case {
  op: Operation;
  target: Target;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** What was sent, short, to reproduce a finding. */
  label: string;
}

/** Runs the fuzz and reports its figures. */
export async function fuzzMockApi(options: PartOptions = {}): Promise<PartReport> {
  const size = options.size ?? 'full';
  const seed = options.seed ?? DEFAULT_SEED;
  const server = await startMockServer({
    seed: 'demo',
    rateLimit: false,
    clock: new ManualClock(),
    random: seeded(seed),
    gateway: {
      messagingKey: MESSAGING_KEY,
      devices: [{ id: 'phone-1' }],
      controlToken: CONTROL_TOKEN,
      fetch: loopbackOnly,
    },
  });
  const { backend } = server;
  try {
    const doc = await (await fetch(`${server.url}/openapi.json`)).json();
    const operations = operationsOf(doc);
    const targets = operations.flatMap((op) => targetsOf(op).map((target) => ({ op, target })));
    const rounds = ROUNDS[size];
    // Sampled round by round: a pool for the whole run would keep tens of thousands of values alive, and the fuzz
    // process's garbage collection (it hosts the server too) would then show up as the mock's slowness.
    const roundSample = <T>(arb: fc.Arbitrary<T>, round: number, offset: number, n: number) =>
      fc.sample(arb, { seed: seed + offset + round * 7, numRuns: n });
    const valid = new Map<string, unknown[]>();
    const validBody = (variant: BodyVariant, n: number): Record<string, unknown> => {
      let pool = valid.get(variant.name + JSON.stringify(variant.fields));
      if (!pool) {
        pool = fc.sample(validValue(variant.schema), { seed: seed + 2, numRuns: 64 });
        valid.set(variant.name + JSON.stringify(variant.fields), pool);
      }
      return structuredClone(pool[n % pool.length]) as Record<string, unknown>;
    };

    const keys = callerKeys(backend);
    const snapshot = () =>
      JSON.stringify([
        backend.store.snapshot(),
        backend.gateway.devices.list(),
        backend.gateway.keys.list(),
        backend.gateway.routing.listTenants(),
        backend.gateway.routing.listDevices(),
        backend.gateway.attempts().length,
      ]);

    const fiveXx = new Examples();
    const refusedChanged = new Examples();
    const polluted = new Examples();
    const slow = new Examples();
    const unanswered = new Examples();
    const fieldsHit = new Set<string>();
    let sent = 0;
    let refused = 0;
    let slowest = 0;
    let slowestLabel = '';
    let slowestCrafted = 0;
    const firstTries: number[] = [];
    let slowestCraftedLabel = '';
    let longestStored = 0;
    let before = snapshot();
    let i = 0;
    for (let round = 0; round < rounds; round++) {
      const hostile = roundSample(hostileValue(size), round, 0, targets.length);
      const bodies = roundSample(hostileBody(size), round, 1, operations.length);
      for (const [t, { op, target }] of targets.entries()) {
        if (i++ % RESET_EVERY === 0) {
          longestStored = Math.max(longestStored, longestString(backend.store.snapshot()));
          backend.reset();
          before = snapshot();
        }
        const value = hostile[t];
        const c = buildCase(op, target, round, size, value, bodies[t % bodies.length]!, validBody, keys, backend);
        if (target.kind === 'field') fieldsHit.add(`${op.method} ${op.path} [${target.variant.name}] ${target.field}`);
        // Valid requests and auth probes carry nothing crafted; the bound is for what an attacker shapes.
        const crafted = target.kind !== 'valid' && target.kind !== 'auth';
        let answer = await send(server.url, c);
        sent++;
        if (crafted) firstTries.push(answer.ms);
        if (crafted && answer.ms > RETRY_OVER_MS) {
          // Replay: a deterministic slowness (a backtracking regex) stays, a scheduling hiccup does not. From half
          // the bound, so the slowest figure is a fastest-of-tries too, not the luckiest first try under the bound.
          for (let replay = 1; replay < TRIES; replay++) {
            await new Promise((r) => setTimeout(r, 20 * replay));
            const again = await send(server.url, c);
            sent++;
            if (again.ms < answer.ms) answer = { ...answer, ms: again.ms };
          }
        }
        if (answer.ms > slowest) {
          slowest = answer.ms;
          slowestLabel = c.label;
        }
        if (crafted && answer.ms > slowestCrafted) {
          slowestCrafted = answer.ms;
          slowestCraftedLabel = c.label;
        }
        if (crafted && answer.ms > CRAFTED_REQUEST_BOUND_MS) slow.add(`${Math.round(answer.ms)} ms: ${c.label}`);
        if (answer.status === 0) unanswered.add(`${answer.error}: ${c.label}`);
        if (answer.status >= 500) fiveXx.add(`${answer.status} ${answer.text.slice(0, 160)} <- ${c.label}`);
        const after = snapshot();
        if (answer.refused) {
          refused++;
          if (after !== before) refusedChanged.add(`${answer.status} ${answer.text.slice(0, 120)} <- ${c.label}`);
        }
        before = after;
        if (POLLUTION_MARKER in Object.prototype || POLLUTION_MARKER in Array.prototype) {
          polluted.add(c.label);
          delete (Object.prototype as Record<string, unknown>)[POLLUTION_MARKER];
          delete (Array.prototype as unknown as Record<string, unknown>)[POLLUTION_MARKER];
        }
      }
    }
    const sameHost = await claimOthersDomain(server.url, backend, keys);
    sent += sameHost.sent;
    const edges = await probeProtocolEdges(server.url, backend, keys.admin, operations, snapshot);
    sent += edges.sent;
    for (const e of edges.changedState.items) refusedChanged.add(e);
    const allFields = operations.flatMap((op) =>
      op.variants.flatMap((v) => v.fields.map((f) => `${op.method} ${op.path} [${v.name}] ${f}`)),
    );
    const missed = new Examples(5);
    for (const f of allFields) if (!fieldsHit.has(f)) missed.add(f);
    return {
      part: 'mock API fuzz (management, messaging and control APIs, real HTTP)',
      figures: {
        seed: seed,
        'operations fuzzed': operations.length,
        'body fields fuzzed': `${fieldsHit.size} of ${allFields.length}`,
        'requests sent': sent,
        refused: refused,
        'slowest request of any kind': `${Math.round(slowest)} ms (${slowestLabel.slice(0, 100)})`,
        [`slowest crafted request (fastest of ${TRIES} tries for any first try over ${RETRY_OVER_MS} ms)`]: `${Math.round(slowestCrafted)} ms (${slowestCraftedLabel.slice(0, 100)})`,
        'crafted requests, first try: median / p99': `${percentile(firstTries, 0.5).toFixed(1)} / ${percentile(firstTries, 0.99).toFixed(1)} ms`,
        'longest string the mock stored': `${longestStored.toLocaleString('en-US')} characters`,
      },
      checks: [
        zeroCheck('5xx answers', fiveXx),
        zeroCheck('refused requests that changed stored state', refusedChanged),
        zeroCheck('prototype pollution', polluted),
        zeroCheck('requests left unanswered', unanswered),
        zeroCheck('fields the fuzz never reached', missed),
        zeroCheck("another user's domain claimed by a variant of its host", sameHost.accepted),
        zeroCheck('HEAD answered 405 where GET exists', edges.headRefused),
        zeroCheck('bodies in a charset the mock cannot read accepted', edges.charsetAccepted),
        zeroCheck('uploads over 1 MB whose 413 the client could not read', edges.oversizeUnreadable),
        zeroCheck(`crafted requests over ${CRAFTED_REQUEST_BOUND_MS} ms (fastest of ${TRIES} tries)`, slow),
        {
          name: 'slowest crafted request',
          value: slowestCrafted,
          max: CRAFTED_REQUEST_BOUND_MS,
          unit: 'ms',
          examples: [slowestCraftedLabel.slice(0, 300)],
        },
      ],
    };
  } finally {
    await server.close();
  }
}

function targetsOf(op: Operation): Target[] {
  const targets: Target[] = [{ kind: 'valid' }, { kind: 'auth' }];
  for (const p of op.parameters) targets.push({ kind: 'param', name: p.name });
  if (op.method === 'GET') return targets;
  targets.push({ kind: 'body' }, { kind: 'pollute' });
  for (const variant of op.variants) {
    if ((variant.schema.required as string[] | undefined)?.length) targets.push({ kind: 'drop', variant });
    variant.fields.forEach((field, index) => {
      targets.push({ kind: 'field', variant, field, index }, { kind: 'crafted', variant, field, index });
    });
  }
  return targets;
}

interface Keys {
  admin: string;
  user: string;
  userId: number;
  other: string;
  otherId: number;
}

function callerKeys(backend: BackendCore): Keys {
  const users = [...backend.store.users.values()].filter((u) => !u.admin);
  const [user, other] = users;
  if (!user || !other) throw new Error('the demo seed should hold two normal users');
  return { admin: backend.adminKey, user: user.apikey, userId: user.id, other: other.apikey, otherId: other.id };
}

const ADMIN_PATHS = /^\/api\/(users?|plans?)\b/;
const TABLES: [RegExp, 'domains' | 'pixels' | 'qrs' | 'users'][] = [
  [/^\/api\/domain\//, 'domains'],
  [/^\/api\/pixel\//, 'pixels'],
  [/^\/api\/qr\//, 'qrs'],
  [/^\/api\/user\//, 'users'],
];

function buildCase(
  op: Operation,
  target: Target,
  round: number,
  size: SuiteSize,
  value: unknown,
  hostileBodyText: RawJson,
  validBody: (variant: BodyVariant, n: number) => Record<string, unknown>,
  keys: Keys,
  backend: BackendCore,
): Case {
  const admin = ADMIN_PATHS.test(op.path);
  let key =
    op.security === 'messagingKey'
      ? MESSAGING_KEY
      : op.security === 'controlToken'
        ? CONTROL_TOKEN
        : op.security === 'none'
          ? ''
          : admin
            ? keys.admin
            : keys.user;
  const ownerId = admin ? undefined : keys.userId;
  const headers: Record<string, string> = {};
  let label = `${op.method} ${op.path}`;

  // Path and query: the caller's own rows unless a parameter is the target.
  let path = op.path;
  const query = new URLSearchParams();
  for (const p of op.parameters) {
    const hostile = target.kind === 'param' && target.name === p.name;
    if (p.in === 'path') {
      const id = hostile
        ? HOSTILE_PATH_IDS[round % HOSTILE_PATH_IDS.length]!
        : existingId(op.path, p.name, ownerId, keys, backend);
      path = path.replace(`{${p.name}}`, encodeURIComponent(id));
      if (hostile) label += ` ${p.name}=${short(id)}`;
    } else if (hostile) {
      const given = HOSTILE_QUERY[round % HOSTILE_QUERY.length]!;
      query.set(p.name, given);
      label += ` ?${p.name}=${short(given)}`;
    }
  }
  if (target.kind === 'auth') {
    const variants = [undefined, 'Bearer', 'Bearer x', `Bearer ${key}x`, `Basic ${key}`, `Bearer ${keys.other}`];
    const auth = variants[round % variants.length];
    label += ` auth=${auth === undefined ? 'none' : auth.replace(/[0-9a-f]{8,}/g, '<key>')}`;
    if (auth !== undefined) headers.authorization = auth;
    key = '';
  }
  if (key) headers.authorization = `Bearer ${key}`;

  let body: string | undefined;
  if (op.method !== 'GET' && op.variants.length > 0) {
    const variant =
      target.kind === 'field' || target.kind === 'crafted' || target.kind === 'drop'
        ? target.variant
        : op.variants[round % op.variants.length]!;
    const base = validBody(variant, round);
    if (target.kind === 'field' || target.kind === 'crafted') {
      // Every field gets the same crafted string in a round; the rounds walk through every unit and breaker.
      const given = target.kind === 'field' ? value : nthCraftedString(round, size);
      setPath(base, target.field, given);
      label += ` [${variant.name}] ${target.field}=${short(given)}`;
    } else if (target.kind === 'drop') {
      const required = variant.schema.required as string[];
      const field = required[round % required.length]!;
      delete base[field];
      label += ` [${variant.name}] without ${field}`;
    }
    body = toJsonText(base);
    if (target.kind === 'pollute') {
      const key = POLLUTION_KEYS[round % POLLUTION_KEYS.length]!;
      const polluting = POLLUTION_OBJECTS[round % POLLUTION_OBJECTS.length]!.text;
      const inject = `${JSON.stringify(key)}:${polluting}`;
      // Alternate between the top level and a nested object, where a deep merge would meet it.
      const nested = round % 2 === 1 && body.includes('"data":{');
      body = nested
        ? body.replace('"data":{', `"data":{${inject},`)
        : body.replace(/^\{/, `{${inject},`).replace(/,\}$/, '}');
      label += ` ${nested ? 'data.' : ''}${key}=${polluting}`;
    }
  } else if (op.method !== 'GET' && target.kind === 'pollute') {
    body = `{${JSON.stringify(POLLUTION_KEYS[round % POLLUTION_KEYS.length])}:${POLLUTION_OBJECTS[0]!.text}}`;
    label += ` body=${body}`;
  }
  if (target.kind === 'body') {
    body = hostileBodyText.text;
    label += ` body=${short(body)}`;
    const types = [
      'application/json',
      'text/plain',
      'application/json; charset=utf-16',
      'application/x-www-form-urlencoded',
    ];
    headers['content-type'] = types[round % types.length]!;
  } else if (body !== undefined) headers['content-type'] = 'application/json';
  const q = query.toString();
  return { op, target, path, query: q ? `?${q}` : '', headers, body, label };
}

function existingId(
  template: string,
  param: string,
  ownerId: number | undefined,
  keys: Keys,
  backend: BackendCore,
): string {
  const store = backend.store;
  if (template.startsWith('/__mock/keys/')) return backend.gateway.keys.list()[0]?.id ?? 'key_1';
  if (template.startsWith('/__mock/dead-letters/')) return backend.gateway.deadLetters.list()[0]?.deliveryId ?? 'none';
  if (param === 'planid') return String([...store.plans.keys()][0] ?? 1);
  if (param === 'userid') return String(keys.otherId);
  const table = TABLES.find(([re]) => re.test(template))?.[1];
  if (!table) return '1';
  if (table === 'users') return String(keys.otherId);
  const rows = [...store[table].values()] as { id: number; userId: number }[];
  const own = rows.find((r) => ownerId === undefined || r.userId === ownerId);
  return String(own?.id ?? 999_999);
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let at: Record<string, unknown> = target;
  for (const part of parts.slice(0, -1)) {
    const next = at[part];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) at[part] = {};
    at = at[part] as Record<string, unknown>;
  }
  at[parts.at(-1)!] = value;
}

interface Answer {
  status: number;
  text: string;
  refused: boolean;
  ms: number;
  error?: string;
}

async function send(base: string, c: Case): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(`${base}${c.path}${c.query}`, {
      method: c.op.method,
      headers: c.headers,
      ...(c.body === undefined ? {} : { body: c.body }),
      signal: AbortSignal.timeout(60_000),
    });
    // An event stream (the inspector's feed) never ends: its first event is the answer, then the stream is let go.
    const text = res.headers.get('content-type')?.startsWith('text/event-stream')
      ? await firstChunk(res)
      : await res.text();
    const ms = performance.now() - started;
    return { status: res.status, text, refused: isRefusal(res.status, text), ms };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { status: 0, text: '', refused: true, ms: performance.now() - started, error: cause ?? String(error) };
  }
}

/** The first chunk of a body that does not end, after which the stream is cancelled (the server frees its reader). */
async function firstChunk(res: Response): Promise<string> {
  const reader = res.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value);
}

/** A refusal: an HTTP error status, or a failure the API answers on 200 (`error` not 0, `success: false`). */
function isRefusal(status: number, text: string): boolean {
  if (status >= 400) return true;
  try {
    const json = JSON.parse(text) as { error?: unknown; success?: unknown };
    if (json.success === false) return true;
    return json.error !== undefined && json.error !== 0 && json.error !== '0';
  } catch {
    return false;
  }
}

function longestString(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object') return 0;
  let longest = 0;
  for (const v of Object.values(value)) longest = Math.max(longest, longestString(v));
  return longest;
}

function short(value: unknown): string {
  const text =
    value instanceof RawJson ? value.text : typeof value === 'string' ? JSON.stringify(value) : toJsonText(value);
  if (text.length <= 60) return text;
  return `${text.slice(0, 24)}…(${text.length.toLocaleString('en-US')} chars)…${text.slice(-12)}`;
}

/** The gateway's fetch in the fuzz: loopback only, so a fuzzed webhook URL never sends anything off the machine. */
const loopbackOnly: typeof fetch = (input, init) => {
  const { hostname } = new URL(input instanceof Request ? input.url : String(input));
  if (hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]') return fetch(input, init);
  return Promise.reject(
    new TypeError('fetch failed', { cause: new Error('the reliability fuzz calls loopback only') }),
  );
};

/**
 * One user adds another user's domain written differently (trailing dot, letter case, port, path): the mock must
 * compare normalised hosts and refuse every variant.
 */
async function claimOthersDomain(
  base: string,
  backend: BackendCore,
  keys: Keys,
): Promise<{ sent: number; accepted: Examples }> {
  const accepted = new Examples();
  backend.reset();
  const owned = [...backend.store.domains.values()].find((d) => d.userId === keys.userId);
  if (!owned) throw new Error('the demo seed should give the first normal user a domain');
  const url = new URL(owned.domain);
  const variants = [
    `${url.protocol}//${url.hostname}.`,
    `${url.protocol}//${url.hostname.toUpperCase()}`,
    `${url.protocol.toUpperCase()}//${url.hostname}`,
    `${url.protocol}//${url.hostname}:8443`,
    `${url.protocol}//${url.hostname}:443`,
    `${url.protocol}//${url.hostname}/`,
    `${url.protocol}//${url.hostname}./`,
    `${url.protocol === 'https:' ? 'http:' : 'https:'}//${url.hostname}`,
  ];
  for (const domain of variants) {
    const res = await fetch(`${base}/api/domain/add`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.other}`, 'content-type': 'application/json' },
      body: JSON.stringify({ domain }),
    });
    const text = await res.text();
    if (!isRefusal(res.status, text))
      accepted.add(
        `${domain} (owned by user ${keys.userId} as ${owned.domain}) accepted for user ${keys.otherId}: ${text.slice(0, 100)}`,
      );
    backend.reset();
  }
  return { sent: variants.length, accepted };
}

function percentile(values: number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
