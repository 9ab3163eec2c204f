import { APIPromise, PagePromise } from 'linkgate';
import { describe, expect, it } from 'vitest';
import { useMockApi } from './support/harness.js';

describe('.withResponse()', () => {
  const ctx = useMockApi();

  it('returns the data together with the raw response of any call', async () => {
    const call = ctx.client().account.get();
    expect(call).toBeInstanceOf(APIPromise);
    const { data, response } = await call.withResponse();
    expect(data.username).toBe('admin');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('29');
  });

  it('works on list calls, returning the first page', async () => {
    const call = ctx.client().domains.list();
    expect(call).toBeInstanceOf(PagePromise);
    const { data, response } = await call.withResponse();
    expect(data.items).toEqual([]);
    expect(response.ok).toBe(true);
  });

  it('the same call can be awaited and asked for its response; one request is sent', async () => {
    let sent = 0;
    ctx.server.events.on('request:start', () => {
      sent++;
    });
    const call = ctx.client().account.get();
    const [account, { data }] = await Promise.all([call, call.withResponse()]);
    expect(account).toBe(data);
    expect(sent).toBe(1);
  });
});
