import { expect, it } from 'vitest';
import { describeMock } from '../support/harness.js';
import { demoUser, manualClock } from '../support/management.js';

describeMock(
  'isolation between users',
  (ctx) => {
    it.each([
      ['/api/domains', 'domains'],
      ['/api/pixels', 'pixels'],
      ['/api/qr', 'qrs'],
      ['/api/splash', 'splash'],
      ['/api/overlay', 'cta'],
    ])("lists only the caller's own records at %s", async (path, key) => {
      const bob = demoUser(ctx.backend, 'bob_smith');
      const res = await ctx.api('GET', path, { key: bob.apikey });
      expect(res.json.data.result).toBe(1);
      expect(res.json.data[key]).toHaveLength(1);
    });

    it.each([
      ['GET', (id: number) => `/api/qr/${id}`, 'qrs', 'QR does not exist.'],
      ['PUT', (id: number) => `/api/qr/${id}/update`, 'qrs', 'QR does not exist.'],
      ['DELETE', (id: number) => `/api/qr/${id}/delete`, 'qrs', 'QR does not exist.'],
      ['PUT', (id: number) => `/api/domain/${id}/update`, 'domains', 'Domain not found. Please try again.'],
      ['DELETE', (id: number) => `/api/domain/${id}/delete`, 'domains', 'Domain not found. Please try again.'],
      ['PUT', (id: number) => `/api/pixel/${id}/update`, 'pixels', 'Pixel not found. Please try again.'],
      ['DELETE', (id: number) => `/api/pixel/${id}/delete`, 'pixels', 'Pixel not found. Please try again.'],
    ] as const)("treats another user's record as not found: %s", async (method, path, table, message) => {
      const alice = demoUser(ctx.backend, 'alice');
      const bob = demoUser(ctx.backend, 'bob_smith');
      const alicesRow = [...ctx.backend.store[table].values()].find((row) => row.userId === alice.id)!;
      const before = ctx.backend.store.snapshot();
      const res = await ctx.api(method, path(alicesRow.id), {
        key: bob.apikey,
        body: method === 'GET' ? undefined : { data: 'x', tag: 'abcdef', redirectroot: 'https://evil.example' },
      });
      expect(res.json).toEqual({ error: 1, message });
      expect(ctx.backend.store.snapshot()).toEqual(before);
    });
  },
  manualClock({ seed: 'demo' }),
);
