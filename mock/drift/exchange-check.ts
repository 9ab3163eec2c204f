// Checks one HTTP exchange (request and answer) against the operation table, the documented envelopes and rate-limit
// headers and the documented quirks; the quirks a production variant explains are named, not reported.
import type * as z from 'zod/mini';
import type { ProductionVariantName } from '../management/variants.js';
import type { ExchangeVerdict, Finding, Side } from './findings.js';
import { nestsDeeperThan, parseJsonWithinDepth, TOO_DEEP } from './json-depth.js';
import {
  ErrorEnvelope,
  findOperation,
  MessagingUnauthorized,
  PageMeta,
  type TableOperation,
} from './operation-table.js';
import { compareShape, type NumericStringAllowance, type ShapeDifference, showValue } from './shape-check.js';

/** One request and its answer as seen on the wire. Bodies are text; `undefined` when too large to check. */
export interface Exchange {
  method: string;
  /** Path and query, e.g. `/api/domains?page=2`. */
  url: string;
  requestHeaders: Record<string, string | undefined>;
  requestBody: string | undefined;
  status: number;
  responseHeaders: Record<string, string | undefined>;
  responseBody: string | undefined;
  /** Set when the answer was larger than the checker reads. */
  responseTooLarge?: boolean;
}

/** Collection names the table accepts beside the documented, and the variant that sends them. */
const COLLECTION_VARIANTS: Record<string, ProductionVariantName> = { overlay: 'overlayCollection' };

/** Create operations whose `id` some versions send as a numeric string (the `stringIds` variant). */
const STRING_ID_OPERATIONS = new Set(['domains.create', 'pixels.create']);

/** The management API's refusal of a missing or unknown key: it has no rate window, so no rate-limit headers. */
export const KEY_REFUSED = 'A valid API key is required to use this service.';

/** Paths outside the APIs (the mock's control API, its QR images, its documents) are not checked. */
const isApiPath = (pathname: string) => pathname.startsWith('/api/') && !pathname.startsWith('/api/qr/image/');

/** Headers looked up without regard to case. */
const header = (headers: Record<string, string | undefined>, name: string) => {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
};

/** Checks an exchange; the verdict says which operation it was, what differed, and which variants it matched. */
export function checkExchange(exchange: Exchange): ExchangeVerdict {
  const url = new URL(exchange.url, 'http://drift.invalid');
  const entry = findOperation(exchange.method, url.pathname);
  const findings: Finding[] = [];
  const variants = new Set<ProductionVariantName>();
  const note = (side: Side, operation: string) => (f: Omit<Finding, 'side' | 'operation' | 'method' | 'path'>) =>
    findings.push({ side, operation, method: exchange.method, path: url.pathname, ...f });
  if (!entry) {
    // A browser's CORS preflight (OPTIONS) is no call of the API: it is forwarded, not judged.
    if (isApiPath(url.pathname) && exchange.method !== 'OPTIONS') {
      note(
        'request',
        'unknown',
      )({
        field: `${exchange.method} ${url.pathname}`,
        kind: 'operation',
        expected: 'an operation of the table',
        seen: 'no operation has this method and path',
      });
    }
    return { operation: 'unknown', findings, variants: [] };
  }
  const id = entry.op.id;
  checkRequest(entry, exchange, url, note('request', id));
  checkResponse(entry, exchange, note('response', id), variants);
  return { operation: id, findings, variants: [...variants] };
}

type Note = (f: Omit<Finding, 'side' | 'operation' | 'method' | 'path'>) => void;

const fromShape = (note: Note, prefix: string) => (d: ShapeDifference) =>
  note({ field: prefix + d.path, kind: d.kind, expected: d.expected, seen: d.seen });

function checkRequest(entry: TableOperation, exchange: Exchange, url: URL, note: Note): void {
  const auth = header(exchange.requestHeaders, 'authorization');
  if (auth === undefined || !/^Bearer \S+$/.test(auth)) {
    note({
      field: 'header Authorization',
      kind: 'header',
      expected: '"Bearer <key>"',
      seen: auth === undefined ? 'absent' : 'another form',
    });
  }
  if (entry.op.query) {
    // Query values are text on the wire; digits stand for the integers the table states.
    const query = Object.fromEntries([...url.searchParams].map(([k, v]) => [k, /^\d{1,15}$/.test(v) ? Number(v) : v]));
    compareShape(entry.op.query, query, '').forEach(fromShape(note, 'query '));
  }
  const schema = entry.op.bodyRules ?? entry.op.body;
  if (!schema || exchange.requestBody === undefined) return;
  const type = header(exchange.requestHeaders, 'content-type');
  if (!type?.toLowerCase().startsWith('application/json')) {
    note({
      field: 'header Content-Type',
      kind: 'header',
      expected: '"application/json"',
      seen: type === undefined ? 'absent' : showValue(type),
    });
  }
  let body: unknown;
  try {
    body = parseJsonWithinDepth(exchange.requestBody);
  } catch {
    note({
      field: '(body)',
      kind: 'body',
      expected: 'a JSON body',
      seen: showValue(exchange.requestBody),
    });
    return;
  }
  compareShape(schema, body, '', () => 'allowed').forEach(fromShape(note, ''));
}

function checkResponse(
  entry: TableOperation,
  exchange: Exchange,
  note: Note,
  variants: Set<ProductionVariantName>,
): void {
  if (exchange.responseTooLarge) {
    note({ field: '(body)', kind: 'body', expected: 'an answer the checker can read', seen: 'too large to check' });
    return;
  }
  const text = exchange.responseBody ?? '';
  let body: unknown;
  try {
    body = parseJsonWithinDepth(text);
  } catch {
    const type = header(exchange.responseHeaders, 'content-type') ?? 'no Content-Type';
    const seen = nestsDeeperThan(text) ? `${TOO_DEEP}, not checked` : text === '' ? 'empty' : showValue(text);
    note({
      field: '(body)',
      kind: 'body',
      expected: 'a JSON body',
      seen: `HTTP ${exchange.status} ${type}${text === '' ? ', ' : ': '}${seen}`,
    });
    return;
  }
  if (entry.family === 'messaging') {
    checkMessagingAnswer(entry, exchange.status, body, note);
    return;
  }
  const error = (body as { error?: unknown } | null)?.error;
  const success = error === 0 || error === '0';
  const refused = exchange.status === 403 && (body as { message?: unknown }).message === KEY_REFUSED;
  if (!refused) checkRateLimitHeaders(exchange, note, variants);
  if (exchange.status !== 200 && !(exchange.status === 403 && !success)) {
    note({
      field: 'status',
      kind: 'status',
      expected: 'HTTP 200, or 403 with an error envelope for a refused key or a non-admin',
      seen: `HTTP ${exchange.status}`,
    });
    return;
  }
  if (!success) {
    // Failure answers carry extra detail in some versions (the mock's `issues`): only their envelope is held.
    for (const d of compareShape(ErrorEnvelope, body, '')) if (d.kind !== 'unknown-field') fromShape(note, '')(d);
    return;
  }
  checkSuccessBody(entry, body, note, variants);
}

function checkSuccessBody(
  entry: TableOperation,
  body: unknown,
  note: Note,
  variants: Set<ProductionVariantName>,
): void {
  const id = entry.op.id;
  const quirks: string[] = [];
  // The spec writes paged lists' `error` as "0"; some versions send new ids as digits (stringIds).
  const numericStrings: NumericStringAllowance = (path) =>
    path === 'error' ? 'allowed' : path === 'id' && STRING_ID_OPERATIONS.has(id) ? 'quirk' : 'no';
  const paged = pagedShape(entry.op.response);
  const schema = paged?.envelope ?? entry.op.response;
  compareShape(schema, body, '', numericStrings, quirks).forEach(fromShape(note, ''));
  if (quirks.includes('id')) variants.add('stringIds');
  if (paged) checkPage(paged.keys, body, note, variants);
}

/** The envelope and collection names of a paged list's schema (a pipe whose input has `data.<collection>`). */
function pagedShape(schema: z.core.$ZodType): { envelope: z.core.$ZodType; keys: string[] } | undefined {
  const def = (schema as unknown as { _zod: { def: { type: string; in?: z.core.$ZodType } } })._zod.def;
  if (def.type !== 'pipe' || !def.in) return undefined;
  const inner = (def.in as unknown as { _zod: { def: { shape?: Record<string, z.core.$ZodType> } } })._zod.def;
  const data = inner.shape?.data as unknown as { _zod: { def: { shape?: Record<string, unknown> } } } | undefined;
  const keys = Object.keys(data?._zod.def.shape ?? {}).filter((k) => !(k in PageMeta.shape));
  return keys.length > 0 ? { envelope: def.in, keys } : undefined;
}

/** The page's collection under the documented name, and the paging numbers' rules (docs/service.md). */
function checkPage(keys: string[], body: unknown, note: Note, variants: Set<ProductionVariantName>): void {
  const data = (body as { data?: Record<string, unknown> }).data;
  if (typeof data !== 'object' || data === null) return;
  const [spec, ...others] = keys as [string, ...string[]];
  const present = keys.find((k) => Array.isArray(data[k]));
  if (present === undefined) {
    note({ field: `data.${spec}`, kind: 'missing', expected: 'an array', seen: 'absent' });
    return;
  }
  if (present !== spec && others.includes(present)) {
    const variant = COLLECTION_VARIANTS[present];
    if (variant) variants.add(variant);
  }
  const num = (k: string) => (typeof data[k] === 'number' ? (data[k] as number) : Number(data[k]));
  const [result, perpage, currentpage, maxpage] = ['result', 'perpage', 'currentpage', 'maxpage'].map(num) as [
    number,
    number,
    number,
    number,
  ];
  if (![result, perpage, currentpage, maxpage].every(Number.isFinite)) return;
  const wantMax = perpage > 0 ? Math.ceil(result / perpage) : 0;
  if (maxpage !== wantMax) {
    note({
      field: 'data.maxpage',
      kind: 'rule',
      expected: `ceil(result / perpage) = ${wantMax}`,
      seen: String(maxpage),
    });
  }
  const wantNext = currentpage === maxpage || maxpage === 0 ? null : currentpage + 1;
  const next = data.nextpage === undefined ? null : data.nextpage === null ? null : Number(data.nextpage);
  if (next !== wantNext) {
    note({
      field: 'data.nextpage',
      kind: 'rule',
      expected: wantNext === null ? 'null on the last page' : `currentpage + 1 = ${wantNext}`,
      seen: showValue(data.nextpage),
    });
  }
  const items = (data[present] as unknown[]).length;
  if (items > perpage) {
    note({
      field: `data.${present}`,
      kind: 'rule',
      expected: `at most perpage = ${perpage} records`,
      seen: `${items}`,
    });
  }
}

/** `X-RateLimit-Limit`, `-Remaining` (clamped at 0; -1 is the negativeRemaining variant) and `-Reset` (Unix seconds). */
function checkRateLimitHeaders(exchange: Exchange, note: Note, variants: Set<ProductionVariantName>): void {
  const nowSeconds = Date.now() / 1000;
  const rules: [string, (n: number) => string | undefined][] = [
    ['X-RateLimit-Limit', (n) => (n >= 1 ? undefined : 'a whole number of at least 1')],
    [
      'X-RateLimit-Remaining',
      (n) => {
        if (n === -1) {
          variants.add('negativeRemaining');
          return undefined;
        }
        return n >= 0 ? undefined : 'a whole number of at least 0';
      },
    ],
    [
      'X-RateLimit-Reset',
      // Seconds, not milliseconds: a day either side of now covers any window and clock skew.
      (n) => (Math.abs(n - nowSeconds) < 86_400 ? undefined : 'Unix time in seconds, within a day of now'),
    ],
  ];
  for (const [name, rule] of rules) {
    const value = header(exchange.responseHeaders, name);
    const field = `header ${name}`;
    if (value === undefined) {
      note({ field, kind: 'header', expected: 'present', seen: 'absent' });
      continue;
    }
    const n = /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
    const broken = Number.isNaN(n) ? 'a whole number' : rule(n);
    if (broken) note({ field, kind: 'header', expected: broken, seen: showValue(value) });
  }
}

/** The messaging API: 200 with the send result, 401 with the documented body, other refusals `{ success: false, ... }`. */
function checkMessagingAnswer(entry: TableOperation, status: number, body: unknown, note: Note): void {
  if (status === 200) {
    compareShape(entry.op.response, body, '').forEach(fromShape(note, ''));
    return;
  }
  if (status >= 400 && status < 500) {
    compareShape(MessagingUnauthorized, body, '').forEach((d) => {
      // Refusals other than 401 may add the field they name.
      if (!(d.kind === 'unknown-field' && d.path === 'field')) fromShape(note, '')(d);
    });
    return;
  }
  note({
    field: 'status',
    kind: 'status',
    expected: 'HTTP 200, or 4xx with { success: false, message, error }',
    seen: `HTTP ${status}`,
  });
}
