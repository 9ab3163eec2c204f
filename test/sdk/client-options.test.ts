import { Linkgate, LinkgateError } from 'linkgate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BASE_URL, useMockApi } from './support/harness.js';

describe('client options', () => {
  const ctx = useMockApi();
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('reads apiKey and baseUrl from LINKGATE_API_KEY and LINKGATE_BASE_URL', async () => {
    vi.stubEnv('LINKGATE_API_KEY', ctx.backend.adminKey);
    vi.stubEnv('LINKGATE_BASE_URL', `${BASE_URL}/`);
    const client = new Linkgate({ clock: ctx.clock });
    expect(client.baseUrl).toBe(BASE_URL);
    expect((await client.account.get()).username).toBe('admin');
  });

  it('says which option or variable is missing', () => {
    vi.stubEnv('LINKGATE_API_KEY', '');
    vi.stubEnv('LINKGATE_BASE_URL', '');
    expect(() => new Linkgate({ baseUrl: BASE_URL })).toThrow(/no API key.*apiKey.*LINKGATE_API_KEY/);
    expect(() => new Linkgate({ apiKey: 'k-1234' })).toThrow(/no base URL.*LINKGATE_BASE_URL/);
    expect(() => new Linkgate({ apiKey: 'k-1234', baseUrl: 'ftp://x.example' })).toThrow(LinkgateError);
    expect(() => new Linkgate({ apiKey: 'k-1234', baseUrl: BASE_URL, maxRetries: -1 })).toThrow(/maxRetries/);
  });

  it('sends through an injected fetch (here the backend’s own, no msw)', async () => {
    ctx.server.close();
    try {
      const calls: string[] = [];
      const client = ctx.client({
        fetch: (input, init) => {
          calls.push(input instanceof Request ? input.url : String(input));
          return ctx.backend.fetch(input, init);
        },
      });
      expect((await client.account.get()).username).toBe('admin');
      expect(calls).toEqual([`${BASE_URL}/api/account`]);
    } finally {
      ctx.server.listen({ onUnhandledFrame: 'error' });
    }
  });

  it('sends the bearer key, JSON content type, client headers and per-call headers', async () => {
    const seen: Headers[] = [];
    ctx.server.events.on('request:start', ({ request }) => {
      seen.push(request.headers);
    });
    const client = ctx.client({ headers: { 'X-App': 'demo' } });
    await client.account.get({ headers: { 'X-Request-Id': 'r-1' } });
    const headers = seen[0]!;
    expect(headers.get('authorization')).toBe(`Bearer ${ctx.backend.adminKey}`);
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('x-app')).toBe('demo');
    expect(headers.get('x-request-id')).toBe('r-1');
  });

  it('exposes the last answer’s rate-limit figures as client.rateLimit', async () => {
    const client = ctx.client();
    expect(client.rateLimit).toBeNull();
    await client.account.get();
    expect(client.rateLimit).toEqual({ limit: 30, remaining: 29, resetAt: new Date(ctx.clock.now() + 60_000) });
  });
});
