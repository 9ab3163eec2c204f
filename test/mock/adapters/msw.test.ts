import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { createMockBackend } from 'linkgate/mock';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../../mock/http/body-limit.js';

// A real server standing for "the rest of the network": requests msw does not handle reach it.
let network: Server;
let networkUrl: string;
beforeAll(async () => {
  network = createServer((_req, res) => res.end('from the network'));
  await new Promise<void>((resolve) => network.listen(0, '127.0.0.1', resolve));
  networkUrl = `http://127.0.0.1:${(network.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => network.close(() => resolve())));

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('backend.handlers without baseUrl', () => {
  it('is one catch-all handler', () => {
    expect(createMockBackend().handlers).toHaveLength(1);
  });

  it('answers /api/... on any origin', async () => {
    const backend = createMockBackend();
    server.resetHandlers(...backend.handlers);
    for (const origin of ['https://api.example.com', 'http://localhost:3000', networkUrl]) {
      const res = await fetch(`${origin}/api/account`, { headers: bearer(backend.adminKey) });
      expect(res.status).toBe(200);
      expect((await res.json()).data.username).toBeTypeOf('string');
    }
  });

  it('lets requests outside the mock paths through to the network', async () => {
    server.resetHandlers(...createMockBackend().handlers);
    expect(await (await fetch(`${networkUrl}/health`)).text()).toBe('from the network');
    expect(await (await fetch(`${networkUrl}/apiary`)).text()).toBe('from the network');
  });

  it("lets the app's own /api routes that are not spec paths through, on any origin", async () => {
    server.resetHandlers(...createMockBackend().handlers);
    for (const path of ['/api/webhooks', '/api/health', '/api/charge', '/api/v1/wa/unknown', '/api/domain/add/extra']) {
      expect(await (await fetch(`${networkUrl}${path}`, { method: 'POST' })).text(), path).toBe('from the network');
    }
  });

  it("lets the app's own msw handlers answer its /api routes, and msw warn about unhandled ones", async () => {
    const backend = createMockBackend();
    server.resetHandlers(
      ...backend.handlers,
      http.post('https://payments.example.com/api/charge', () => HttpResponse.json({ charged: true })),
    );
    const unhandled: string[] = [];
    const listener = ({ request }: { request: Request }) => unhandled.push(new URL(request.url).pathname);
    server.events.on('request:unhandled', listener);
    try {
      const charge = await fetch('https://payments.example.com/api/charge', { method: 'POST' });
      expect(await charge.json()).toEqual({ charged: true });
      expect(await (await fetch(`${networkUrl}/api/health`)).text()).toBe('from the network');
      expect(unhandled).toEqual(['/api/health']);
    } finally {
      server.events.removeListener('request:unhandled', listener);
    }
  });

  it('answers every path of its route table, with any method, and its whole /__mock/ prefix', async () => {
    const backend = createMockBackend({ seed: 'demo' });
    server.resetHandlers(...backend.handlers);
    const origin = 'http://localhost:3000';
    // Each body is read to its end: an unread body left behind when msw closes the socket trips undici's parser.
    const status = async (path: string, init?: RequestInit) => {
      const res = await fetch(`${origin}${path}`, init);
      await res.arrayBuffer();
      return res.status;
    };
    // A known path asked with the wrong method is still the mock's: 405 with Allow.
    expect(await status('/api/domain/1/update')).toBe(405);
    expect(await status('/api/qr/image/abc.png')).toBe(404);
    expect(await status('/openapi.json')).toBe(200);
    expect(await status('/api/v1/wa/messages/send', { method: 'POST' })).toBe(401);
    expect(await status('/__mock/no-such-endpoint')).toBe(401);
    expect(await status('/__mock')).toBe(401);
  });

  it("lets a test's own server.use(...) override win for its path while other paths still reach the mock", async () => {
    const backend = createMockBackend();
    server.resetHandlers(...backend.handlers);
    server.use(http.get('*/api/account', () => HttpResponse.json({ error: 1, message: 'overridden' })));

    const overridden = await fetch('https://api.example.com/api/account', { headers: bearer(backend.adminKey) });
    expect((await overridden.json()).message).toBe('overridden');
    const domains = await fetch('https://api.example.com/api/domains', { headers: bearer(backend.adminKey) });
    expect((await domains.json()).error).toBe('0');
  });

  it('refuses a body over 1 MB with 413', async () => {
    const backend = createMockBackend();
    server.resetHandlers(...backend.handlers);
    const res = await fetch('https://api.example.com/api/domain/add', {
      method: 'POST',
      headers: { ...bearer(backend.adminKey), 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'https://big.example', pad: 'x'.repeat(MAX_BODY_BYTES) }),
    });
    expect(res.status).toBe(413);
    expect(backend.store.domains.size).toBe(0);
  });
});

describe('backend.handlers with baseUrl', () => {
  it('answers only requests under baseUrl', async () => {
    const backend = createMockBackend({ baseUrl: 'https://api.example.com' });
    server.resetHandlers(...backend.handlers);

    const res = await fetch('https://api.example.com/api/account', { headers: bearer(backend.adminKey) });
    expect(res.status).toBe(200);
    expect(await (await fetch(`${networkUrl}/api/account`)).text()).toBe('from the network');
  });

  it("strips baseUrl's path prefix before routing", async () => {
    const backend = createMockBackend({ baseUrl: 'https://example.com/v3/' });
    server.resetHandlers(...backend.handlers);

    const res = await fetch('https://example.com/v3/api/account', { headers: bearer(backend.adminKey) });
    expect((await res.json()).error).toBe(0);
  });

  it('rejects a baseUrl that is not an absolute http(s) URL, naming the option', () => {
    expect(() => createMockBackend({ baseUrl: 'api.example.com' })).toThrow(
      /baseUrl must be an absolute http\(s\) URL/,
    );
    expect(() => createMockBackend({ baseUrl: 'ftp://api.example.com' })).toThrow(/baseUrl must use http or https/);
  });
});

describe('backend.fetch', () => {
  it('answers a Request directly, without msw listening', async () => {
    const backend = createMockBackend();
    const res = await backend.fetch(
      new Request('https://anywhere.example/api/account', { headers: bearer(backend.adminKey) }),
    );
    expect(res.status).toBe(200);
    expect((await res.json()).error).toBe(0);
  });

  it('resolves a relative path against baseUrl', async () => {
    const backend = createMockBackend({ baseUrl: 'https://example.com/v3' });
    const res = await backend.fetch('/api/account', { headers: bearer(backend.adminKey) });
    expect((await res.json()).error).toBe(0);
  });
});

describe('linkgate/mock in a browser (setupWorker)', () => {
  it('bundles for the browser platform without any node:* import', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../../../mock/index.ts', import.meta.url))],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      external: ['msw', 'msw/*'],
      logLevel: 'silent',
    });
    expect(result.outputFiles[0]!.text).not.toMatch(/from\s*["']node:|require\(["']node:|import\(["']node:/);
  });
});
