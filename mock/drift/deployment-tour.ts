// `linkgate check`'s tour of a deployment with the user's own key: every list (page by page) and detail the key may
// read, plans and users when it is an admin's; with `write`, only records it creates itself, removed afterwards.
import { type CallLimits, CannotRun, callDeployment } from './deployment-client.js';
import { checkExchange, type Exchange, KEY_REFUSED } from './exchange-check.js';
import type { ExchangeVerdict } from './findings.js';
import { parseJsonWithinDepth } from './json-depth.js';
import { operationById } from './operation-table.js';
import type { ObservedRecords } from './recording.js';

/** What the tour needs. */
export interface TourOptions extends CallLimits {
  baseUrl: URL;
  apiKey: string;
  messagingBaseUrl?: URL;
  messagingKey?: string;
  /** Create, update and delete records of its own (never anyone else's). */
  write: boolean;
  /** Pages read per list at most. */
  maxPages: number;
  /** Records per page (`limit`), or undefined for the deployment's default. */
  pageSize?: number;
  /** Longest wait for a rate window to reopen before giving up. */
  maxWaitMs: number;
  /** Called with each exchange and its verdict as the tour goes. */
  onExchange(exchange: Exchange, verdict: ExchangeVerdict): void;
}

/** What the tour saw besides the verdicts. */
export interface TourResult {
  admin: boolean;
  /** Whether any answer was a rate-limit answer (where the `negativeRemaining` variant shows). */
  rateLimited: boolean;
  records: ObservedRecords;
}

/** Lists read by every key: operation id and the record table a recording fills from it. */
const LISTS = [
  ['domains.list', 'domains'],
  ['splash.list', undefined],
  ['overlays.list', undefined],
  ['pixels.list', 'pixels'],
  ['qr.list', 'qrs'],
] as const;

/** QR codes and users read one by one at most (each detail costs a request of the rate window). */
const DETAILS_PER_LIST = 3;

type Json = Record<string, unknown>;

/** Runs the tour; throws {@link CannotRun} when the deployment cannot be checked at all. */
export async function tourDeployment(options: TourOptions): Promise<TourResult> {
  const result: TourResult = {
    admin: false,
    rateLimited: false,
    records: { account: undefined, users: [], domains: [], pixels: [], qrs: [], adminUsernames: [] },
  };
  const call = async (id: string, params: Record<string, string | number> = {}, query = '', body?: unknown) => {
    const { op } = operationById(id);
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
    const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    for (;;) {
      const exchange = await callDeployment(
        options.baseUrl,
        op.method,
        path + query,
        headers,
        body === undefined ? undefined : JSON.stringify(body),
        options,
      );
      const json = parseJson(exchange);
      options.onExchange(exchange, responseSide(checkExchange(exchange)));
      if (exchange.status === 403 && json?.message === KEY_REFUSED) {
        throw new CannotRun(
          `The deployment refused the API key (HTTP 403: "${KEY_REFUSED}"); check --api-key (the key of a user of ${options.baseUrl.origin}).`,
        );
      }
      if (json?.error !== 429 && json?.error !== '429') return { exchange, json };
      result.rateLimited = true;
      await waitForWindow(exchange, json, options.maxWaitMs);
    }
  };

  const account = await call('account.get');
  if (!account.json) {
    const type = account.exchange.responseHeaders['content-type'] ?? 'no Content-Type';
    throw new CannotRun(
      `GET /api/account answered HTTP ${account.exchange.status} with ${type}, not JSON: ${options.baseUrl.origin} does not look like the management API (a login page, a proxy or another service answered); check --base-url.`,
    );
  }
  result.records.account = account.json.data as Json | undefined;

  for (const [id, table] of LISTS) {
    const rows = await readPages(call, id, options.maxPages, options.pageSize);
    if (table) result.records[table].push(...rows);
  }
  for (const qr of result.records.qrs.slice(0, DETAILS_PER_LIST)) await call('qr.get', { id: String(qr.id) });

  const plans = await call('plans.list');
  result.admin = plans.exchange.status === 200 && isSuccess(plans.json);
  if (result.admin) {
    const users = await call('users.list');
    const list = Array.isArray(users.json?.data) ? (users.json.data as Json[]) : [];
    result.records.users.push(...list);
    for (const user of list.slice(0, DETAILS_PER_LIST)) await call('users.get', { id: String(user.id) });
    const admins = await call('users.list', {}, '?filter=admin');
    const adminList = Array.isArray(admins.json?.data) ? (admins.json.data as Json[]) : [];
    result.records.adminUsernames.push(...adminList.map((u) => String(u.username)));
  }
  if (options.write) await writeTour(call, result.admin);
  if (options.messagingBaseUrl && options.messagingKey) await messagingTour(options);
  return result;
}

type Call = (
  id: string,
  params?: Record<string, string | number>,
  query?: string,
  body?: unknown,
) => Promise<{ exchange: Exchange; json: Json | undefined }>;

/** Reads a list page after page while `nextpage` says there is one, up to `maxPages`. */
async function readPages(call: Call, id: string, maxPages: number, pageSize: number | undefined): Promise<Json[]> {
  const rows: Json[] = [];
  let page = 1;
  for (let read = 0; read < maxPages; read++) {
    const query = new URLSearchParams();
    if (pageSize !== undefined) query.set('limit', String(pageSize));
    if (page > 1) query.set('page', String(page));
    const { json } = await call(id, {}, query.size > 0 ? `?${query}` : '');
    const data = json?.data as Json | undefined;
    if (!isSuccess(json) || !data) break;
    const items = Object.values(data).find(Array.isArray) as Json[] | undefined;
    rows.push(...(items ?? []));
    const next = Number(data.nextpage);
    if (data.nextpage === null || data.nextpage === undefined || !(next > page)) break;
    page = next;
  }
  return rows;
}

/** Creates a domain, a pixel and a QR code (and a user, for an admin), reads and updates them, then deletes them. */
async function writeTour(call: Call, admin: boolean): Promise<void> {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const created: [string, string, string | number][] = [];
  const create = async (id: string, body: Json, deleteId: string) => {
    const { json } = await call(id, {}, '', body);
    const newId = (json?.data as Json | undefined)?.id ?? json?.id;
    if (isSuccess(json) && (typeof newId === 'number' || typeof newId === 'string')) {
      created.push([deleteId, 'id', newId]);
      return newId;
    }
    return undefined;
  };
  try {
    const domain = await create(
      'domains.create',
      { domain: `https://linkgate-check-${tag}.example.com` },
      'domains.delete',
    );
    if (domain !== undefined)
      await call('domains.update', { id: domain }, '', { redirectroot: 'https://example.com/' });
    const pixel = await create(
      'pixels.create',
      { type: 'gtmpixel', name: 'linkgate check', tag: `GTM-${tag.toUpperCase()}` },
      'pixels.delete',
    );
    if (pixel !== undefined) await call('pixels.update', { id: pixel }, '', { tag: `GTM-${tag.toUpperCase()}2` });
    const qr = await create('qr.create', { type: 'text', data: `linkgate check ${tag}` }, 'qr.delete');
    if (qr !== undefined) {
      await call('qr.get', { id: qr });
      await call('qr.update', { id: qr }, '', { data: `linkgate check ${tag} (updated)` });
    }
    if (admin) {
      const password = `${crypto.randomUUID()}A1`;
      const user = await create(
        'users.create',
        { username: `lgchk_${tag}`.slice(0, 20), email: `linkgate-check-${tag}@example.com`, password },
        'users.delete',
      );
      if (user !== undefined) await call('users.get', { id: user });
    }
  } finally {
    // Removed in reverse order of creation, whatever failed above.
    for (const [deleteId, name, value] of created.reverse()) await call(deleteId, { [name]: value });
  }
}

/** Sends the messaging API an empty send request: refused by a validation rule, so no message leaves. */
async function messagingTour(options: TourOptions): Promise<void> {
  const { op } = operationById('messages.send');
  const headers = { Authorization: `Bearer ${options.messagingKey}`, 'Content-Type': 'application/json' };
  const exchange = await callDeployment(options.messagingBaseUrl!, op.method, op.path, headers, '{}', options);
  options.onExchange(exchange, responseSide(checkExchange(exchange)));
  if (exchange.status === 401) {
    throw new CannotRun(
      `The messaging API refused the key (HTTP 401); check --messaging-key (it starts with "gw_live_").`,
    );
  }
}

/** The check sends its own requests: only what the deployment answered is judged. */
function responseSide(verdict: ExchangeVerdict): ExchangeVerdict {
  return { ...verdict, findings: verdict.findings.filter((f) => f.side === 'response') };
}

function parseJson(exchange: Exchange): Json | undefined {
  try {
    const value = parseJsonWithinDepth(exchange.responseBody ?? '');
    return typeof value === 'object' && value !== null ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

const isSuccess = (json: Json | undefined) => json?.error === 0 || json?.error === '0';

/** Waits until the rate window reopens (`Retry-After` of the body, else `X-RateLimit-Reset`), or gives up. */
async function waitForWindow(exchange: Exchange, json: Json, maxWaitMs: number): Promise<void> {
  const retryAfter = Number(json['Retry-After']);
  const reset = Number(exchange.responseHeaders['x-ratelimit-reset']);
  const waitMs = Number.isFinite(retryAfter)
    ? retryAfter * 1000
    : Number.isFinite(reset)
      ? reset * 1000 - Date.now()
      : 60_000;
  if (waitMs > maxWaitMs) {
    throw new CannotRun(
      `The key's rate window is used up and reopens in ${Math.ceil(waitMs / 1000)} s, more than --max-wait allows; run the check again later or raise --max-wait.`,
    );
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, waitMs) + 50));
}
