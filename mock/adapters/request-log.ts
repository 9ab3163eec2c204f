// What the standalone server says about each request: who asked (never their key), what, the answer and the time.

import { secretsEqual } from '../../src/shared/constant-time.js';
import type { BackendCore } from '../backend.js';
import { CONTROL_PREFIX } from '../control/control-routes.js';
import { bearerKey, userByKey } from '../management/auth.js';
import type { UserRow } from '../management/store.js';

/** One answered request, as {@link StartMockServerOptions.onResponse} reports it. */
export interface RequestLogEntry {
  /** Upper-case HTTP method. */
  method: string;
  /** URL path without the query. */
  path: string;
  /** HTTP status of the answer. */
  status: number;
  /** Milliseconds from the request's arrival to the answer's last byte. */
  ms: number;
  /** The `Authorization` header as sent, or undefined; describe it with {@link describeCaller}, never print it. */
  authorization: string | undefined;
  /** Set when an armed fault changed the answer: the rule and its kind, e.g. `f2 (reset)`; status 0 when none was sent. */
  fault?: string;
}

/**
 * Who sent a request, safe to print: the management user (`alice (user 2)`), the messaging key's slot and tenant
 * (`key_1 of tenant "default"`), `control token`, or for a key the mock does not know only its last 4 characters.
 */
export function describeCaller(backend: BackendCore, path: string, authorization: string | undefined): string {
  if (!authorization) return 'no key';
  if (path.startsWith(CONTROL_PREFIX) || path === '/__mock') {
    return secretsEqual(authorization, `Bearer ${backend.gateway.controlToken}`)
      ? 'control token'
      : 'wrong control token';
  }
  if (path.startsWith('/api/v1/')) {
    const key = backend.gateway.keys.authenticate(authorization);
    return key ? `${key.id} of tenant "${key.tenant}"` : `unknown messaging key ${masked(bearerKey(authorization))}`;
  }
  const key = bearerKey(authorization);
  const user = key === undefined ? undefined : knownUser(backend, key);
  if (user) return `${user.username} (${user.admin ? 'admin, ' : ''}user ${user.id})`;
  return `unknown key ${masked(key)}`;
}

/** Per backend, the user each key named when last logged: one look-up instead of a compare with every stored key. */
const lastUsers = new WeakMap<BackendCore, Map<string, UserRow>>();
/** Keys remembered per backend; past this the memory starts over (a client cycling keys must not grow it). */
const REMEMBERED_KEYS = 1_000;

/**
 * The user owning `key`, remembered for the next line of the same key. Logging runs after the answer is sent, so a
 * look-up by key here reveals nothing to the client; the remembered row counts only while it is still stored under
 * that key.
 */
function knownUser(backend: BackendCore, key: string): UserRow | undefined {
  let users = lastUsers.get(backend);
  if (!users) {
    users = new Map();
    lastUsers.set(backend, users);
  }
  const last = users.get(key);
  if (last && last.apikey === key && backend.store.users.get(last.id) === last) return last;
  const user = userByKey(backend.store, key);
  if (users.size >= REMEMBERED_KEYS) users.clear();
  if (user) users.set(key, user);
  else users.delete(key);
  return user;
}

/** The last 4 characters of a key long enough that they reveal little; nothing of a short one. */
function masked(key: string | undefined): string {
  return key !== undefined && key.length >= 16 ? `…${key.slice(-4)}` : '(not shown)';
}

/** One log line: `GET /api/domains 200 alice (user 2) 3 ms`. */
export function formatRequestLine(entry: RequestLogEntry, caller: string): string {
  const line = `${entry.method} ${entry.path} ${entry.status || 'no answer'} ${caller} ${entry.ms.toFixed(0)} ms`;
  return entry.fault === undefined ? line : `${line} [injected fault ${entry.fault}]`;
}

/** What a secret in a logged path is replaced with. */
const HIDDEN = '[hidden]';
/** Rounds of percent-decoding looked through: `%2523` is `#` encoded twice; past this the path is not shown. */
const DECODE_ROUNDS = 4;

/**
 * A request's path as the log may show it, with `secret` (the control token) taken out wherever the client put it:
 * plainly, or percent-encoded (`/%23token=...`, each character as `%XX`, encoded again). Where only a decoded form
 * shows the secret, that form is logged with the secret hidden; a path still encoded after four rounds is cut at its
 * first `%`. Paths without the secret are logged as sent.
 *
 * @example
 * pathWithoutSecret('/__mock/%63tl_abc', 'ctl_abc'); // '/__mock/[hidden]'
 */
export function pathWithoutSecret(path: string, secret: string): string {
  if (secret === '') return path;
  let shown = path.includes(secret) ? path.split(secret).join(HIDDEN) : path;
  if (!shown.includes('%')) return shown;
  let decoded = shown;
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    const next = percentDecoded(decoded);
    if (next === decoded) return shown;
    decoded = next;
    if (decoded.includes(secret)) shown = decoded = decoded.split(secret).join(HIDDEN);
  }
  return percentDecoded(decoded) === decoded
    ? shown
    : `${shown.slice(0, shown.indexOf('%'))}[encoded ${DECODE_ROUNDS} times over: not shown]`;
}

/** `%XX` sequences decoded one byte each (the token is ASCII); malformed ones are left as they are. */
const percentDecoded = (text: string) =>
  text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
