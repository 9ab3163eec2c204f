import { request as httpRequest } from 'node:http';
import { createMockBackend, ManualClock, type MockBackend, type MockServer, startMockServer } from 'linkgate/mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../mock/http/body-limit.js';

let backend: MockBackend;
let server: MockServer<MockBackend>;

beforeEach(async () => {
  backend = createMockBackend({ seed: 'demo', rateLimit: false });
  server = await startMockServer({ port: 0, backend });
});
afterEach(() => server.close());

const auth = () => ({ authorization: `Bearer ${backend.adminKey}` });

describe('startMockServer', () => {
  it('listens on a free port on 127.0.0.1 when given port 0', async () => {
    const other = await startMockServer({ port: 0, backend });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(other.url).not.toBe(server.url);
      expect((await fetch(`${other.url}/api/account`, { headers: auth() })).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('creates its own backend from backend options when none is given', async () => {
    const own = await startMockServer({ port: 0, adminKey: 'own-admin-key', seed: 'empty' });
    try {
      const res = await fetch(`${own.url}/api/account`, { headers: { authorization: 'Bearer own-admin-key' } });
      expect(res.status).toBe(200);
      expect(own.backend.store.users.size).toBe(1);
    } finally {
      await own.close();
    }
  });

  it('keeps the type of the clock it was given, so a test can move time on server.backend.clock', async () => {
    const own = await startMockServer({
      port: 0,
      clock: new ManualClock(),
      adminKey: 'clock-key',
      rateLimit: { limit: 1, windowMs: 60_000 },
    });
    try {
      const get = () => fetch(`${own.url}/api/account`, { headers: { authorization: 'Bearer clock-key' } });
      expect((await (await get()).json()).error).toBe(0);
      expect((await (await get()).json()).error).toBe(429);
      await own.backend.clock.advance(60_000); // a type error if the clock were typed as a plain Clock
      expect((await (await get()).json()).error).toBe(0);
    } finally {
      await own.close();
    }
  });

  it('serves the state of the backend it was given, in both directions', async () => {
    const user = backend.store.addUser({ username: 'carol', email: 'carol@example.com' });
    const res = await fetch(`${server.url}/api/account`, { headers: { authorization: `Bearer ${user.apikey}` } });
    expect((await res.json()).data.username).toBe('carol');

    const added = await fetch(`${server.url}/api/domain/add`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'https://go.carol.example' }),
    });
    expect((await added.json()).error).toBe(0);
    expect([...backend.store.domains.values()].some((d) => d.domain === 'https://go.carol.example')).toBe(true);
  });

  it('passes the query string to the backend', async () => {
    const res = await fetch(`${server.url}/api/domains?limit=1&page=2`, { headers: auth() });
    const body = await res.json();
    expect(body.data.perpage).toBe(1);
    expect(body.data.currentpage).toBe(2);
  });

  it('stops accepting connections once close() resolves', async () => {
    const url = server.url;
    await server.close();
    await expect(fetch(`${url}/api/account`, { headers: auth() })).rejects.toThrow();
    server = await startMockServer({ port: 0, backend });
  });

  it('closes promptly while a client holds an idle keep-alive connection', async () => {
    await fetch(`${server.url}/api/account`, { headers: auth() }).then((r) => r.text());
    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    // Closing an idle socket takes a few event-loop turns; waiting for the 5 s keep-alive timeout takes thousands.
    for (let turn = 0; turn < 50 && !closed; turn++) await new Promise((r) => setImmediate(r));
    expect(closed).toBe(true);
    await closing;
    server = await startMockServer({ port: 0, backend });
  });

  it('answers 500 with a JSON message instead of dropping the connection when the backend throws', async () => {
    const broken = await startMockServer({ port: 0, backend: { handle: () => Promise.reject(new Error('boom')) } });
    try {
      const res = await fetch(`${broken.url}/api/account`);
      expect(res.status).toBe(500);
      expect((await res.json()).message).toContain('boom');
    } finally {
      await broken.close();
    }
  });
});

describe('CORS', () => {
  it('answers a preflight with any origin, the API methods and the requested API headers', async () => {
    const res = await fetch(`${server.url}/api/domain/add`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-service-secret',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type, x-service-secret');
  });

  it('leaves headers the API does not read out of the preflight answer', async () => {
    const res = await fetch(`${server.url}/api/account`, {
      method: 'OPTIONS',
      headers: { 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, x-evil' },
    });
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization');
  });

  it('does not spend rate-limit budget on preflights', async () => {
    const limited = await startMockServer({ port: 0, rateLimit: { limit: 1, windowMs: 60_000 } });
    try {
      const key = limited.backend.adminKey;
      await fetch(`${limited.url}/api/account`, {
        method: 'OPTIONS',
        headers: { 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
      const res = await fetch(`${limited.url}/api/account`, { headers: { authorization: `Bearer ${key}` } });
      expect((await res.json()).error).toBe(0);
    } finally {
      await limited.close();
    }
  });

  it('lets browsers read the answers and their rate-limit headers', async () => {
    const limited = await startMockServer({ port: 0 });
    try {
      const res = await fetch(`${limited.url}/api/account`, {
        headers: { origin: 'http://localhost:5173', authorization: `Bearer ${limited.backend.adminKey}` },
      });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('29');
    } finally {
      await limited.close();
    }
  });
});

describe('request body limit', () => {
  it(`refuses a declared body over ${MAX_BODY_BYTES} bytes with 413 and a JSON message, storing nothing`, async () => {
    const domains = backend.store.domains.size;
    const res = await fetch(`${server.url}/api/domain/add`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'https://big.example', pad: 'x'.repeat(MAX_BODY_BYTES) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 1, message: expect.stringContaining('larger than 1 MB') });
    expect(backend.store.domains.size).toBe(domains);
  });

  it('refuses a streamed body without a length as soon as it passes the limit, without waiting for its end', async () => {
    let pulled = 0;
    // An endless body: the server must answer without reading it all.
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024).fill(32));
      },
    });
    const res = await fetch(`${server.url}/api/domain/add`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: endless,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(pulled * 64 * 1024).toBeLessThan(64 * MAX_BODY_BYTES);
  });

  it('answers in the messaging error shape under /api/v1/', async () => {
    const res = await fetch(`${server.url}/api/v1/wa/messages/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(MAX_BODY_BYTES + 1),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, error: 'PAYLOAD_TOO_LARGE' });
  });

  it('passes a body of exactly 1 MB through to the backend', async () => {
    const body = JSON.stringify({ domain: 'https://edge.example', pad: '' });
    const padded = JSON.stringify({ domain: 'https://edge.example', pad: ' '.repeat(MAX_BODY_BYTES - body.length) });
    expect(Buffer.byteLength(padded)).toBe(MAX_BODY_BYTES);
    const res = await fetch(`${server.url}/api/domain/add`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: padded,
    });
    expect(res.status).toBe(200);
    expect((await res.json()).error).toBe(0);
  });

  it('refuses over the limit on a raw chunked upload too', async () => {
    const url = new URL(server.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: '/api/domain/add', method: 'POST', headers: auth() },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      const chunk = Buffer.alloc(256 * 1024, 32);
      for (let i = 0; i < 6; i++) req.write(chunk);
      req.end();
    });
    expect(status).toBe(413);
  });
});

describe('concurrency', () => {
  it('answers 60 concurrent requests of different users each with its own account', async () => {
    const users = Array.from({ length: 60 }, (_, i) =>
      backend.store.addUser({ username: `user${i}x`, email: `user${i}@example.com` }),
    );
    const answers = await Promise.all(
      users.map((u) =>
        fetch(`${server.url}/api/account`, { headers: { authorization: `Bearer ${u.apikey}` } }).then((r) => r.json()),
      ),
    );
    expect(answers.map((a) => a.data.username)).toEqual(users.map((u) => u.username));
  });
});
