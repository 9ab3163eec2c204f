import type { ManualClock as ManualClockType } from 'linkgate/mock';
import { ManualClock } from 'linkgate/mock';
import { expect, it } from 'vitest';
import { describeMock, type MockTestContext } from '../support/harness.js';

const START = Date.UTC(2026, 0, 1, 0, 0, 10); // ten seconds past a minute: windows start at the first request
const clockOf = (ctx: MockTestContext) => ctx.backend.clock as ManualClockType;

describeMock(
  'management rate limit',
  (ctx) => {
    it('admits 30 requests in a window, counting Remaining down to 0', async () => {
      for (let i = 1; i <= 30; i++) {
        const res = await ctx.api('GET', '/api/account');
        expect(res.json.error).toBe(0);
        expect(res.headers.get('x-ratelimit-limit')).toBe('30');
        expect(res.headers.get('x-ratelimit-remaining')).toBe(String(30 - i));
      }
    });

    it('answers the 31st request on HTTP 200 with error 429 and the seconds left', async () => {
      for (let i = 0; i < 30; i++) await ctx.api('GET', '/api/account');
      await clockOf(ctx).advance(15_000);
      const res = await ctx.api('GET', '/api/account');
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ error: 429, message: 'Too Many API Requests.', 'Retry-After': 45 });
      expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    });

    it('sends Reset as the Unix second the window ends, counted from the first request', async () => {
      const res = await ctx.api('GET', '/api/account');
      expect(res.headers.get('x-ratelimit-reset')).toBe(String((START + 60_000) / 1000));
      await clockOf(ctx).advance(30_000);
      const later = await ctx.api('GET', '/api/account');
      expect(later.headers.get('x-ratelimit-reset')).toBe(String((START + 60_000) / 1000));
    });

    it('puts the headers on failures too: validation, not found, permission, wrong method and over-limit answers', async () => {
      const normal = ctx.backend.store.addUser({ username: 'carol', email: 'carol@example.com' });
      const answers = [
        await ctx.api('POST', '/api/domain/add', { key: normal.apikey, body: {} }),
        await ctx.api('DELETE', `/api/domain/9/delete`, { key: normal.apikey }),
        await ctx.api('GET', '/api/users', { key: normal.apikey }),
        // A wrong method: through msw an unknown path is not the mock's at all (routing.test.ts has its 404).
        await ctx.api('DELETE', '/api/account', { key: normal.apikey }),
      ];
      expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual(['29', '28', '27', '26']);
      for (let i = 0; i < 26; i++) await ctx.api('GET', '/api/account', { key: normal.apikey });
      const over = await ctx.api('GET', '/api/account', { key: normal.apikey });
      expect(over.json.error).toBe(429);
      expect(over.headers.get('x-ratelimit-limit')).toBe('30');
      expect(over.headers.get('x-ratelimit-reset')).toBe(String((START + 60_000) / 1000));
    });

    it('opens a fresh window once 60 seconds have passed', async () => {
      for (let i = 0; i < 31; i++) await ctx.api('GET', '/api/account');
      await clockOf(ctx).advance(60_000);
      const res = await ctx.api('GET', '/api/account');
      expect(res.json.error).toBe(0);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('29');
      expect(res.headers.get('x-ratelimit-reset')).toBe(String((START + 120_000) / 1000));
    });

    it('keeps one window per API key', async () => {
      const other = ctx.backend.store.addUser({ username: 'carol', email: 'carol@example.com' });
      for (let i = 0; i < 31; i++) await ctx.api('GET', '/api/account');
      const res = await ctx.api('GET', '/api/account', { key: other.apikey });
      expect(res.json.error).toBe(0);
      expect(res.headers.get('x-ratelimit-remaining')).toBe('29');
    });

    it('does not count requests refused for a missing key', async () => {
      const refused = await ctx.api('GET', '/api/account', { key: null });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('x-ratelimit-remaining')).toBeNull();
      const res = await ctx.api('GET', '/api/account');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('29');
    });

    it('does not limit the public QR images', async () => {
      const add = await ctx.api('POST', '/api/qr/add', { body: { type: 'text', data: 'x' } });
      const image = await ctx.api('GET', new URL(add.json.link).pathname, { key: null });
      expect(image.headers.get('x-ratelimit-remaining')).toBeNull();
    });
  },
  () => ({ clock: new ManualClock(START) }),
);

describeMock(
  'rate limit options',
  (ctx) => {
    it('applies a custom limit and window', async () => {
      for (let i = 0; i < 3; i++) expect((await ctx.api('GET', '/api/account')).json.error).toBe(0);
      const over = await ctx.api('GET', '/api/account');
      expect(over.json).toMatchObject({ error: 429, 'Retry-After': 10 });
    });
  },
  () => ({ clock: new ManualClock(START), rateLimit: { limit: 3, windowMs: 10_000 } }),
);

describeMock(
  'rate limit off',
  (ctx) => {
    it('sends no rate-limit headers and never refuses', async () => {
      for (let i = 0; i < 40; i++) {
        const res = await ctx.api('GET', '/api/account');
        expect(res.json.error).toBe(0);
        expect(res.headers.get('x-ratelimit-limit')).toBeNull();
      }
    });
  },
  () => ({ clock: new ManualClock(START), rateLimit: false }),
);
