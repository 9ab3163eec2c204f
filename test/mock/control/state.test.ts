import { createMockBackend } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';

const TOKEN = 'ctl-state-token-1';

function setup() {
  const backend = createMockBackend({ seed: 'demo', gateway: { controlToken: TOKEN } });
  const control = async (path: string, body?: unknown, token = TOKEN) => {
    const res = await backend.fetch(`/__mock/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const api = async (key: string, path: string, init: RequestInit = {}) =>
    (await backend.fetch(path, { ...init, headers: { authorization: `Bearer ${key}`, ...init.headers } })).json();
  const alice = [...backend.store.users.values()].find((u) => u.username === 'alice')!;
  return { backend, control, api, alice };
}

const CAROL = { username: 'carol_tester', email: 'carol@example.com', password: 'secret-1', apikey: 'carol-key-0001' };

describe('POST /__mock/reset', () => {
  it('puts the stored data back to the start seed, keys included', async () => {
    const { backend, control, api, alice } = setup();
    const before = backend.store.snapshot();
    await api(alice.apikey, '/api/domain/add', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'https://new.alice.example' }),
    });
    backend.gateway.devices.add({ id: 'phone-x' });

    const res = await control('reset');
    expect(res.status).toBe(200);
    expect(res.body.reset).toBe(true);
    expect(res.body.users).toContainEqual({ id: alice.id, username: 'alice', apikey: alice.apikey, admin: false });
    expect(backend.store.snapshot()).toEqual(before);
    expect(backend.gateway.devices.list()).toEqual([]);
  });

  it('refuses a caller without the control token and changes nothing', async () => {
    const { backend, control } = setup();
    backend.gateway.devices.add({ id: 'phone-x' });
    expect((await control('reset', undefined, 'wrong-token')).status).toBe(401);
    expect(backend.gateway.devices.list()).toHaveLength(1);
  });
});

describe('POST /__mock/fixture', () => {
  it('loads users, domains, pixels, QR codes and devices, and answers their ids and keys', async () => {
    const { control, api } = setup();
    const res = await control('fixture', {
      users: [CAROL],
      domains: [{ owner: 'carol_tester', domain: 'https://go.carol.example', redirectroot: 'https://carol.example' }],
      pixels: [{ owner: 'carol_tester', type: 'gtmpixel', name: 'GTM', tag: 'GTM-CAROL1' }],
      qrs: [{ owner: 'carol_tester', type: 'link', data: 'https://carol.example/menu' }],
      devices: [{ tenant: 'carol', id: 'carol-phone' }],
    });
    expect(res.status).toBe(201);
    expect(res.body.users).toEqual([
      { id: expect.any(Number), username: 'carol_tester', apikey: 'carol-key-0001', admin: false },
    ]);
    expect(res.body.domains).toEqual([{ id: expect.any(Number), owner: 'carol_tester' }]);
    expect(res.body.qrs[0].link).toMatch(/^http:\/\/localhost\/api\/qr\/image\/[0-9a-f]+\.png$/);
    expect(res.body.devices[0]).toMatchObject({ id: 'carol-phone', tenant: 'carol', status: 'ONLINE' });

    // The loaded data is the owner's, through the ordinary API with the fixture's key.
    const domains = await api('carol-key-0001', '/api/domains');
    expect(domains.data.domains.map((d: { domain: string }) => d.domain)).toEqual(['https://go.carol.example']);
    const pixels = await api('carol-key-0001', '/api/pixels');
    expect(pixels.data.pixels).toHaveLength(1);
  });

  it('generates a key for a user without one', async () => {
    const { control } = setup();
    const { apikey: _none, ...withoutKey } = CAROL;
    const res = await control('fixture', { users: [withoutKey] });
    expect(res.body.users[0].apikey).toMatch(/^[0-9a-f]{32}$/);
  });

  const refusals: [string, Record<string, unknown>, string, RegExp][] = [
    ['an unknown table', { domain: [] }, 'domain', /is not a fixture table; the tables are users, domains/],
    ['a table that is not a list', { users: {} }, 'users', /must be an array/],
    ['a bad username', { users: [{ ...CAROL, username: 'c!' }] }, 'users[0].username', /4 to 20 letters/],
    ['a taken username', { users: [{ ...CAROL, username: 'ALICE' }] }, 'users[0].username', /already taken/],
    [
      'an owner that does not exist',
      { domains: [{ owner: 'nobody', domain: 'https://x.example' }] },
      'domains[0].owner',
      /names no user/,
    ],
    [
      'a domain another user has',
      { users: [CAROL], domains: [{ owner: 'carol_tester', domain: 'https://go.alice.example' }] },
      'domains[0]',
      /is refused by \/api\/domain\/add: The domain has been already used/,
    ],
    [
      'a QR code whose data breaks its type',
      {
        users: [CAROL],
        domains: [{ owner: 'carol_tester', domain: 'https://go.carol.example' }],
        qrs: [{ owner: 'carol_tester', type: 'link', data: 'not a url' }],
      },
      'qrs[0].data',
      /must be a URL/,
    ],
    [
      'a device with a taken id',
      { users: [CAROL], devices: [{ id: 'dup' }, { id: 'dup' }] },
      'devices[1].id',
      /already a device/,
    ],
  ];
  for (const [what, fixture, field, rule] of refusals) {
    it(`refuses ${what} with 400 naming ${field}, and stores nothing of the fixture`, async () => {
      const { backend, control } = setup();
      const before = backend.store.snapshot();
      const res = await control('fixture', fixture);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_request', field });
      expect(res.body.rule).toMatch(rule);
      expect(backend.store.snapshot()).toEqual(before);
      expect(backend.gateway.devices.list()).toEqual([]);
    });
  }
});
