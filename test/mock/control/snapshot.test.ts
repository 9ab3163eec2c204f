import { createMockBackend, ManualClock, type MockBackend } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_VERSION } from '../../../mock/state/mock-snapshot.js';
import { timeBulkSnapshot } from '../support/bulk-state.js';

const TOKEN = 'ctl-snapshot-token';
const MESSAGING_KEY = 'gw_live_snapshotsnapshotsnapshot01';

/** A backend with something in every part a snapshot holds: demo tables, a key, devices, endpoints, a dead letter. */
async function populated(): Promise<MockBackend> {
  const backend = createMockBackend({
    seed: 'demo',
    clock: new ManualClock(),
    gateway: {
      controlToken: TOKEN,
      messagingKey: MESSAGING_KEY,
      // Every receiver refuses: a message is dead-lettered at once (`rejected`).
      fetch: async () => new Response('nope', { status: 400 }),
    },
  });
  const { gateway } = backend;
  const device = gateway.devices.add({ id: 'phone-1', name: 'Front desk' });
  gateway.devices.add({ tenant: 'acme', id: 'phone-2', status: 'OFFLINE' });
  gateway.keys.create({ tenant: 'acme', label: 'CI' });
  gateway.routing.setTenant('default', { url: 'https://hooks.example/default', events: ['message.received'] });
  gateway.routing.setDevice(device.id, { url: 'https://hooks.example/device' });
  gateway.simulate.message({ device_id: 'phone-2', sender: '15551234567', text: 'not routed' });
  gateway.routing.setTenant('acme', { url: 'https://hooks.example/acme' });
  gateway.simulate.message({ device_id: 'phone-2', sender: '15551234567', text: 'hello' });
  await gateway.drain();
  return backend;
}

const control = (backend: MockBackend, method: string, body?: unknown, token = TOKEN) =>
  backend.fetch('/__mock/snapshot', {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('backend.snapshot() and restore()', () => {
  it('carries every table, key, device, endpoint and dead letter into another backend, field for field', async () => {
    const source = await populated();
    const taken = source.snapshot();
    expect(taken).toMatchObject({ format: 'linkgate-mock-state', version: SNAPSHOT_VERSION });
    expect(taken.gateway.deadLetters.items).toHaveLength(1);
    const target = createMockBackend({ seed: 'empty', gateway: { controlToken: 'ctl-other-token' } });
    // Through JSON, as a file or an HTTP body carries it.
    target.restore(JSON.parse(JSON.stringify(taken)));
    expect(target.snapshot()).toEqual(taken);
    // The messaging key is kept as a digest, and still lets its holder in.
    const sent = await target.fetch('/api/v1/devices', { headers: { authorization: `Bearer ${MESSAGING_KEY}` } });
    expect(sent.status).not.toBe(401);
    // The admin the banner shows is the restored one.
    expect(target.adminKey).toBe(source.adminKey);
    const account = await target.fetch('/api/account', { headers: { authorization: `Bearer ${source.adminKey}` } });
    expect(account.status).toBe(200);
  });

  it('never holds a messaging key itself, only its SHA-256', async () => {
    const text = JSON.stringify((await populated()).snapshot());
    expect(text).not.toContain(MESSAGING_KEY);
    expect(text).toMatch(/"digest":"[0-9a-f]{64}"/);
  });

  it('refuses a wrong field by name and rule, and changes nothing', async () => {
    const backend = await populated();
    const before = backend.snapshot();
    const cases: [(s: ReturnType<MockBackend['snapshot']>) => void, RegExp][] = [
      [
        (s) => {
          s.store.users[1]!.email = 'not-an-email';
        },
        /^snapshot\.store\.users\[1\]\.email must be a valid email/,
      ],
      [
        (s) => {
          s.store.users[2]!.username = s.store.users[1]!.username.toUpperCase();
        },
        /users\[2\]\.username is already taken/,
      ],
      [
        (s) => {
          s.store.domains[0]!.userId = 999;
        },
        /domains\[0\]\.userId names no user/,
      ],
      [
        (s) => {
          s.store.qrs[0]!.type = 'phone';
        },
        /qrs\[0\]\.data/,
      ],
      [
        (s) => {
          s.store.pixels[0]!.type = 'smoke-signal';
        },
        /pixels\[0\]\.type must be one of/,
      ],
      [
        (s) => {
          s.store.nextIds.users = 1;
        },
        /nextIds\.users must be above the highest id/,
      ],
      [
        (s) => {
          s.gateway.devices.devices[0]!.phone = '12';
        },
        /^snapshot\.gateway\.devices\.devices\[0\]\.phone must be 6-20 digits/,
      ],
      [
        (s) => {
          (s.gateway.webhooks.tenants[0] as { url: string }).url = 'http://hooks.example/';
        },
        /^snapshot\.gateway\.webhooks\.tenants\[0\]\.url must use HTTPS/,
      ],
      [
        (s) => {
          s.gateway.webhooks.devices[0]!.device_id = 'ghost';
        },
        /webhooks\.devices\[0\]\.device_id names no device/,
      ],
      [
        (s) => {
          s.gateway.keys.keys[0]!.digest = 'zz';
        },
        /^snapshot\.gateway\.keys\.keys\[0\]\.digest must be 64/,
      ],
      [
        (s) => {
          s.gateway.deadLetters.items[0]!.event = 'message.lost' as never;
        },
        /^snapshot\.gateway\.deadLetters\.items\[0\]\.event must be one of/,
      ],
      [
        (s) => {
          (s.store.users[0] as unknown as Record<string, unknown>).role = 'root';
        },
        /users\[0\]\.role is not a field here/,
      ],
      [
        (s) => {
          s.version = 2;
        },
        /^snapshot\.version is 2, .*upgrade linkgate/,
      ],
      [
        (s) => {
          (s as { format: string }).format = 'other';
        },
        /^snapshot\.format must be "linkgate-mock-state"/,
      ],
    ];
    for (const [spoil, message] of cases) {
      const bad = structuredClone(before);
      spoil(bad);
      expect(() => backend.restore(bad), String(message)).toThrow(message);
      expect(backend.snapshot()).toEqual(before);
    }
  });

  it('refuses keys that reach a prototype, anywhere in the document, before reading a field', async () => {
    const backend = await populated();
    const before = backend.snapshot();
    const text = JSON.stringify(before);
    for (const hostile of [
      text.replace('"format":', '"__proto__":{"polluted":true},"format":'),
      text.replace('"topCountries":{', '"topCountries":{"__proto__":"1",'),
      text.replace('"users":[{', '"users":[{"constructor":{"prototype":{"polluted":true}},'),
    ]) {
      expect(() => backend.restore(JSON.parse(hostile))).toThrow(/is not allowed: no snapshot field has this name/);
      expect(backend.snapshot()).toEqual(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('exports and restores 20,000 rows within a second each (measured: see docs/benchmarks.md)', () => {
    const { exportMs, restoreMs, rows } = timeBulkSnapshot();
    expect(rows).toBe(20_000);
    // The goal is 1 s each on a quiet machine; the bound leaves room for a loaded one.
    expect(exportMs, `export took ${exportMs.toFixed(0)} ms`).toBeLessThan(5_000);
    expect(restoreMs, `restore took ${restoreMs.toFixed(0)} ms`).toBeLessThan(5_000);
  });
});

describe('GET and PUT /__mock/snapshot', () => {
  it('answers the snapshot to the control token only, and puts one back', async () => {
    const source = await populated();
    expect((await control(source, 'GET', undefined, 'wrong-token')).status).toBe(401);
    expect((await control(source, 'PUT', source.snapshot(), 'wrong-token')).status).toBe(401);
    const got = await control(source, 'GET');
    expect(got.status).toBe(200);
    const body = await got.text();
    const target = createMockBackend({ gateway: { controlToken: TOKEN } });
    const put = await control(target, 'PUT', body);
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({
      restored: true,
      users: expect.arrayContaining([expect.objectContaining({ username: 'alice' })]),
    });
    expect(target.snapshot()).toEqual(JSON.parse(body));
  });

  it('answers a bad snapshot with 400 naming the field, and keeps the state', async () => {
    const backend = await populated();
    const before = backend.snapshot();
    for (const body of ['{"format":', '[]', '{}', JSON.stringify({ ...before, gateway: null })]) {
      const res = await control(backend, 'PUT', body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: 'invalid_request',
        field: expect.stringMatching(/^(body|snapshot)/),
      });
      expect(backend.snapshot()).toEqual(before);
    }
  });
});

describe('backend.changes, which tells a state file when to write', () => {
  it('grows again when a request that awaits finishes, so a copy saved half-way is not taken as current', async () => {
    const backend = createMockBackend({ rateLimit: false, gateway: { controlToken: TOKEN } });
    const fixture = { users: [{ username: 'dana_qa', email: 'dana@example.com' }], domains: [] as unknown[] };
    fixture.domains = Array.from({ length: 20 }, (_, i) => ({
      owner: 'dana_qa',
      domain: `https://d${i}.dana.example`,
    }));
    const answer = backend.handle({
      method: 'POST',
      path: '/__mock/fixture',
      query: new URLSearchParams(),
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(fixture),
      origin: 'http://localhost',
    });
    // What a write taken now would record: the fixture has started, not finished.
    const halfway = backend.changes;
    expect((await answer).status).toBe(201);
    expect(backend.changes).toBeGreaterThan(halfway);
  });

  it('grows when a timer changes the state, as pairing timing out takes a device OFFLINE', async () => {
    const clock = new ManualClock();
    const backend = createMockBackend({ clock });
    backend.gateway.devices.add({ id: 'phone-1', status: 'LOGGED_OUT' });
    backend.gateway.simulate.pairing.start({ device_id: 'phone-1' });
    const started = backend.changes;
    await backend.gateway.advance(10 * 60_000);
    expect(backend.gateway.devices.get('phone-1')?.status).toBe('OFFLINE');
    expect(backend.changes).toBeGreaterThan(started);
  });
});
