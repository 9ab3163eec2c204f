import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE_URL, useMockApi } from './harness.js';

describe('client.overlays', () => {
  const ctx = useMockApi();

  it('list() returns the caller’s overlays (collection `cta`)', async () => {
    const adminId = [...ctx.backend.store.users.values()].find((u) => u.admin)!.id;
    ctx.backend.store.addOverlay(adminId, { type: 'message', name: 'Say hi' });
    const page = await ctx.client().overlays.list();
    expect(page.items).toEqual([expect.objectContaining({ type: 'message', name: 'Say hi' })]);
  });

  it('list() also reads the collection named `overlay` (one production version)', async () => {
    ctx.server.use(
      http.get(`${BASE_URL}/api/overlay`, () =>
        HttpResponse.json({
          error: '0',
          data: {
            result: 1,
            perpage: 15,
            currentpage: 1,
            nextpage: null,
            maxpage: 1,
            overlay: [{ id: 4, type: 'contact', name: 'Reach us', date: '2026-01-01 00:00:00' }],
          },
        }),
      ),
    );
    const page = await ctx.client().overlays.list();
    expect(page.items).toEqual([expect.objectContaining({ id: 4, name: 'Reach us' })]);
  });
});
