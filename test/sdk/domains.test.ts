import { NotFoundError, ValidationError } from 'linkgate';
import { describe, expect, it } from 'vitest';
import { rejectionOf, useMockApi } from './support/harness.js';

describe('client.domains', () => {
  const ctx = useMockApi();
  const adminId = () => [...ctx.backend.store.users.values()].find((u) => u.admin)!.id;

  it('list() returns the caller’s domains as a page', async () => {
    ctx.backend.store.addDomain(adminId(), { domain: 'https://go.example.com', redirectroot: 'https://example.com' });
    const page = await ctx.client().domains.list({ limit: 10, page: 1 });
    expect(page.items).toEqual([
      expect.objectContaining({ domain: 'https://go.example.com', redirectroot: 'https://example.com' }),
    ]);
    expect(page).toMatchObject({ total: 1, perPage: 10, page: 1, maxPage: 1, nextPage: null });
  });

  it('create() adds a domain and returns its id', async () => {
    const { id } = await ctx.client().domains.create({
      domain: 'https://go.example.com',
      redirectroot: 'https://example.com',
      redirect404: 'https://example.com/404',
    });
    expect(ctx.backend.store.domains.get(id)).toMatchObject({ domain: 'https://go.example.com' });
  });

  it('update() changes the redirects', async () => {
    const row = ctx.backend.store.addDomain(adminId(), { domain: 'https://go.example.com' });
    const result = await ctx.client().domains.update(row.id, { redirectroot: 'https://new.example.com' });
    expect(result.message).toBe('Domain has been updated successfully.');
    expect(ctx.backend.store.domains.get(row.id)?.redirectroot).toBe('https://new.example.com');
  });

  it('delete() removes the domain', async () => {
    const row = ctx.backend.store.addDomain(adminId(), { domain: 'https://go.example.com' });
    expect(await ctx.client().domains.delete(row.id)).toEqual({ message: 'Domain has been deleted successfully.' });
    expect(ctx.backend.store.domains.has(row.id)).toBe(false);
  });

  it('update() of an unknown id is a NotFoundError', async () => {
    const error = await rejectionOf(ctx.client().domains.update(999, { redirectroot: 'https://x.example.com' }));
    expect(error).toBeInstanceOf(NotFoundError);
  });

  it('create() rejects a domain without http(s) before sending', async () => {
    const error = await rejectionOf(ctx.client().domains.create({ domain: 'go.example.com' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('body.domain');
    expect(ctx.backend.store.domains.size).toBe(0);
  });
});
