// The compile-time contract (closed records, argument types, inferred results) is in types.test-d.ts.
import { Account, Domain, Overlay, Pixel, Qr, QrStats, Splash, User } from 'linkgate/schemas';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE_URL, useMockApi } from './support/harness.js';

describe('records the server extends', () => {
  const ctx = useMockApi();

  it.each([
    [
      'Account',
      Account,
      { id: 1, email: 'a@b.co', username: 'abcd', avatar: '', status: 'free', expires: null, registered: 'x' },
    ],
    ['Domain', Domain, { id: 1, domain: 'https://go.example.com' }],
    ['Pixel', Pixel, { id: 1, type: 'gapixel', name: 'n', tag: 't', date: 'x' }],
    ['Qr', Qr, { id: 1, link: 'l', scans: 0, name: 'n', date: 'x' }],
    ['QrStats', QrStats, { clicks: 0, uniqueClicks: 0 }],
    ['Overlay', Overlay, { id: 1, type: 'message', name: 'n', date: 'x' }],
    ['Splash', Splash, { id: 1, name: 'n', date: 'x' }],
    [
      'User',
      User,
      { id: 1, email: 'a@b.co', username: 'abcd', avatar: '', status: 'free', expires: null, registered: 'x' },
    ],
  ] as const)('keeps a field %s does not know at run time', (_name, schema, record) => {
    const parsed = schema.parse({ ...record, added_later: { nested: true } }) as Record<string, unknown>;
    expect(parsed.added_later).toEqual({ nested: true });
  });

  it('hands the caller a field a newer server adds to a listed record', async () => {
    // A newer server: the reference mock's own answer, with one field more on each domain.
    ctx.server.use(
      http.get(`${BASE_URL}/api/domains`, async ({ request }) => {
        const answer = (await (await ctx.backend.fetch(request)).json()) as { data: { domains: object[] } };
        answer.data.domains = answer.data.domains.map((d) => ({ ...d, verified: true }));
        return Response.json(answer);
      }),
    );
    const admin = [...ctx.backend.store.users.values()].find((u) => u.apikey === ctx.backend.adminKey);
    ctx.backend.store.addDomain(admin?.id ?? 1, { domain: 'https://go.added.example' });
    const page = await ctx.client().domains.list();
    expect(page.items.length).toBeGreaterThan(0);
    for (const domain of page.items) expect((domain as Record<string, unknown>).verified).toBe(true);
  });
});
