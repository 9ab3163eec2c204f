import { expect, it } from 'vitest';
import { PIXEL_TYPES, Pixel, pagedEnvelope } from '../../../src/schemas/index.js';
import { describeMock } from '../support/harness.js';
import { manualClock } from '../support/management.js';

describeMock(
  'pixels',
  (ctx) => {
    it('adds a pixel and lists it under "pixels" with its date', async () => {
      const add = await ctx.api('POST', '/api/pixel/add', {
        body: { type: 'fbpixel', name: 'Main', tag: '1234567890' },
      });
      expect(add.json).toEqual({ error: 0, id: 1 });
      const list = await ctx.api('GET', '/api/pixels');
      expect(list.json.data.pixels).toEqual([
        { id: 1, type: 'fbpixel', name: 'Main', tag: '1234567890', date: '2026-01-01 00:00:00' },
      ]);
      expect(pagedEnvelope(Pixel, ['pixels']).safeParse(list.json).success).toBe(true);
    });

    it.each(PIXEL_TYPES.map((t) => [t]))('accepts the provider %s', async (type) => {
      const tag = type === 'fbpixel' ? '123456' : type === 'gtmpixel' ? 'GTM-ABC12' : 'TAG-123';
      const res = await ctx.api('POST', '/api/pixel/add', { body: { type, name: 'n', tag } });
      expect(res.json.error).toBe(0);
    });

    it.each([
      ['no type', { name: 'n', tag: 'abc' }, 'Missing type parameter. Pixel provider is required.'],
      ['no name', { type: 'gapixel', tag: 'abc' }, 'Missing name parameter. Pixel name is required.'],
      ['no tag', { type: 'gapixel', name: 'n' }, 'Missing tag parameter. Pixel tag is required.'],
      ['an unknown provider', { type: 'myspace', name: 'n', tag: 'abc' }, 'Pixel provider is currently not supported.'],
      [
        'a tag under 3 characters',
        { type: 'gapixel', name: 'n', tag: 'ab' },
        'Google Analytics ID is not correct. Please double check.',
      ],
      [
        'a Facebook tag with letters',
        { type: 'fbpixel', name: 'n', tag: '12ab34' },
        'Facebook ID is not correct. Please double check.',
      ],
      [
        'a Facebook tag over 20 digits',
        { type: 'fbpixel', name: 'n', tag: '1'.repeat(21) },
        'Facebook ID is not correct. Please double check.',
      ],
      [
        'a GTM tag without GTM',
        { type: 'gtmpixel', name: 'n', tag: 'ABC-12345' },
        'Google Tag Manager ID is not correct. Please double check.',
      ],
    ])('refuses %s and stores nothing', async (_case, body, message) => {
      const before = ctx.backend.store.snapshot();
      const res = await ctx.api('POST', '/api/pixel/add', { body });
      expect(res.json).toMatchObject({ error: 1, message });
      expect(ctx.backend.store.snapshot()).toEqual(before);
    });

    it('refuses a second pixel with the same provider and tag', async () => {
      ctx.backend.store.addPixel(1, { type: 'gapixel', name: 'a', tag: 'G-123' });
      const res = await ctx.api('POST', '/api/pixel/add', { body: { type: 'gapixel', name: 'b', tag: 'G-123' } });
      expect(res.json).toEqual({ error: 1, message: 'A pixel with this provider and tag already exists.' });
    });

    it('names the field when the name is not a string', async () => {
      const res = await ctx.api('POST', '/api/pixel/add', { body: { type: 'gapixel', name: 7, tag: 'G-123' } });
      expect(res.json.message).toBe('Invalid request: "name" must be a string.');
    });

    it('updates the tag and name', async () => {
      const row = ctx.backend.store.addPixel(1, { type: 'gapixel', name: 'a', tag: 'G-123' });
      const res = await ctx.api('PUT', `/api/pixel/${row.id}/update`, { body: { name: 'b', tag: 'G-456' } });
      expect(res.json).toEqual({ error: 0, message: 'Pixel has been updated successfully.' });
      expect(ctx.backend.store.pixels.get(row.id)).toMatchObject({ name: 'b', tag: 'G-456' });
    });

    it('requires the tag on update', async () => {
      const row = ctx.backend.store.addPixel(1, { type: 'gapixel', name: 'a', tag: 'G-123' });
      const res = await ctx.api('PUT', `/api/pixel/${row.id}/update`, { body: { name: 'b' } });
      expect(res.json).toEqual({ error: 1, message: 'Missing tag parameter. Pixel tag is required.' });
      expect(ctx.backend.store.pixels.get(row.id)?.name).toBe('a');
    });

    it('checks the provider rule on update', async () => {
      const row = ctx.backend.store.addPixel(1, { type: 'fbpixel', name: 'a', tag: '123' });
      const res = await ctx.api('PUT', `/api/pixel/${row.id}/update`, { body: { tag: 'abc' } });
      expect(res.json).toEqual({ error: 1, message: 'Facebook ID is not correct. Please double check.' });
    });

    it.each([
      ['PUT', '/api/pixel/42/update'],
      ['DELETE', '/api/pixel/42/delete'],
    ])('answers "Pixel not found" to %s on an unknown id', async (method, path) => {
      const res = await ctx.api(method, path, method === 'PUT' ? { body: { tag: 'abcd' } } : {});
      expect(res.json).toEqual({ error: 1, message: 'Pixel not found. Please try again.' });
    });

    it('deletes a pixel', async () => {
      const row = ctx.backend.store.addPixel(1, { type: 'gapixel', name: 'a', tag: 'G-123' });
      const res = await ctx.api('DELETE', `/api/pixel/${row.id}/delete`);
      expect(res.json).toEqual({ error: 0, message: 'Pixel has been deleted successfully.' });
      expect(ctx.backend.store.pixels.size).toBe(0);
    });
  },
  manualClock({ rateLimit: false }),
);
