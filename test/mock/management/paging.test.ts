import { ManualClock } from 'linkgate/mock';
import { expect, it } from 'vitest';
import { describeMock, type MockTestContext } from '../support/harness.js';

function addDomains(ctx: MockTestContext, count: number): void {
  for (let i = 1; i <= count; i++) ctx.backend.store.addDomain(1, { domain: `https://d${i}.example` });
}

async function page(ctx: MockTestContext, query: Record<string, string | number>) {
  const res = await ctx.api('GET', '/api/domains', { query });
  expect(res.json.error).toBe('0');
  const { domains, ...numbers } = res.json.data;
  return { numbers, ids: domains.map((d: { id: number }) => d.id) as number[] };
}

describeMock(
  'paging of lists',
  (ctx) => {
    it('answers an empty collection with maxpage 0 and nextpage null', async () => {
      expect(await page(ctx, {})).toEqual({
        numbers: { result: 0, perpage: 15, currentpage: 1, nextpage: null, maxpage: 0 },
        ids: [],
      });
    });

    it('defaults to 15 per page, newest first, with nextpage on the first page', async () => {
      addDomains(ctx, 20);
      const first = await page(ctx, {});
      expect(first.numbers).toEqual({ result: 20, perpage: 15, currentpage: 1, nextpage: 2, maxpage: 2 });
      expect(first.ids).toEqual([20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6]);
    });

    it('sets nextpage null on the last page of an exact multiple', async () => {
      addDomains(ctx, 30);
      const last = await page(ctx, { page: 2 });
      expect(last.numbers).toEqual({ result: 30, perpage: 15, currentpage: 2, nextpage: null, maxpage: 2 });
      expect(last.ids).toHaveLength(15);
    });

    it('answers a partial last page', async () => {
      addDomains(ctx, 7);
      const last = await page(ctx, { limit: 3, page: 3 });
      expect(last.numbers).toEqual({ result: 7, perpage: 3, currentpage: 3, nextpage: null, maxpage: 3 });
      expect(last.ids).toEqual([1]);
    });

    it('answers a page past the end with an empty collection and nextpage page + 1', async () => {
      addDomains(ctx, 4);
      expect(await page(ctx, { limit: 2, page: 5 })).toEqual({
        numbers: { result: 4, perpage: 2, currentpage: 5, nextpage: 6, maxpage: 2 },
        ids: [],
      });
    });

    it.each(['0', 'abc', '-5', '2.5', ''])('falls back to 15 per page for limit=%j', async (limit) => {
      addDomains(ctx, 16);
      const res = await page(ctx, { limit });
      expect(res.numbers.perpage).toBe(15);
      expect(res.ids).toHaveLength(15);
    });

    it.each(['0', 'abc', '-1'])('falls back to page 1 for page=%j', async (p) => {
      addDomains(ctx, 3);
      expect((await page(ctx, { page: p })).numbers.currentpage).toBe(1);
    });

    it('has no maximum limit', async () => {
      addDomains(ctx, 120);
      const res = await page(ctx, { limit: 1000 });
      expect(res.numbers).toMatchObject({ perpage: 1000, maxpage: 1, nextpage: null });
      expect(res.ids).toHaveLength(120);
    });
  },
  () => ({ clock: new ManualClock(), rateLimit: false }),
);
