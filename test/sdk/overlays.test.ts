import { describe, expect, it } from 'vitest';
import { type SdkTestContext, useMockApi } from './support/harness.js';

const adminId = (ctx: SdkTestContext) => [...ctx.backend.store.users.values()].find((u) => u.admin)!.id;

/** The raw JSON bodies the mock sent, so a test can show which collection name the client actually read. */
function recordBodies(ctx: SdkTestContext): Promise<unknown>[] {
  const bodies: Promise<unknown>[] = [];
  ctx.server.events.on('response:mocked', ({ response }) => {
    bodies.push(response.clone().json());
  });
  return bodies;
}

describe('client.overlays', () => {
  const ctx = useMockApi();

  it('list() returns the caller’s overlays (collection `cta`)', async () => {
    ctx.backend.store.addOverlay(adminId(ctx), { type: 'message', name: 'Say hi' });
    const page = await ctx.client().overlays.list();
    expect(page.items).toEqual([expect.objectContaining({ type: 'message', name: 'Say hi' })]);
  });
});

describe('client.overlays against the overlayCollection production variant', () => {
  const ctx = useMockApi(() => ({ variants: ['overlayCollection'] }));

  it('list() also reads the collection named `overlay` (one production version)', async () => {
    const row = ctx.backend.store.addOverlay(adminId(ctx), { type: 'contact', name: 'Reach us' });
    const bodies = recordBodies(ctx);
    const page = await ctx.client().overlays.list();
    expect(page.items).toEqual([expect.objectContaining({ id: row.id, name: 'Reach us' })]);
    // The answer really used `overlay`: the client was not handed the spec's `cta`.
    expect(await Promise.all(bodies)).toEqual([
      { error: '0', data: expect.objectContaining({ overlay: [expect.anything()] }) },
    ]);
  });
});
