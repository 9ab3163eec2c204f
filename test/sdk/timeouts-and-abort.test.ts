import { APIConnectionTimeoutError, APIUserAbortError } from 'linkgate';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE_URL, rejectionOf, settle, useMockApi } from './support/harness.js';

describe('timeouts and abort', () => {
  const ctx = useMockApi();
  /** One request that never gets an answer (a hung upstream). */
  const hang = (method: 'get' | 'post', path: string) =>
    ctx.server.use(http[method](`${BASE_URL}${path}`, () => new Promise<never>(() => {}), { once: true }));

  it('a request with no answer within `timeout` ms is an APIConnectionTimeoutError', async () => {
    hang('post', '/api/domain/add');
    const started = ctx.clock.now();
    const outcome = await settle(
      ctx.clock,
      ctx
        .client({ timeout: 5_000 })
        .domains.create({ domain: 'https://go.example.com' })
        .then(() => 'answered'),
    );
    expect(outcome.ok).toBe(false);
    const error = (outcome as { error: unknown }).error;
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect((error as Error).message).toMatch(/no answer within 5000 ms/);
    expect(ctx.clock.now() - started).toBe(5_000);
  });

  it('the per-call timeout option overrides the client’s', async () => {
    hang('post', '/api/domain/add');
    const started = ctx.clock.now();
    const call = ctx.client().domains.create({ domain: 'https://go.example.com' }, { timeout: 250 });
    const outcome = await settle(ctx.clock, Promise.resolve(call));
    expect((outcome as { error: unknown }).error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(ctx.clock.now() - started).toBe(250);
  });

  it('aborting the signal mid-request is an APIUserAbortError', async () => {
    hang('get', '/api/account');
    const controller = new AbortController();
    const call = ctx.client().account.get({ signal: controller.signal });
    await new Promise((r) => setTimeout(r, 0));
    controller.abort();
    const error = await rejectionOf(call);
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).message).toMatch(/account\.get .* aborted/);
  });

  it('an already-aborted signal sends nothing', async () => {
    let sent = 0;
    ctx.server.events.on('request:start', () => {
      sent++;
    });
    const error = await rejectionOf(ctx.client().account.get({ signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(sent).toBe(0);
  });
});
