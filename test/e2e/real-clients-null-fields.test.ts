import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliServer, startCli } from './support/processes.js';
import { pythonJson, pythonRequestsHeaders, sendRaw, type WireAnswer } from './support/real-clients-wire.js';

// Issue 16: a Python client (and PHP, Go with pointers, many hand-written ones) sends the optional fields it was not
// given as null. Two servers from the same seed: one hears a client that omits those fields, the other one that sends
// them as null, call for call. Every answer, and every record read afterwards, must be the same.
const ADMIN_KEY = 'e2e-real-clients-null-admin-0001';
const ARGS = ['--seed', 'demo', '--rate-limit', 'off', '--admin-key', ADMIN_KEY, '--quiet'];

interface Step {
  method: string;
  /** `:domain`, `:pixel`, `:qr`, `:user` stand for the ids saved by earlier steps. */
  path: string;
  /** What the omitting client sends. */
  body?: Record<string, unknown>;
  /** Fields (dotted for nested ones) the other client sends as null besides. */
  nulls?: string[];
  /** Saves `id` (or `data.id`) of the answer under this name. */
  save?: string;
  /** What the answer must contain, so agreement is not agreement on a failure. */
  expect?: Record<string, unknown>;
}

const ADDED = { error: 0 };
const UPDATED = { error: 0 };

const STEPS: Step[] = [
  {
    method: 'PUT',
    path: '/api/account/update',
    body: {},
    nulls: ['email', 'password'],
    expect: { error: 0, message: 'No changes were done to the account.' },
  },
  { method: 'PUT', path: '/api/account/update', body: { password: 'secret-1' }, nulls: ['email'], expect: UPDATED },
  {
    method: 'POST',
    path: '/api/domain/add',
    body: { domain: 'https://go.python.example' },
    nulls: ['redirectroot', 'redirect404'],
    save: 'domain',
    expect: ADDED,
  },
  {
    method: 'POST',
    path: '/api/domain/add',
    body: {},
    nulls: ['domain'],
    expect: { error: 1, message: 'A valid domain name is required.', issues: ['domain: is required'] },
  },
  {
    method: 'POST',
    path: '/api/domain/add',
    body: { domain: 'https://go2.python.example', redirectroot: 'https://python.example' },
    nulls: ['redirect404'],
    expect: ADDED,
  },
  {
    method: 'PUT',
    path: '/api/domain/:domain/update',
    body: {},
    nulls: ['redirectroot', 'redirect404'],
    expect: { error: 1, message: 'No data sent.' },
  },
  {
    method: 'PUT',
    path: '/api/domain/:domain/update',
    body: { redirect404: 'https://python.example/404' },
    nulls: ['redirectroot'],
    expect: UPDATED,
  },
  { method: 'GET', path: '/api/domains' },
  {
    method: 'POST',
    path: '/api/pixel/add',
    body: { type: 'gapixel', tag: 'G-PY1' },
    nulls: ['name'],
    expect: { error: 1, message: 'Missing name parameter. Pixel name is required.' },
  },
  { method: 'POST', path: '/api/pixel/add', body: { type: 'gapixel', name: 'Py', tag: 'G-PY1' }, save: 'pixel' },
  { method: 'PUT', path: '/api/pixel/:pixel/update', body: { tag: 'G-PY2' }, nulls: ['name'], expect: UPDATED },
  {
    method: 'PUT',
    path: '/api/pixel/:pixel/update',
    body: { name: 'Renamed' },
    nulls: ['tag'],
    expect: { error: 1, message: 'Missing tag parameter. Pixel tag is required.' },
  },
  { method: 'GET', path: '/api/pixels' },
  {
    method: 'POST',
    path: '/api/qr/add',
    body: { type: 'text', data: 'hello' },
    nulls: ['background', 'foreground', 'logo', 'name'],
    save: 'qr',
    expect: ADDED,
  },
  {
    method: 'POST',
    path: '/api/qr/add',
    body: { type: 'vcard', data: { fname: 'Ada' } },
    nulls: ['data.lname', 'data.org', 'data.phone', 'data.email', 'data.site'],
    expect: ADDED,
  },
  {
    method: 'POST',
    path: '/api/qr/add',
    body: { type: 'email', data: { email: 'ada@python.example' } },
    nulls: ['data.subject', 'data.body'],
    expect: ADDED,
  },
  {
    method: 'POST',
    path: '/api/qr/add',
    body: { type: 'text' },
    nulls: ['data'],
    expect: { error: 1, message: 'Invalid QR format or missing data.', issues: ['data: is required'] },
  },
  {
    method: 'PUT',
    path: '/api/qr/:qr/update',
    body: { data: 'bye' },
    nulls: ['type', 'background', 'foreground', 'logo'],
    expect: UPDATED,
  },
  { method: 'GET', path: '/api/qr/:qr' },
  { method: 'GET', path: '/api/qr' },
  { method: 'PUT', path: '/api/plan/2/user/2', body: { type: 'monthly' }, nulls: ['expiration'], expect: UPDATED },
  {
    method: 'PUT',
    path: '/api/plan/1/user/3',
    body: {},
    nulls: ['type'],
    expect: { error: 1, message: 'API request is missing the type parameter.' },
  },
  {
    method: 'POST',
    path: '/api/user/add',
    body: { username: 'pyuser', email: 'py@python.example', password: 'secret' },
    nulls: ['planid', 'expiration'],
    save: 'user',
    expect: { error: 0, message: 'User has been registered.' },
  },
  {
    method: 'POST',
    path: '/api/user/add',
    body: { email: 'py2@python.example', password: 'secret' },
    nulls: ['username'],
    expect: { error: 1, message: 'Invalid request or incorrect data format.' },
  },
  { method: 'GET', path: '/api/user/:user' },
  { method: 'GET', path: '/api/users' },
  { method: 'GET', path: '/api/account' },
];

function withNulls(body: Record<string, unknown>, nulls: string[]): Record<string, unknown> {
  const copy = structuredClone(body);
  for (const dotted of nulls) {
    const keys = dotted.split('.');
    let at = copy;
    for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
    at[keys.at(-1) as string] = null;
  }
  return copy;
}

describe('a client that sends null for optional fields (Python None) against the CLI server', () => {
  let omitting: CliServer;
  let nulling: CliServer;

  beforeAll(async () => {
    [omitting, nulling] = await Promise.all([startCli(ARGS), startCli(ARGS)]);
  });
  afterAll(async () => {
    await Promise.all([omitting?.stop(), nulling?.stop()]);
  });

  it('gets the same answers, call for call, as one that omits them, on every endpoint with a body', async () => {
    const ids: Record<string, string> = {};
    // Only the servers' origins, random keys and image tokens, and the second a record was stored in may differ.
    const same = (answer: WireAnswer, server: CliServer) =>
      answer.text
        .replaceAll(server.url, '<origin>')
        .replace(/[0-9a-f]{20,}/g, '<hex>')
        .replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/g, '<date>');
    for (const step of STEPS) {
      const path = step.path.replace(/:(\w+)/g, (_, name: string) => ids[name] ?? `<no ${name}>`);
      const headers = pythonRequestsHeaders(ADMIN_KEY);
      const sent = (body: Record<string, unknown> | undefined) => (body ? pythonJson(body) : undefined);
      const a = await sendRaw(omitting.url, step.method, path, headers, sent(step.body));
      const b = await sendRaw(
        nulling.url,
        step.method,
        path,
        headers,
        sent(step.body && withNulls(step.body, step.nulls ?? [])),
      );
      const label = `${step.method} ${path} with ${(step.nulls ?? []).join(', ') || 'nothing'} as null`;
      expect(b.status, label).toBe(a.status);
      expect(same(b, nulling), label).toBe(same(a, omitting));
      expect(a.status, label).toBe(200);
      if (step.expect) expect(a.json, label).toMatchObject(step.expect);
      if (step.save) ids[step.save] = String(a.json.id ?? a.json.data?.id);
    }
  });
});
