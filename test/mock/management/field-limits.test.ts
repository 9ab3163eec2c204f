import { expect, it } from 'vitest';
import { MAX_NAME_CHARS, MAX_TAG_CHARS, MAX_URL_CHARS } from '../../../src/schemas/limits.js';
import { describeMock } from '../support/harness.js';
import { demoUser, manualClock } from '../support/management.js';

const url = (length: number) => {
  const base = 'https://go.example.com/';
  return base + 'a'.repeat(length - base.length);
};

describeMock(
  'field limits',
  (ctx) => {
    it('stores a pixel name of 100 characters and refuses one of 101, naming the field and the limit', async () => {
      const ok = await ctx.api('POST', '/api/pixel/add', {
        body: { type: 'gapixel', name: 'n'.repeat(MAX_NAME_CHARS), tag: 'G-1' },
      });
      expect(ok.json.error).toBe(0);
      const before = ctx.backend.store.snapshot();
      const res = await ctx.api('POST', '/api/pixel/add', {
        body: { type: 'gapixel', name: 'n'.repeat(MAX_NAME_CHARS + 1), tag: 'G-2' },
      });
      expect(res.json).toEqual({
        error: 1,
        message: 'Invalid request: "name" must be at most 100 characters.',
        issues: ['name: must be at most 100 characters'],
      });
      expect(ctx.backend.store.snapshot()).toEqual(before);
    });

    it('refuses a 1 MB pixel name on update and keeps the old one', async () => {
      const alice = demoUser(ctx.backend, 'alice');
      const pixel = ctx.backend.store.addPixel(alice.id, { type: 'gapixel', name: 'Old', tag: 'G-1' });
      const res = await ctx.api('PUT', `/api/pixel/${pixel.id}/update`, {
        key: alice.apikey,
        body: { name: 'n'.repeat(1_000_000), tag: 'G-1' },
      });
      expect(res.json).toMatchObject({ error: 1, issues: ['name: must be at most 100 characters'] });
      expect(ctx.backend.store.pixels.get(pixel.id)?.name).toBe('Old');
    });

    it('refuses a pixel tag over 100 characters', async () => {
      const res = await ctx.api('POST', '/api/pixel/add', {
        body: { type: 'gapixel', name: 'n', tag: 't'.repeat(MAX_TAG_CHARS + 1) },
      });
      expect(res.json).toMatchObject({ error: 1, issues: ['tag: must be at most 100 characters'] });
    });

    it('takes a domain URL of 2,048 characters and refuses one of 2,049 with production message', async () => {
      const ok = await ctx.api('POST', '/api/domain/add', { body: { domain: url(MAX_URL_CHARS) } });
      expect(ok.json.error).toBe(0);
      const res = await ctx.api('POST', '/api/domain/add', {
        body: { domain: url(MAX_URL_CHARS + 1).replace('go.', 'to.') },
      });
      expect(res.json).toEqual({
        error: 1,
        message: 'A valid domain name is required.',
        issues: ['domain: must be at most 2048 characters'],
      });
    });

    it.each([
      ['redirectroot', '/api/domain/add', { domain: 'https://go.b.example' }],
      ['logo', '/api/qr/add', { type: 'text', data: 'x' }],
      ['data', '/api/qr/add', { type: 'link' }],
    ])('refuses a %s over 2,048 characters', async (field, path, body) => {
      const long = field === 'logo' ? `${url(MAX_URL_CHARS)}.png` : url(MAX_URL_CHARS + 1);
      const res = await ctx.api('POST', path, { body: { ...body, [field]: long } });
      expect(res.json).toMatchObject({ error: 1, issues: [`${field}: must be at most 2048 characters`] });
    });
  },
  manualClock({ seed: 'demo' }),
);
