import { APIConnectionError, APIUserAbortError, type Domain, type Page } from 'linkgate';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE_URL, rejectionOf, useMockApi } from './support/harness.js';

describe('pagination', () => {
  // Paging is not about the rate limit: both sides switch it off so 67 pages need no clock.
  const ctx = useMockApi(() => ({ rateLimit: false }));
  const client = () => ctx.client({ rateLimit: false });
  const adminId = () => [...ctx.backend.store.users.values()].find((u) => u.admin)!.id;
  const addDomains = (n: number) => {
    for (let i = 1; i <= n; i++) ctx.backend.store.addDomain(adminId(), { domain: `https://d${i}.example.com` });
  };
  const expected = (n: number) => new Set(Array.from({ length: n }, (_, i) => `https://d${i + 1}.example.com`));
  const countRequests = () => {
    const pages: (string | null)[] = [];
    ctx.server.events.on('request:start', ({ request }) => {
      pages.push(new URL(request.url).searchParams.get('page'));
    });
    return pages;
  };

  it.each([
    { records: 0, pages: 1 },
    { records: 1, pages: 1 },
    { records: 15, pages: 1 },
    { records: 16, pages: 2 },
    { records: 1000, pages: 67 },
  ])('iterates each of $records records exactly once, fetching $pages page(s) of 15', async ({ records, pages }) => {
    addDomains(records);
    const requests = countRequests();
    const seen: Domain[] = [];
    for await (const domain of client().domains.list()) seen.push(domain);
    expect(seen).toHaveLength(records);
    expect(new Set(seen.map((d) => d.domain))).toEqual(expected(records));
    expect(requests).toHaveLength(pages);
  });

  it('reads the paging numbers of the first page when awaited', async () => {
    addDomains(16);
    const page = await client().domains.list();
    expect(page).toMatchObject({ page: 1, perPage: 15, total: 16, maxPage: 2, nextPage: 2 });
    expect(page.items).toHaveLength(15);
    expect(page.hasNextPage()).toBe(true);
    const second = await page.getNextPage();
    expect(second).toMatchObject({ page: 2, nextPage: null });
    expect(second.items).toHaveLength(1);
    expect(second.hasNextPage()).toBe(false);
    expect(() => second.getNextPage()).toThrow(/last page/);
  });

  it('reports an empty list as page 1 of 0 with no next page', async () => {
    const page = await client().domains.list();
    expect(page).toMatchObject({ items: [], total: 0, maxPage: 0, nextPage: null });
    expect(page.hasNextPage()).toBe(false);
  });

  it('walks page by page with .pages()', async () => {
    addDomains(1000);
    const sizes: number[] = [];
    for await (const page of client().domains.list({ limit: 100 }).pages()) sizes.push(page.items.length);
    expect(sizes).toEqual(Array(10).fill(100));
  });

  it('collects at most max items with toArray, fetching only the pages it needs', async () => {
    addDomains(1000);
    const requests = countRequests();
    const items = await client().domains.list({ limit: 100 }).toArray({ max: 500 });
    expect(items).toHaveLength(500);
    expect(new Set(items.map((d) => d.id)).size).toBe(500);
    expect(requests).toHaveLength(5);
  });

  it('starts at the requested page', async () => {
    addDomains(40);
    const all = await client().domains.list({ limit: 15 }).toArray();
    const fromTwo = await client().domains.list({ limit: 15, page: 2 }).toArray();
    expect(fromTwo).toEqual(all.slice(15));
    expect(fromTwo).toHaveLength(25);
  });

  it('resumes after a failed page from the page number the error carries', async () => {
    addDomains(50);
    // One request fails at the network level: the first ask for page 3 (production can drop connections).
    // Not `once`: a once handler would be spent on page 1 (msw marks it used on any match); this one drops page 3 only.
    let failed = false;
    ctx.server.use(
      http.get(`${BASE_URL}/api/domains`, ({ request }) => {
        if (failed || new URL(request.url).searchParams.get('page') !== '3') return undefined;
        failed = true;
        return HttpResponse.error();
      }),
    );
    const seen: string[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const d of client().domains.list({ limit: 10 }, { maxRetries: 0 })) seen.push(d.domain);
      })(),
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).page).toBe(3);
    expect(seen).toHaveLength(20);
    for await (const d of client().domains.list({ limit: 10, page: (error as APIConnectionError).page }))
      seen.push(d.domain);
    expect(seen).toHaveLength(50);
    expect(new Set(seen)).toEqual(expected(50));
  });

  it('stops with APIUserAbortError carrying the next page when aborted mid-iteration', async () => {
    addDomains(40);
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const d of client().domains.list({ limit: 10 }, { signal: controller.signal })) {
          seen.push(d.domain);
          if (seen.length === 10) controller.abort();
        }
      })(),
    );
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).page).toBe(2);
    expect(seen).toHaveLength(10);
  });

  it('ends iteration even when a misbehaving server keeps announcing a next page', async () => {
    addDomains(3);
    const requests = countRequests();
    // A broken server that ignores `page` and always claims there is more; the mock's paging is always consistent.
    // Not `once`: the point is page 1 answered again when page 2 is asked.
    ctx.server.use(
      http.get(`${BASE_URL}/api/domains`, () =>
        HttpResponse.json({
          error: '0',
          data: {
            result: 3,
            perpage: 15,
            currentpage: 1,
            nextpage: 2,
            maxpage: 99,
            domains: [{ id: 1, domain: 'https://a.example' }],
          },
        }),
      ),
    );
    const pages: Page<Domain>[] = [];
    for await (const page of client().domains.list().pages()) pages.push(page);
    expect(pages).toHaveLength(1);
    // Page 2 was asked once, came back as page 1 again, and the client stopped there.
    expect(requests).toEqual([null, '2']);
  });

  it('ends iteration at an empty page even when nextpage is set', async () => {
    const requests = countRequests();
    // Inconsistent paging numbers (an empty page that announces more) are a server bug the mock does not copy.
    ctx.server.use(
      http.get(
        `${BASE_URL}/api/domains`,
        () =>
          HttpResponse.json({
            error: '0',
            data: { result: 0, perpage: 15, currentpage: 1, nextpage: 2, maxpage: 5, domains: [] },
          }),
        { once: true },
      ),
    );
    expect(await client().domains.list().toArray()).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('stops at currentpage >= maxpage even when nextpage is set', async () => {
    addDomains(15);
    // Past the end the mock answers an empty collection with nextpage = page + 1 (observed production behaviour).
    const page = await client().domains.list({ page: 5 });
    expect(page).toMatchObject({ page: 5, nextPage: 6, maxPage: 1, items: [] });
    expect(page.hasNextPage()).toBe(false);
  });
});
