import { expect, it } from 'vitest';
import { describeMock } from '../harness.js';
import { manualClock } from './helpers.js';

describeMock(
  'routing',
  (ctx) => {
    it('answers an unknown endpoint with HTTP 404 naming it', async () => {
      const res = await ctx.api('GET', '/api/nope');
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 1, message: 'Endpoint not found: GET /api/nope' });
    });

    it('answers 404 to an unknown endpoint even without a key', async () => {
      const res = await ctx.api('POST', '/api/links/add', { key: null, body: {} });
      expect(res.status).toBe(404);
      expect(res.json.message).toBe('Endpoint not found: POST /api/links/add');
    });

    it('keeps the rate-limit headers on a 404 to an authenticated caller', async () => {
      const res = await ctx.api('GET', '/api/nope');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('29');
    });

    it('answers a known path asked with the wrong method with HTTP 405, a JSON body and Allow', async () => {
      const res = await ctx.api('DELETE', '/api/account');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET');
      expect(res.json).toEqual({ error: 1, message: 'Method not allowed: DELETE /api/account. Use GET.' });
    });

    it('prefers a literal path over a parameter: GET /api/qr/add is a 405, not a QR id', async () => {
      const res = await ctx.api('GET', '/api/qr/add');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    });

    it('does not match a trailing slash or a longer path', async () => {
      expect((await ctx.api('GET', '/api/account/')).status).toBe(404);
      expect((await ctx.api('GET', '/api/account/extra')).status).toBe(404);
    });
  },
  manualClock(),
);
