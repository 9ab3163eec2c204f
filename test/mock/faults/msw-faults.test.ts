// The wire forms through msw's in-process handlers, mapped to their nearest Web form (docs/decisions/api-faults.md):
// what an app's own fetch sees under `setupServer`.
import { createMockBackend } from 'linkgate/mock';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const BASE = 'https://api.msw-faults.test';
const backend = createMockBackend({ baseUrl: BASE, seed: 'demo', rateLimit: false });
const server = setupServer(...backend.handlers);
const get = (init: RequestInit = {}) =>
  fetch(`${BASE}/api/account`, { ...init, headers: { authorization: `Bearer ${backend.adminKey}` } });

describe('faults through msw handlers', () => {
  beforeAll(() => server.listen());
  afterAll(() => server.close());
  beforeEach(() => backend.reset());

  it('reset: fetch rejects with a TypeError, as on a dropped connection', async () => {
    backend.faults.add({ operation: 'getAccount', fault: 'reset' });
    await expect(get()).rejects.toThrow(TypeError);
    expect((await get()).status).toBe(200);
  });

  it('reset-after-headers and cut-body: the answer arrives, reading its body fails', async () => {
    backend.faults.add({ operation: 'getAccount', fault: 'reset-after-headers' });
    const headersOnly = await get();
    expect(headersOnly.status).toBe(200);
    await expect(headersOnly.text()).rejects.toThrow();
    backend.faults.add({ operation: 'getAccount', fault: 'cut-body', bytes: 6 });
    const cut = await get();
    await expect(cut.text()).rejects.toThrow();
  });

  it('hang: no answer until the client’s signal gives up', async () => {
    backend.faults.add({ operation: 'getAccount', fault: 'hang' });
    const started = performance.now();
    await expect(get({ signal: AbortSignal.timeout(150) })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('trickle and latency: the whole answer, later', async () => {
    backend.faults.add({ operation: 'getAccount', fault: 'trickle', chunkBytes: 64, intervalMs: 10 });
    expect((await (await get()).json()).data.username).toBe('admin');
    backend.faults.add({ operation: 'getAccount', fault: 'latency', ms: 100 });
    const started = performance.now();
    expect((await get()).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(95);
  });

  it('answers a status fault in the API’s own shape', async () => {
    backend.faults.add({ operation: 'getAccount', fault: 'status', status: 502 });
    const res = await get();
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: 1, message: 'Bad Gateway' });
  });
});
