import { createMockBackend, type MockBackend, type MockServer, startMockServer } from 'linkgate/mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Gateway } from '../../../mock/gateway/gateway.js';

let backend: MockBackend;
let server: MockServer<MockBackend>;
beforeEach(async () => {
  backend = createMockBackend({ seed: 'demo', rateLimit: false });
  server = await startMockServer({ backend });
});
afterEach(() => server.close());

const auth = () => ({ authorization: `Bearer ${backend.adminKey}` });

describe('HEAD', () => {
  it('is answered like GET without a body, over HTTP and through backend.fetch', async () => {
    const get = await fetch(`${server.url}/api/account`, { headers: auth() });
    const getBody = await get.text();
    for (const head of [
      await fetch(`${server.url}/api/account`, { method: 'HEAD', headers: auth() }),
      await backend.fetch('/api/account', { method: 'HEAD', headers: auth() }),
    ]) {
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(await head.text()).toBe('');
    }
    expect(getBody).toContain('"username"');
    const overHttp = await fetch(`${server.url}/openapi.json`, { method: 'HEAD' });
    expect(Number(overHttp.headers.get('content-length'))).toBeGreaterThan(1000);
  });

  it('is listed in Allow next to GET, and refused with 405 where only other methods exist', async () => {
    const post = await fetch(`${server.url}/api/domains`, { method: 'POST', headers: auth() });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const head = await fetch(`${server.url}/api/domain/add`, { method: 'HEAD', headers: auth() });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('POST');
  });
});

describe('request body charset', () => {
  const add = (url: string, contentType: string, f: typeof fetch = fetch) =>
    f(`${url}/api/domain/add`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': contentType },
      body: JSON.stringify({ domain: `https://c${Math.floor(Math.random() * 1e9)}.example` }),
    });

  for (const charset of ['utf-16', 'UTF-16LE', 'iso-8859-1', 'windows-1252']) {
    it(`refuses a body declared charset=${charset} with 415 naming the charset and the fix, storing nothing`, async () => {
      const before = backend.store.domains.size;
      for (const res of [
        await add(server.url, `application/json; charset=${charset}`),
        await add('http://localhost', `application/json; charset=${charset}`, backend.fetch),
      ]) {
        expect(res.status).toBe(415);
        const body = await res.json();
        expect(body.error).toBe(1);
        expect(body.message).toContain(`charset=${charset}`);
        expect(body.message).toContain('UTF-8');
        expect(body.issues).toEqual(['Content-Type: charset must be utf-8']);
      }
      expect(backend.store.domains.size).toBe(before);
    });
  }

  it('accepts utf-8 in any spelling of case, quoted or not, and no charset at all', async () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'application/json; charset="Utf-8"',
      'application/json; charset=utf8',
    ]) {
      expect((await (await add(server.url, type)).json()).error, type).toBe(0);
    }
  });

  it('answers in the messaging and control error shapes under /api/v1/ and /__mock/', async () => {
    const messaging = await fetch(`${server.url}/api/v1/wa/messages/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-16' },
      body: '{}',
    });
    expect(messaging.status).toBe(415);
    expect(await messaging.json()).toMatchObject({ success: false, error: 'UNSUPPORTED_CHARSET' });
    const control = await fetch(`${server.url}/__mock/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-16' },
      body: '{}',
    });
    expect(control.status).toBe(415);
    expect(await control.json()).toMatchObject({ error: 'unsupported_media_type', field: 'Content-Type' });
  });
});

describe('randomness of keys, tokens and secrets', () => {
  it('comes from crypto.getRandomValues, not Math.random, unless a test passes its own', () => {
    const mathRandom = vi.spyOn(Math, 'random');
    const getRandomValues = vi.spyOn(globalThis.crypto, 'getRandomValues');
    try {
      const fresh = createMockBackend({ seed: 'demo' });
      fresh.gateway.keys.create({});
      fresh.gateway.routing.setTenant('default', { url: 'https://receiver.example/hooks' });
      fresh.store.addUser({ username: 'newbie', email: 'newbie@example.com' });
      // A gateway on its own (not through a backend) draws its token and secrets the same way.
      const standalone = new Gateway();
      standalone.routing.setTenant('default', { url: 'https://receiver.example/hooks' });
      standalone.keys.create({});
      expect(fresh.adminKey).toMatch(/^[0-9a-f]{32}$/);
      expect(mathRandom).not.toHaveBeenCalled();
      expect(getRandomValues).toHaveBeenCalled();
    } finally {
      mathRandom.mockRestore();
      getRandomValues.mockRestore();
    }
  });

  it('is reproducible with a seeded random, for tests that need the same keys', () => {
    const seeded = () => {
      let n = 1;
      return () => {
        n = (n * 16807) % 2147483647;
        return n / 2147483647;
      };
    };
    const a = createMockBackend({ seed: 'demo', random: seeded() });
    const b = createMockBackend({ seed: 'demo', random: seeded() });
    expect(a.adminKey).toBe(b.adminKey);
    expect(a.gateway.controlToken).toBe(b.gateway.controlToken);
  });
});
