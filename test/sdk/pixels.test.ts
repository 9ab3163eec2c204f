import { BadRequestError, NotFoundError, ValidationError } from 'linkgate';
import type { PixelCreate } from 'linkgate/schemas';
import { describe, expect, it } from 'vitest';
import { rejectionOf, useMockApi } from './support/harness.js';

describe('client.pixels', () => {
  const ctx = useMockApi();
  const adminId = () => [...ctx.backend.store.users.values()].find((u) => u.admin)!.id;

  it('list() returns the caller’s pixels', async () => {
    ctx.backend.store.addPixel(adminId(), { type: 'gtmpixel', name: 'GTM', tag: 'GTM-ABC123' });
    const page = await ctx.client().pixels.list();
    expect(page.items).toEqual([expect.objectContaining({ type: 'gtmpixel', name: 'GTM', tag: 'GTM-ABC123' })]);
  });

  it('create() adds a pixel and returns its id', async () => {
    const { id } = await ctx.client().pixels.create({ type: 'fbpixel', name: 'Facebook', tag: '1234567890' });
    expect(ctx.backend.store.pixels.get(id)).toMatchObject({ type: 'fbpixel', tag: '1234567890' });
  });

  it('create() of a duplicate provider + tag is a BadRequestError from the service', async () => {
    ctx.backend.store.addPixel(adminId(), { type: 'fbpixel', name: 'FB', tag: '1234567890' });
    const error = await rejectionOf(ctx.client().pixels.create({ type: 'fbpixel', name: 'Again', tag: '1234567890' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toMatch(/already exists/);
  });

  it('create() rejects an unknown provider before sending', async () => {
    const error = await rejectionOf(
      ctx.client().pixels.create({ type: 'myspace', name: 'x', tag: 'abc' } as unknown as PixelCreate),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: 'body.type', rule: expect.stringContaining('must be one of "gtmpixel"') });
  });

  it('update() changes the tag and name', async () => {
    const row = ctx.backend.store.addPixel(adminId(), { type: 'gapixel', name: 'GA', tag: 'UA-1-1' });
    const result = await ctx.client().pixels.update(row.id, { name: 'Analytics', tag: 'G-12345' });
    expect(result.message).toBe('Pixel has been updated successfully.');
    expect(ctx.backend.store.pixels.get(row.id)).toMatchObject({ name: 'Analytics', tag: 'G-12345' });
  });

  it('delete() removes the pixel; a second delete is a NotFoundError', async () => {
    const row = ctx.backend.store.addPixel(adminId(), { type: 'gapixel', name: 'GA', tag: 'UA-1-1' });
    const client = ctx.client();
    expect((await client.pixels.delete(row.id)).message).toBe('Pixel has been deleted successfully.');
    expect(await rejectionOf(client.pixels.delete(row.id))).toBeInstanceOf(NotFoundError);
  });
});
