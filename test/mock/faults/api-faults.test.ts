import { createMockBackend, ManualClock } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';

const BASE = 'https://api.faults.test';
const MESSAGING_KEY = `gw_live_${'a'.repeat(24)}`;

function setup() {
  const clock = new ManualClock();
  const backend = createMockBackend({
    clock,
    baseUrl: BASE,
    seed: 'demo',
    rateLimit: false,
    gateway: { messagingKey: MESSAGING_KEY, devices: [{ id: 'dev_1' }] },
  });
  const call = (method: string, path: string, key = backend.adminKey, body?: unknown) =>
    backend.fetch(`${BASE}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  return { clock, backend, call };
}

describe('API faults armed in-process', () => {
  it('fails the next N calls of an operation with a status and the management API’s own body, then answers again', async () => {
    const { backend, call } = setup();
    const [armed] = [backend.faults.add({ operation: 'listDomains', fault: 'status', status: 503, times: 2 })];
    expect(armed).toMatchObject({ id: 'f1', fault: 'status', operations: ['listDomains'], times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await call('GET', '/api/domains');
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: 1, message: 'Service Unavailable' });
    }
    expect((await call('GET', '/api/domains')).status).toBe(200);
    expect(backend.faults.list()).toEqual([]);
    expect(backend.faults.fired().map((f) => [f.rule, f.operation, f.path])).toEqual([
      ['f1', 'listDomains', '/api/domains'],
      ['f1', 'listDomains', '/api/domains'],
    ]);
  });

  it('leaves other operations alone', async () => {
    const { backend, call } = setup();
    backend.faults.add({ operation: 'listDomains', fault: 'status', status: 500, times: 'always' });
    expect((await call('GET', '/api/account')).status).toBe(200);
    expect((await call('GET', '/api/pixels')).status).toBe(200);
    expect(backend.faults.list()[0]).toMatchObject({ seen: 0, fired: 0 });
  });

  it('answers production’s HTTP 200 with error 1, and with error 429 plus its rate-limit headers', async () => {
    const { clock, backend, call } = setup();
    backend.faults.add({ operation: 'getAccount', fault: 'error', message: 'Database is down.' });
    backend.faults.add({ operation: 'getAccount', fault: 'rate-limited', retryAfter: 7 });
    const first = await call('GET', '/api/account');
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ error: 1, message: 'Database is down.' });
    const limited = await call('GET', '/api/account');
    expect(limited.status).toBe(200);
    expect(await limited.json()).toEqual({ error: 429, message: 'Too Many API Requests.', 'Retry-After': 7 });
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-limit')).toBe('30');
    expect(limited.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil((clock.now() + 7_000) / 1000)));
  });

  it('says in Retry-After what is left of the key’s own rate window, as production does, when no retryAfter is given', async () => {
    const clock = new ManualClock();
    const backend = createMockBackend({ clock, baseUrl: BASE, seed: 'demo' });
    const get = () =>
      backend.fetch(`${BASE}/api/account`, { headers: { authorization: `Bearer ${backend.adminKey}` } });
    expect((await get()).status).toBe(200);
    await clock.advance(20_000);
    backend.faults.add({ operation: 'getAccount', fault: 'rate-limited' });
    const limited = await get();
    expect(await limited.json()).toMatchObject({ error: 429, 'Retry-After': 40 });
    expect(limited.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil((clock.now() + 40_000) / 1000)));
  });

  it('answers the messaging gateway’s own outage and key answers', async () => {
    const { backend, call } = setup();
    backend.faults.add({ operation: 'sendMessage', fault: 'unavailable', retryAfter: 2 });
    backend.faults.add({ operation: 'sendMessage', fault: 'unauthorized' });
    backend.faults.add({ operation: 'sendMessage', fault: 'rate-limited', retryAfter: 3 });
    const send = () =>
      call('POST', '/api/v1/wa/messages/send', MESSAGING_KEY, {
        device_id: 'dev_1',
        phone: '15551234567',
        message: 'hi',
      });
    const down = await send();
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('2');
    expect(await down.json()).toEqual({
      success: false,
      message: 'The gateway is temporarily unavailable.',
      error: 'SERVICE_UNAVAILABLE',
    });
    const refused = await send();
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ success: false, message: 'Invalid API Key', error: 'UNAUTHORIZED' });
    const limited = await send();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect((await send()).status).toBe(200);
  });

  it('fails only the nth matching call', async () => {
    const { backend, call } = setup();
    backend.faults.add({ operation: 'getAccount', fault: 'status', status: 500, nth: 3 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await call('GET', '/api/account')).status);
    expect(statuses).toEqual([200, 200, 500, 200, 200]);
  });

  it('fails calls only inside a window of mock time', async () => {
    const { clock, backend, call } = setup();
    backend.faults.add({ path: '/api/account', fault: 'unavailable', afterMs: 1_000, forMs: 2_000, times: 'always' });
    expect((await call('GET', '/api/account')).status).toBe(200);
    await clock.advance(1_000);
    expect((await call('GET', '/api/account')).status).toBe(503);
    await clock.advance(1_999);
    expect((await call('GET', '/api/account')).status).toBe(503);
    await clock.advance(1);
    expect((await call('GET', '/api/account')).status).toBe(200);
  });

  it('matches a path pattern, a method, or every call of one API key', async () => {
    const { backend, call } = setup();
    backend.faults.add({ path: '/api/qr/*', method: 'GET', fault: 'status', status: 502, times: 'always' });
    expect((await call('GET', '/api/qr/1')).status).toBe(502);
    expect((await call('GET', '/api/qr')).status).toBe(200);
    backend.faults.clear();
    const user = [...backend.store.users.values()].find((u) => !u.admin)!;
    backend.faults.add({ apiKey: user.apikey, fault: 'status', status: 500, times: 'always' });
    expect((await call('GET', '/api/account', user.apikey)).status).toBe(500);
    expect((await call('GET', '/api/domains', user.apikey)).status).toBe(500);
    expect((await call('GET', '/api/account')).status).toBe(200);
  });

  it('delays the real answer on the mock clock (latency with seeded jitter)', async () => {
    const { clock, backend, call } = setup();
    backend.faults.add({ operation: 'getAccount', fault: 'latency', ms: 1_000, jitterMs: 0 });
    let done = false;
    const pending = call('GET', '/api/account').then((res) => {
      done = true;
      return res;
    });
    await clock.advance(999);
    expect(done).toBe(false);
    await clock.advance(1);
    const res = await pending;
    expect(res.status).toBe(200);
    expect((await res.json()).data.username).toBe('admin');
  });

  it('plays wire faults through backend.fetch as fetch would show them', async () => {
    const { backend, call } = setup();
    backend.faults.add({ operation: 'getAccount', fault: 'reset' });
    await expect(call('GET', '/api/account')).rejects.toThrow(TypeError);

    backend.faults.add({ operation: 'getAccount', fault: 'reset-after-headers' });
    const headersOnly = await call('GET', '/api/account');
    expect(headersOnly.status).toBe(200);
    await expect(headersOnly.text()).rejects.toThrow(TypeError);

    backend.faults.add({ operation: 'getAccount', fault: 'cut-body', bytes: 5 });
    const cut = await call('GET', '/api/account');
    const reader = cut.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('{"err');
    await expect(reader.read()).rejects.toThrow(TypeError);

    backend.faults.add({ operation: 'getAccount', fault: 'malformed-json' });
    const broken = await call('GET', '/api/account');
    expect(broken.status).toBe(200);
    await expect(broken.clone().json()).rejects.toThrow(SyntaxError);
    expect((await broken.text()).startsWith('{"error":0')).toBe(true);
  });

  it('does not answer a hung call until the client gives up, then rejects as an aborted fetch does', async () => {
    const { backend } = setup();
    backend.faults.add({ operation: 'getAccount', fault: 'hang' });
    const started = performance.now();
    const call = backend.fetch(`${BASE}/api/account`, {
      headers: { authorization: `Bearer ${backend.adminKey}` },
      signal: AbortSignal.timeout(100),
    });
    await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('trickles the body a few bytes at a time on the mock clock', async () => {
    const { clock, backend, call } = setup();
    backend.faults.add({ operation: 'getAccount', fault: 'trickle', chunkBytes: 4, intervalMs: 100 });
    const res = await call('GET', '/api/account');
    const reader = res.body!.getReader();
    const first = reader.read();
    await clock.advance(100);
    expect(new TextDecoder().decode((await first).value)).toBe('{"er');
    const second = reader.read();
    await clock.advance(100);
    expect(new TextDecoder().decode((await second).value)).toBe('ror"');
    await reader.cancel();
  });

  it('is cleared by reset', async () => {
    const { backend, call } = setup();
    backend.faults.add({ operation: 'getAccount', fault: 'status', status: 500, times: 'always' });
    backend.reset();
    expect(backend.faults.list()).toEqual([]);
    expect((await call('GET', '/api/account')).status).toBe(200);
  });
});
