import { expect, it } from 'vitest';
import { describeMock, type MockTestContext } from '../support/harness.js';
import { demoUser, manualClock } from '../support/management.js';

const INVALID = { error: 1, message: 'A valid API key is required to use this service.' };
/** Through msw handlers without baseUrl the message goes on to say the linkgate mock answered (README Decisions). */
const invalid = (ctx: MockTestContext) =>
  ctx.mode === 'msw'
    ? {
        error: 1,
        message: expect.stringMatching(
          /^A valid API key is required to use this service\. \(Answered by the linkgate mock/,
        ),
      }
    : INVALID;
const FORBIDDEN = { error: 1, message: 'You do not have permission to access this endpoint.' };

describeMock(
  'API key authentication',
  (ctx) => {
    it('refuses a request without a key with HTTP 403', async () => {
      const res = await ctx.api('GET', '/api/account', { key: null });
      expect(res.status).toBe(403);
      expect(res.json).toEqual(invalid(ctx));
    });

    it('refuses an unknown key without echoing it', async () => {
      const res = await ctx.api('GET', '/api/account', { key: 'f'.repeat(32) });
      expect(res.status).toBe(403);
      expect(res.json).toEqual(invalid(ctx));
      expect(res.text).not.toContain('f'.repeat(32));
    });

    it('treats a header without "Bearer " as missing', async () => {
      const res = await ctx.api('GET', '/api/account', { key: null, headers: { authorization: ctx.backend.adminKey } });
      expect(res.status).toBe(403);
      expect(res.json).toEqual(invalid(ctx));
    });

    it('accepts the key given as the adminKey option', async () => {
      expect(ctx.backend.adminKey).toBe('0123456789abcdef0123456789abcdef');
      const res = await ctx.api('GET', '/api/account', { key: '0123456789abcdef0123456789abcdef' });
      expect(res.json.data.username).toBe('admin');
    });
  },
  manualClock({ adminKey: '0123456789abcdef0123456789abcdef' }),
);

describeMock(
  'admin-only endpoints',
  (ctx) => {
    it.each([
      ['GET', '/api/plans'],
      ['PUT', '/api/plan/1/user/3'],
      ['GET', '/api/users'],
      ['GET', '/api/user/2'],
      ['POST', '/api/user/add'],
      ['DELETE', '/api/user/3/delete'],
    ])('refuses %s %s to a normal user with HTTP 403', async (method, path) => {
      const alice = demoUser(ctx.backend, 'alice');
      const before = ctx.backend.store.snapshot();
      const body = method === 'GET' ? undefined : { type: 'monthly' };
      const res = await ctx.api(method, path, { key: alice.apikey, body });
      expect(res.status).toBe(403);
      expect(res.json).toEqual(FORBIDDEN);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('29');
      expect(ctx.backend.store.snapshot()).toEqual(before);
    });
  },
  manualClock({ seed: 'demo' }),
);
