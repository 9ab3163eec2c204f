import { NotFoundError, ValidationError } from 'linkgate';
import type { QrCreate } from 'linkgate/schemas';
import { describe, expect, it } from 'vitest';
import { rejectionOf, useMockApi } from './support/harness.js';

describe('client.qr', () => {
  const ctx = useMockApi();
  const adminId = () => [...ctx.backend.store.users.values()].find((u) => u.admin)!.id;

  it('list() returns the caller’s QR codes', async () => {
    ctx.backend.store.addQr(adminId(), { type: 'text', data: 'hello', name: 'Greeting' });
    const page = await ctx.client().qr.list();
    expect(page.items).toEqual([expect.objectContaining({ name: 'Greeting', scans: 0, link: expect.any(String) })]);
  });

  it('get() returns the details and the statistics', async () => {
    const row = ctx.backend.store.addQr(adminId(), { type: 'link', data: 'https://example.com', name: 'Site' });
    const { details, stats } = await ctx.client().qr.get(row.id);
    expect(details).toMatchObject({ id: row.id, name: 'Site' });
    expect(stats).toMatchObject({ clicks: 0, uniqueClicks: 0 });
  });

  it('create() makes a code and returns its id and link', async () => {
    const { id, link } = await ctx.client().qr.create({
      type: 'wifi',
      data: { ssid: 'Office', pass: 'hunter22', encryption: 'WPA' },
      background: 'rgb(255,255,255)',
    });
    expect(ctx.backend.store.qrs.get(id)).toMatchObject({ type: 'wifi' });
    expect(link).toMatch(/^http/);
  });

  it('create() rejects data of the wrong shape for its type before sending', async () => {
    const error = await rejectionOf(ctx.client().qr.create({ type: 'wifi', data: 'Office' } as unknown as QrCreate));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('body.data');
    expect(ctx.backend.store.qrs.size).toBe(0);
  });

  it('update() changes the content', async () => {
    const row = ctx.backend.store.addQr(adminId(), { type: 'text', data: 'old' });
    const result = await ctx.client().qr.update(row.id, { data: 'new' });
    expect(result.message).toBe('QR has been updated successfully.');
    expect(ctx.backend.store.qrs.get(row.id)?.data).toBe('new');
  });

  it('delete() removes the code; get() afterwards is a NotFoundError', async () => {
    const row = ctx.backend.store.addQr(adminId(), { type: 'text', data: 'bye' });
    const client = ctx.client();
    expect((await client.qr.delete(row.id)).message).toBe('QR Code has been deleted successfully.');
    const error = await rejectionOf(client.qr.get(row.id));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toMatch(/QR does not exist/);
  });
});
