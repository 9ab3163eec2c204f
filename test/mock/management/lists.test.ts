import { expect, it } from 'vitest';
import { Overlay, pagedEnvelope, Splash } from '../../../src/schemas/index.js';
import { describeMock } from '../support/harness.js';
import { demoUser, manualClock } from '../support/management.js';

describeMock(
  'splash pages and overlays',
  (ctx) => {
    it('lists the caller\'s splash pages under "splash"', async () => {
      const alice = demoUser(ctx.backend, 'alice');
      const res = await ctx.api('GET', '/api/splash', { key: alice.apikey });
      expect(res.json.error).toBe('0');
      expect(res.json.data.splash.map((s: { name: string }) => s.name)).toEqual(['Newsletter sign-up', 'Spring sale']);
      expect(res.json.data.splash[0]).toEqual({ id: 2, name: 'Newsletter sign-up', date: '2026-01-01 00:00:00' });
      expect(pagedEnvelope(Splash, ['splash']).safeParse(res.json).success).toBe(true);
    });

    it('lists the caller\'s overlays under "cta"', async () => {
      const alice = demoUser(ctx.backend, 'alice');
      const res = await ctx.api('GET', '/api/overlay', { key: alice.apikey });
      expect(res.json.data.cta).toEqual([
        { id: 2, type: 'contact', name: 'Contact us', date: '2026-01-01 00:00:00' },
        { id: 1, type: 'message', name: 'Free shipping banner', date: '2026-01-01 00:00:00' },
      ]);
      expect(res.json.data).not.toHaveProperty('overlay');
      expect(pagedEnvelope(Overlay, ['cta', 'overlay']).safeParse(res.json).success).toBe(true);
    });

    it('pages overlays like every other list', async () => {
      const alice = demoUser(ctx.backend, 'alice');
      const res = await ctx.api('GET', '/api/overlay', { key: alice.apikey, query: { limit: 1, page: 2 } });
      expect(res.json.data).toMatchObject({ result: 2, perpage: 1, currentpage: 2, nextpage: null, maxpage: 2 });
      expect(res.json.data.cta).toHaveLength(1);
    });
  },
  manualClock({ seed: 'demo' }),
);
