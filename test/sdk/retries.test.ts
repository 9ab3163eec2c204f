import { APIError, NotFoundError } from 'linkgate';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE_URL, settle, useMockApi } from './support/harness.js';

describe('retries with back-off', () => {
  const ctx = useMockApi();

  /** Makes the first `failures` requests to `path` fail with `answer`; later ones reach the mock. Returns attempt times. */
  function failFirst(method: 'get' | 'post' | 'put', path: string, failures: number, answer: () => Response) {
    const times: number[] = [];
    // Not `once`: the mock never answers 5xx/408 or drops connections, and several attempts in a row must fail
    // (and be timed) before later ones fall through to the mock.
    ctx.server.use(
      http[method](`${BASE_URL}${path}`, () => {
        times.push(ctx.clock.now());
        return times.length <= failures ? answer() : undefined;
      }),
    );
    return times;
  }
  const gaps = (times: number[]) => times.slice(1).map((t, i) => t - (times[i] ?? 0));

  it('retries a GET after 503 with 0.5 s then 1 s back-off and returns the eventual answer', async () => {
    const times = failFirst('get', '/api/account', 2, () => HttpResponse.json({}, { status: 503 }));
    const outcome = await settle(ctx.clock, Promise.resolve(ctx.client({ random: () => 0 }).account.get()));
    expect(outcome).toMatchObject({ ok: true, value: { username: 'admin' } });
    expect(gaps(times)).toEqual([500, 1000]);
  });

  it('gives up after maxRetries (default 2) with the last APIError', async () => {
    const times = failFirst('get', '/api/account', 99, () => HttpResponse.json({}, { status: 502 }));
    const outcome = await settle(ctx.clock, Promise.resolve(ctx.client({ random: () => 0 }).account.get()));
    expect(times).toHaveLength(3);
    expect((outcome as { error: unknown }).error).toBeInstanceOf(APIError);
    expect((outcome as { error: APIError }).error.status).toBe(502);
  });

  it('doubles the back-off up to 8 s', async () => {
    const times = failFirst('get', '/api/account', 99, () => HttpResponse.json({}, { status: 500 }));
    await settle(ctx.clock, Promise.resolve(ctx.client({ random: () => 0, maxRetries: 6 }).account.get()));
    expect(gaps(times)).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });

  it('takes up to a quarter off each back-off as jitter', async () => {
    const times = failFirst('get', '/api/account', 2, () => HttpResponse.json({}, { status: 500 }));
    await settle(ctx.clock, Promise.resolve(ctx.client({ random: () => 0.999_999 }).account.get()));
    expect(gaps(times)).toEqual([375, 750]);
  });

  it('retries a PUT after a dropped connection and after 408', async () => {
    const row = ctx.backend.store.addDomain(1, { domain: 'https://go.example.com' });
    let n = 0;
    const times = failFirst('put', `/api/domain/${row.id}/update`, 2, () =>
      ++n === 1 ? HttpResponse.error() : HttpResponse.json({}, { status: 408 }),
    );
    const outcome = await settle(
      ctx.clock,
      Promise.resolve(ctx.client().domains.update(row.id, { redirectroot: 'https://example.com' })),
    );
    expect(outcome.ok).toBe(true);
    expect(times).toHaveLength(3);
  });

  it('never retries a POST after a 5xx: it may have been applied', async () => {
    const times = failFirst('post', '/api/domain/add', 99, () => HttpResponse.json({}, { status: 503 }));
    const outcome = await settle(
      ctx.clock,
      Promise.resolve(ctx.client().domains.create({ domain: 'https://a.example' })),
    );
    expect((outcome as { error: APIError }).error.status).toBe(503);
    expect(times).toHaveLength(1);
  });

  it('does not retry answers that will not change (404, error: 1)', async () => {
    const times = failFirst('get', '/api/account', 99, () => HttpResponse.json({ message: 'gone' }, { status: 404 }));
    const outcome = await settle(ctx.clock, Promise.resolve(ctx.client().account.get()));
    expect((outcome as { error: unknown }).error).toBeInstanceOf(NotFoundError);
    expect(times).toHaveLength(1);

    // The mock's own `error: 1` answer (HTTP 200) to a PUT, a method that is retried after 5xx.
    let updates = 0;
    ctx.server.events.on('request:start', ({ request }) => {
      if (request.method === 'PUT') updates++;
    });
    const refused = await settle(
      ctx.clock,
      Promise.resolve(ctx.client().domains.update(999, { redirectroot: 'https://example.com' })),
    );
    expect((refused as { error: unknown }).error).toMatchObject({ status: 200, body: { error: 1 } });
    expect(updates).toBe(1);
  });

  it('honours maxRetries: 0 per call', async () => {
    const times = failFirst('get', '/api/account', 99, () => HttpResponse.json({}, { status: 500 }));
    await settle(ctx.clock, Promise.resolve(ctx.client().account.get({ maxRetries: 0 })));
    expect(times).toHaveLength(1);
  });

  it('stops backing off when the signal aborts', async () => {
    const times = failFirst('get', '/api/account', 99, () => HttpResponse.json({}, { status: 500 }));
    const controller = new AbortController();
    const call = ctx.client().account.get({ signal: controller.signal });
    while (times.length === 0 || ctx.clock.pending === 0) await new Promise((r) => setTimeout(r, 0));
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'APIUserAbortError' });
    expect(times).toHaveLength(1);
  });
});
