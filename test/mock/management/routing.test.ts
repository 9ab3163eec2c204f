import { expect, it } from 'vitest';
import { describeMock } from '../support/harness.js';
import { manualClock } from '../support/management.js';

describeMock(
  'routing',
  (ctx) => {
    // Through msw, a path the mock does not serve is not the mock's to answer: it passes through to the app's own
    // handlers or the network (here a host that does not resolve). The standalone server answers it with a 404.
    const servedAlone = ctx.mode === 'http' ? it : it.skip;

    if (ctx.mode === 'msw') {
      it.each([
        ['GET', '/api/nope'],
        ['POST', '/api/links/add'],
        ['GET', '/api/account/'],
        ['GET', '/api/account/extra'],
      ])('lets %s %s pass through msw untouched', async (method, path) => {
        await expect(ctx.api(method, path, method === 'POST' ? { body: {} } : {})).rejects.toThrow(/fetch failed/);
      });
    }

    servedAlone('answers an unknown endpoint with HTTP 404 naming it', async () => {
      const res = await ctx.api('GET', '/api/nope');
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 1, message: 'Endpoint not found: GET /api/nope' });
    });

    servedAlone('answers 404 to an unknown endpoint even without a key', async () => {
      const res = await ctx.api('POST', '/api/links/add', { key: null, body: {} });
      expect(res.status).toBe(404);
      expect(res.json.message).toBe('Endpoint not found: POST /api/links/add');
    });

    servedAlone('keeps the rate-limit headers on a 404 to an authenticated caller', async () => {
      const res = await ctx.api('GET', '/api/nope');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('29');
    });

    it('answers a known path asked with the wrong method with HTTP 405, a JSON body and Allow', async () => {
      const res = await ctx.api('DELETE', '/api/account');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
      expect(res.json).toEqual({ error: 1, message: 'Method not allowed: DELETE /api/account. Use GET or HEAD.' });
    });

    it('prefers a literal path over a parameter: GET /api/qr/add is a 405, not a QR id', async () => {
      const res = await ctx.api('GET', '/api/qr/add');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    });

    servedAlone('does not match a trailing slash or a longer path', async () => {
      expect((await ctx.api('GET', '/api/account/')).status).toBe(404);
      expect((await ctx.api('GET', '/api/account/extra')).status).toBe(404);
    });
  },
  manualClock(),
);
