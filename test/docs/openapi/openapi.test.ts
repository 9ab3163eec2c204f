import { readFileSync } from 'node:fs';
import { createMockBackend, type MockBackend } from 'linkgate/mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../mock/openapi/openapi-document.js';
import { recordRetryTimeline } from '../../../scripts/retry-timeline.js';
import { EVENT_NAMES } from '../../../src/schemas/events.js';
import { OpenApiValidator } from '../support/openapi-validator.js';

const doc = buildOpenApiDocument();
const validator = new OpenApiValidator(doc);
/** Every documented operation a test below exchanged with the mock, as `METHOD template`. */
const exercised = new Set<string>();

let backend: MockBackend;
let adminKey: string;
let aliceKey: string;

beforeEach(() => {
  backend = createMockBackend({ seed: 'demo', rateLimit: false });
  adminKey = backend.adminKey;
  aliceKey = [...backend.store.users.values()].find((u) => u.username === 'alice')!.apikey;
});

interface Call {
  method: string;
  path: string;
  body?: unknown;
  /** The API key; null sends no Authorization header. */
  key?: string | null;
  /** Set false for a body meant to break the documented schema (the mock must refuse it too). */
  bodyConforms?: boolean;
}

/**
 * Sends a request to the mock and checks the exchange against the document: the operation is documented, the body
 * conforms (or, when meant not to, the document refuses it too), the answer's status is documented and its JSON
 * validates against that status's schema.
 */
async function exchange(
  call: Call,
  on: MockBackend = backend,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const path = call.path.split('?')[0]!;
  const matched = validator.match(call.method, path);
  expect(matched, `${call.method} ${path} is not in the OpenAPI document`).toBeDefined();
  exercised.add(`${call.method} ${matched!.template}`);
  if (call.body !== undefined) {
    const pointer = validator.requestPointer(matched!, call.method);
    expect(pointer, `${call.method} ${matched!.template} documents no request body`).toBeDefined();
    const problems = validator.check(pointer!, call.body);
    if (call.bodyConforms === false) expect(problems, 'the document should refuse this body').not.toEqual([]);
    else expect(problems, `request body of ${call.method} ${path}`).toEqual([]);
  }
  const key = call.key === undefined ? adminKey : call.key;
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  const res = await on.fetch(call.path, {
    method: call.method,
    headers,
    ...(call.body !== undefined && { body: JSON.stringify(call.body) }),
  });
  const json = (await res.json()) as Record<string, unknown>;
  const pointer = validator.responsePointer(matched!, call.method, res.status);
  expect(pointer, `status ${res.status} of ${call.method} ${matched!.template} is not documented`).toBeDefined();
  expect(validator.check(pointer!, json), `answer of ${call.method} ${call.path}: ${JSON.stringify(json)}`).toEqual([]);
  if (call.bodyConforms === false)
    expect(res.ok && json.error === 0, 'the mock should refuse what the document refuses').toBe(false);
  return { status: res.status, json };
}

/** The mock's own endpoints: control API, stored media, QR images, the document itself, the inspector page. */
const isMockOwnPath = (path: string) =>
  path.startsWith('/__mock') || path === '/openapi.json' || path === '/api/qr/image/{token}.png' || path === '/';

const ok = (r: { json: Record<string, unknown> }) => expect(Number(r.json.error)).toBe(0);
const failed = (r: { json: Record<string, unknown> }) => expect(Number(r.json.error)).not.toBe(0);

describe('the OpenAPI document describes what the mock answers', () => {
  it('for the account endpoints', async () => {
    ok(await exchange({ method: 'GET', path: '/api/account', key: aliceKey }));
    ok(
      await exchange({
        method: 'PUT',
        path: '/api/account/update',
        key: aliceKey,
        body: { email: 'alice2@example.com' },
      }),
    );
    ok(await exchange({ method: 'PUT', path: '/api/account/update', key: aliceKey, body: {} }));
    failed(await exchange({ method: 'PUT', path: '/api/account/update', key: aliceKey, body: { password: 'abc' } }));
  });

  it('for the branded domain endpoints', async () => {
    ok(await exchange({ method: 'GET', path: '/api/domains', key: aliceKey }));
    ok(await exchange({ method: 'GET', path: '/api/domains?limit=1&page=2', key: aliceKey }));
    ok(await exchange({ method: 'GET', path: '/api/domains?page=9', key: aliceKey }));
    const created = await exchange({
      method: 'POST',
      path: '/api/domain/add',
      key: aliceKey,
      body: { domain: 'https://new.alice.example', redirect404: 'https://alice.example/missing' },
    });
    ok(created);
    failed(
      await exchange({
        method: 'POST',
        path: '/api/domain/add',
        key: aliceKey,
        body: { domain: 'https://new.alice.example' },
      }),
    );
    failed(
      await exchange({
        method: 'POST',
        path: '/api/domain/add',
        key: aliceKey,
        body: { redirectroot: 'x' },
        bodyConforms: false,
      }),
    );
    const id = Number(created.json.id);
    ok(
      await exchange({
        method: 'PUT',
        path: `/api/domain/${id}/update`,
        key: aliceKey,
        body: { redirectroot: 'https://alice.example/home' },
      }),
    );
    failed(
      await exchange({
        method: 'PUT',
        path: '/api/domain/9999/update',
        key: aliceKey,
        body: { redirectroot: 'https://a.example' },
      }),
    );
    ok(await exchange({ method: 'DELETE', path: `/api/domain/${id}/delete`, key: aliceKey }));
    failed(await exchange({ method: 'DELETE', path: `/api/domain/${id}/delete`, key: aliceKey }));
  });

  it('for the splash page and overlay lists', async () => {
    ok(await exchange({ method: 'GET', path: '/api/splash', key: aliceKey }));
    ok(await exchange({ method: 'GET', path: '/api/overlay?limit=1', key: aliceKey }));
  });

  it('for the pixel endpoints', async () => {
    ok(await exchange({ method: 'GET', path: '/api/pixels', key: aliceKey }));
    const created = await exchange({
      method: 'POST',
      path: '/api/pixel/add',
      key: aliceKey,
      body: { type: 'linkedinpixel', name: 'LinkedIn', tag: '1234567' },
    });
    ok(created);
    failed(
      await exchange({
        method: 'POST',
        path: '/api/pixel/add',
        key: aliceKey,
        body: { type: 'myspace', name: 'x', tag: '123' },
        bodyConforms: false,
      }),
    );
    const id = Number(created.json.id);
    ok(await exchange({ method: 'PUT', path: `/api/pixel/${id}/update`, key: aliceKey, body: { tag: '7654321' } }));
    failed(await exchange({ method: 'PUT', path: '/api/pixel/9999/update', key: aliceKey, body: { tag: '7654321' } }));
    ok(await exchange({ method: 'DELETE', path: `/api/pixel/${id}/delete`, key: aliceKey }));
  });

  it('for the QR code endpoints', async () => {
    const list = await exchange({ method: 'GET', path: '/api/qr', key: aliceKey });
    ok(list);
    const first = ((list.json.data as Record<string, unknown>).qrs as { id: number }[])[0]!;
    ok(await exchange({ method: 'GET', path: `/api/qr/${first.id}`, key: aliceKey }));
    failed(await exchange({ method: 'GET', path: '/api/qr/9999', key: aliceKey }));
    const created = await exchange({
      method: 'POST',
      path: '/api/qr/add',
      key: aliceKey,
      body: {
        type: 'wifi',
        data: { ssid: 'Cafe', pass: 'secret123', encryption: 'WPA' },
        background: 'rgb(255,255,255)',
      },
    });
    ok(created);
    failed(
      await exchange({
        method: 'POST',
        path: '/api/qr/add',
        key: aliceKey,
        body: { type: 'wifi', data: 'Cafe' },
        bodyConforms: false,
      }),
    );
    const id = Number(created.json.id);
    ok(
      await exchange({
        method: 'PUT',
        path: `/api/qr/${id}/update`,
        key: aliceKey,
        body: { data: { ssid: 'Cafe 2', pass: 'x', encryption: 'WPA2' } },
      }),
    );
    ok(await exchange({ method: 'DELETE', path: `/api/qr/${id}/delete`, key: aliceKey }));
  });

  it('for the plan endpoints, and a non-admin caller', async () => {
    ok(await exchange({ method: 'GET', path: '/api/plans' }));
    const bob = [...backend.store.users.values()].find((u) => u.username === 'bob_smith')!;
    const pro = [...backend.store.plans.values()].find((p) => !p.free)!;
    ok(await exchange({ method: 'PUT', path: `/api/plan/${pro.id}/user/${bob.id}`, body: { type: 'yearly' } }));
    failed(
      await exchange({
        method: 'PUT',
        path: `/api/plan/${pro.id}/user/${bob.id}`,
        body: { type: 'weekly' },
        bodyConforms: false,
      }),
    );
    const denied = await exchange({ method: 'GET', path: '/api/plans', key: aliceKey });
    expect(denied.status).toBe(403);
  });

  it('for the user endpoints', async () => {
    ok(await exchange({ method: 'GET', path: '/api/users?filter=pro' }));
    const created = await exchange({
      method: 'POST',
      path: '/api/user/add',
      body: { username: 'carol_1', email: 'carol@example.com', password: 'carol-password' },
    });
    ok(created);
    failed(
      await exchange({
        method: 'POST',
        path: '/api/user/add',
        body: { username: 'carol_2', email: 'carol2@example.com' },
        bodyConforms: false,
      }),
    );
    const id = Number((created.json.data as { id: number }).id);
    ok(await exchange({ method: 'GET', path: `/api/user/${id}` }));
    ok(await exchange({ method: 'DELETE', path: `/api/user/${id}/delete` }));
    failed(await exchange({ method: 'GET', path: `/api/user/${id}` }));
  });

  it('for a request without an API key (HTTP 403)', async () => {
    const denied = await exchange({ method: 'GET', path: '/api/domains', key: null });
    expect(denied.status).toBe(403);
  });

  it('for the rate-limit answer (HTTP 200 with error 429)', async () => {
    const limited = createMockBackend({ rateLimit: { limit: 1, windowMs: 60_000 } });
    ok(await exchange({ method: 'GET', path: '/api/account', key: limited.adminKey }, limited));
    const over = await exchange({ method: 'GET', path: '/api/account', key: limited.adminKey }, limited);
    expect(over.json.error).toBe(429);
  });

  it('for the messaging API: send, devices, and the 401 of a missing or unknown key', async () => {
    const key = `gw_live_${'a1B2'.repeat(8)}`;
    const messaging = createMockBackend({ gateway: { messagingKey: key } });
    const online = messaging.gateway.devices.add({ tenant: 'default' });
    const offline = messaging.gateway.devices.add({ tenant: 'default', status: 'OFFLINE' });
    const send = (body: unknown, k: string | null = key, bodyConforms = true) =>
      exchange({ method: 'POST', path: '/api/v1/wa/messages/send', key: k, body, bodyConforms }, messaging);
    const message = { device_id: online.id, phone: '15551234567', message: 'Hello' };
    expect((await send(message)).status).toBe(200);
    expect((await send({ ...message, device_id: 'auto' })).status).toBe(200);
    expect((await send({ ...message, phone: '+1 555' }, key, false)).status).toBe(400);
    expect((await send({ ...message, device_id: 'dev_unknown' })).status).toBe(404);
    expect((await send({ ...message, device_id: offline.id })).status).toBe(409);
    expect((await send(message, null)).status).toBe(401);
    expect((await send(message, `gw_live_${'x'.repeat(24)}`)).status).toBe(401);
    expect((await exchange({ method: 'GET', path: '/api/v1/wa/devices', key }, messaging)).status).toBe(200);
    expect((await exchange({ method: 'GET', path: '/api/v1/wa/devices', key: 'nope' }, messaging)).status).toBe(401);
  });

  afterAll(() => {
    // Runs after the tests above: every documented operation of the service must have been exchanged at least once
    // (the mock's own endpoints, tagged control, and its QR images are exchanged in openapi-control.test.ts).
    const documented = Object.entries(doc.paths)
      .filter(([path]) => !isMockOwnPath(path))
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.filter((op) => !exercised.has(op))).toEqual([]);
  });
});

describe('the OpenAPI document describes the webhooks the mock gateway delivers', () => {
  it('for every event in the catalog, body and headers', async () => {
    const received: { headers: Headers; body: string }[] = [];
    const receiver = async (_url: string | URL | Request, init?: RequestInit) => {
      received.push({ headers: new Headers(init?.headers), body: String(init?.body) });
      return Response.json({ status: 'success' });
    };
    const mock = createMockBackend({ gateway: { fetch: receiver as typeof fetch } });
    const gateway = mock.gateway;
    gateway.routing.setTenant('default', { url: 'https://receiver.example/hooks', events: [...EVENT_NAMES] });
    const device = gateway.devices.add({ tenant: 'default' });
    gateway.simulate.message({ device_id: device.id, sender: '15551234567', text: 'hi', push_name: 'Sam' });
    gateway.simulate.message({
      device_id: device.id,
      sender: '15551234567',
      media: { mime_type: 'image/png', file_name: 'a.png', file_size: 2048 },
    });
    gateway.simulate.sent({ device_id: device.id, message_id: 'M1', recipient: '15557654321', text: 'yo' });
    gateway.simulate.ack({ device_id: device.id, message_id: 'M1', recipient: '15557654321', status: 'read' });
    gateway.simulate.status({ device_id: device.id, status: 'HIBERNATED', reason: 'idle' });
    gateway.simulate.pairing.start({ device_id: device.id });
    await gateway.drain();

    const seen = new Set<string>();
    for (const { headers, body } of received) {
      const payload = JSON.parse(body) as { event: string };
      seen.add(payload.event);
      expect(validator.check(validator.webhookPointer(payload.event), payload), body).toEqual([]);
      // The secret is the webhookSecret security scheme's header, not a parameter.
      const scheme = doc.components.securitySchemes.webhookSecret as { name: string };
      expect(headers.get(scheme.name), `${scheme.name} of ${payload.event}`).toMatch(/^whsec_(live|dev)_[0-9a-f]{32}$/);
      const post = (doc.webhooks[payload.event] as { post: { parameters: { name: string; schema: unknown }[] } }).post;
      for (const param of post.parameters) {
        const value = headers.get(param.name);
        expect(value, `header ${param.name} of ${payload.event}`).not.toBeNull();
        const pointer = `/webhooks/${payload.event}/post/parameters/${post.parameters.indexOf(param)}/schema`;
        expect(validator.check(pointer, value), `header ${param.name}: ${value}`).toEqual([]);
      }
    }
    expect([...seen].sort()).toEqual([...EVENT_NAMES].sort());
  });
});

describe('the OpenAPI document', () => {
  it('states the delivery rules the engine runs: the waits, dead-lettering after the 6th failed attempt, the circuit', async () => {
    const timeline = await recordRetryTimeline();
    const real = timeline.attempts.filter(
      (a) => a.deliveryId === timeline.deliveries[0] && a.outcome !== 'circuit-open',
    );
    const waits = real.slice(1, 5).map((a, i) => (a.startedAt - real[i]!.startedAt) / 1000);
    const open = timeline.circuit[0]!;
    expect(timeline.deadLetters.map((d) => d.deliveryId)).toContain(timeline.deliveries[0]);
    for (const event of EVENT_NAMES) {
      const { description } = (doc.webhooks[event] as { post: { description: string } }).post;
      expect(description).toContain(`retried after ${waits.join(', ')}`);
      expect(description).toContain(`after ${real.length} failed attempts`);
      expect(description).toContain(`open the circuit for ${(open.openUntil! - open.at) / 1000} s`);
    }
  });

  it('resolves every $ref and compiles every schema', () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === '$ref' && typeof v === 'string') refs.push(v);
          else walk(v);
        }
      }
    };
    walk(doc);
    for (const ref of new Set(refs)) {
      const target = ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((n, k) => (n as Record<string, unknown>)?.[k], doc);
      expect(target, ref).toBeDefined();
    }
    for (const id of Object.keys(doc.components.schemas)) {
      expect(() => validator.check(`/components/schemas/${id}`, null)).not.toThrow();
    }
  });

  it('is served by the mock at /openapi.json with servers set to the address asked', async () => {
    const res = await backend.fetch('http://api.linkgate.test/openapi.json');
    expect(res.status).toBe(200);
    const served = (await res.json()) as typeof doc;
    expect(served.servers).toEqual([{ url: 'http://api.linkgate.test' }]);
    expect(served.paths).toEqual(JSON.parse(JSON.stringify(doc.paths)));
  });

  it('is the committed docs/openapi.json (run `npm run docs` after changing a schema)', () => {
    const committed = JSON.parse(readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});
