import { createMockBackend, ManualClock, type MockServer, startMockServer } from 'linkgate/mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_BODY_BYTES } from '../../../mock/http/body-limit.js';

const BASE = 'https://api.scope.test';
const ACME_KEY = `gw_live_${'b'.repeat(24)}`;
const DEFAULT_KEY = `gw_live_${'c'.repeat(24)}`;

function backendWithTwoTenants() {
  const clock = new ManualClock();
  const backend = createMockBackend({ clock, baseUrl: BASE, seed: 'demo', rateLimit: false });
  backend.gateway.keys.create({ tenant: 'default', key: DEFAULT_KEY });
  backend.gateway.keys.create({ tenant: 'acme', key: ACME_KEY });
  backend.gateway.devices.add({ tenant: 'default', id: 'dev_1' });
  backend.gateway.devices.add({ tenant: 'default', id: 'dev_2' });
  backend.gateway.devices.add({ tenant: 'acme', id: 'dev_3' });
  const get = (path: string, key = backend.adminKey) =>
    backend.fetch(`${BASE}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const send = (key: string, device: string) =>
    backend.fetch(`${BASE}/api/v1/wa/messages/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ device_id: device, phone: '15551234567', message: 'hi' }),
    });
  return { clock, backend, get, send };
}

/** Which of `calls` calls of listDomains a plan with `seed` fails. */
async function faultedCalls(seed: number, calls = 60): Promise<number[]> {
  const { backend, get } = backendWithTwoTenants();
  backend.faults.plan({
    seed,
    faults: [{ operation: 'listDomains', fault: 'status', status: 500, chance: 0.3, times: 'always' }],
  });
  const faulted: number[] = [];
  for (let i = 0; i < calls; i++) if ((await get('/api/domains')).status === 500) faulted.push(i);
  return faulted;
}

describe('a seeded plan', () => {
  it('fails the same calls in two runs, and other calls with another seed', async () => {
    const first = await faultedCalls(42);
    const second = await faultedCalls(42);
    expect(second).toEqual(first);
    // A chance of 0.3 over 60 calls: some fail, most do not.
    expect(first.length).toBeGreaterThan(5);
    expect(first.length).toBeLessThan(35);
    expect(await faultedCalls(43)).not.toEqual(first);
  });

  it('shows the seed it drew when none was given, so a run can be repeated', async () => {
    const { backend } = backendWithTwoTenants();
    const [armed] = backend.faults.plan({ faults: [{ operation: 'listDomains', fault: 'reset', chance: 0.5 }] });
    expect(Number.isInteger(armed!.seed)).toBe(true);
  });
});

describe('fault scopes', () => {
  it('a fault scoped to one API key never fails another key’s calls', async () => {
    const { backend, get } = backendWithTwoTenants();
    const [alice, bob] = [...backend.store.users.values()].filter((u) => !u.admin);
    backend.faults.add({ apiKey: alice!.apikey, fault: 'unavailable', times: 'always' });
    expect((await get('/api/account', alice!.apikey)).status).toBe(503);
    expect((await get('/api/account', bob!.apikey)).status).toBe(200);
    expect((await get('/api/domains')).status).toBe(200);
    // A key that is the scoped one plus a character is another key.
    expect((await get('/api/account', `${alice!.apikey}x`)).status).toBe(403);
    expect(JSON.stringify(backend.faults.list())).not.toContain(alice!.apikey);
  });

  it('a fault scoped to one tenant never fails another tenant’s sends', async () => {
    const { backend, send } = backendWithTwoTenants();
    backend.faults.add({ tenant: 'acme', fault: 'unavailable', times: 'always' });
    expect((await send(ACME_KEY, 'dev_3')).status).toBe(503);
    expect((await send(DEFAULT_KEY, 'dev_1')).status).toBe(200);
  });

  it('a fault scoped to one device never fails sends through another', async () => {
    const { backend, send } = backendWithTwoTenants();
    backend.faults.add({ device: 'dev_1', fault: 'status', status: 500, times: 'always' });
    expect((await send(DEFAULT_KEY, 'dev_1')).status).toBe(500);
    expect((await send(DEFAULT_KEY, 'dev_2')).status).toBe(200);
  });

  it('an unscoped operation fault does not touch the control API or other operations', async () => {
    const { backend, get } = backendWithTwoTenants();
    backend.faults.add({ path: '/api/**', fault: 'reset', times: 'always' });
    const control = await backend.fetch(`${BASE}/__mock/faults`, {
      headers: { authorization: `Bearer ${backend.gateway.controlToken}` },
    });
    expect(control.status).toBe(200);
    await expect(get('/api/account')).rejects.toThrow(TypeError);
  });
});

describe('the control route under hostile use', () => {
  let server: MockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const control = (method: string, path: string, body?: string) =>
    fetch(`${server!.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${server!.backend.gateway.controlToken}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body }),
    });

  it('arms hundreds of faults in one plan, and a body at the 1 MB limit; refuses one byte more with 413', async () => {
    server = await startMockServer({ seed: 'demo' });
    const many = {
      faults: Array.from({ length: 500 }, (_, i) => ({ path: '/api/qr/*', fault: 'status', status: 500, nth: i + 1 })),
    };
    const armed = await control('POST', '/__mock/faults', JSON.stringify(many));
    expect(armed.status).toBe(200);
    expect(((await armed.json()) as { faults: unknown[] }).faults).toHaveLength(500);
    const listed = (await (await control('GET', '/__mock/faults')).json()) as { faults: unknown[] };
    expect(listed.faults).toHaveLength(500);
    // A body of exactly 1 MB is read and armed; one byte more is refused before it is read, and nothing is armed.
    const padded = (bytes: number) => {
      const shell = JSON.stringify({ faults: [{ operation: 'listDomains', fault: 'error', message: '' }] });
      return shell.replace('"message":""', `"message":"${'x'.repeat(bytes - shell.length)}"`);
    };
    expect(Buffer.byteLength(padded(MAX_BODY_BYTES))).toBe(MAX_BODY_BYTES);
    expect((await control('POST', '/__mock/faults', padded(MAX_BODY_BYTES))).status).toBe(200);
    const refused = await control('POST', '/__mock/faults', padded(MAX_BODY_BYTES + 1));
    expect(refused.status).toBe(413);
    expect(((await (await control('GET', '/__mock/faults')).json()) as { faults: unknown[] }).faults).toHaveLength(501);
  });

  it('a latency longer than the client waits: the client gives up, the server keeps answering', async () => {
    server = await startMockServer({ seed: 'demo' });
    server.backend.faults.add({ operation: 'getAccount', fault: 'latency', ms: 60_000 });
    const headers = { authorization: `Bearer ${server.backend.adminKey}` };
    const error = await fetch(`${server.url}/api/account`, { headers, signal: AbortSignal.timeout(200) }).catch(
      (e) => e,
    );
    expect(error.name).toBe('TimeoutError');
    expect((await fetch(`${server.url}/api/account`, { headers })).status).toBe(200);
  });

  it('a fault armed or cleared while a call is in flight changes the next call, not that one', async () => {
    const { clock, backend, get } = backendWithTwoTenants();
    backend.faults.add({ operation: 'getAccount', fault: 'latency', ms: 1_000 });
    const inFlight = get('/api/account');
    // Once the call has met its fault (it waits on the clock), the faults change under it.
    await vi.waitFor(() => expect(backend.faults.fired()).toHaveLength(1));
    backend.faults.clear();
    backend.faults.add({ operation: 'getAccount', fault: 'status', status: 500 });
    await clock.advance(1_000);
    expect((await inFlight).status).toBe(200);
    expect((await get('/api/account')).status).toBe(500);
  });
});
