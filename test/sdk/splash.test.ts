import { describe, expect, it } from 'vitest';
import { useMockApi } from './support/harness.js';

describe('client.splash', () => {
  const ctx = useMockApi();

  it('list() returns the caller’s splash pages', async () => {
    const adminId = [...ctx.backend.store.users.values()].find((u) => u.admin)!.id;
    ctx.backend.store.addSplash(adminId, { name: 'Launch' });
    const page = await ctx.client().splash.list();
    expect(page.items).toEqual([expect.objectContaining({ name: 'Launch', id: expect.any(Number) })]);
    expect(page.total).toBe(1);
  });
});
