import {
  APIError,
  AuthenticationError,
  BadRequestError,
  LinkgateError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
} from 'linkgate';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE_URL, rejectionOf, useMockApi } from './support/harness.js';

describe('API failures become typed errors', () => {
  const ctx = useMockApi();
  const adminId = () => [...ctx.backend.store.users.values()].find((u) => u.admin)!.id;

  it('a wrong API key (HTTP 403 "A valid API key is required") is an AuthenticationError', async () => {
    const error = await rejectionOf(ctx.client({ apiKey: 'not-a-real-key-0000' }).account.get());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(LinkgateError);
    expect(error).toMatchObject({ status: 403, body: { error: 1 } });
    expect((error as Error).message).toMatch(/valid API key.*LINKGATE_API_KEY/);
  });

  it('a normal user on an admin endpoint (HTTP 403 permission) is a PermissionDeniedError', async () => {
    const user = ctx.backend.store.addUser({ username: 'carol', email: 'carol@example.com' });
    const error = await rejectionOf(ctx.client({ apiKey: user.apikey }).users.list());
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as Error).message).toMatch(/permission/);
  });

  it('"... not found" in an HTTP 200 `error: 1` answer is a NotFoundError', async () => {
    const error = await rejectionOf(ctx.client().domains.delete(12345));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 200, message: expect.stringContaining('Domain not found') });
  });

  it('"... does not exist" in an HTTP 200 `error: 1` answer is a NotFoundError', async () => {
    expect(await rejectionOf(ctx.client().users.get(12345))).toBeInstanceOf(NotFoundError);
  });

  it('any other `error: 1` answer is a BadRequestError with the service’s message', async () => {
    ctx.backend.store.addDomain(adminId(), { domain: 'https://go.example.com' });
    const error = await rejectionOf(ctx.client().domains.create({ domain: 'https://go.example.com' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as Error).message).toMatch(/^The domain has been already used\./);
    expect((error as BadRequestError).body).toEqual({ error: 1, message: 'The domain has been already used.' });
  });

  it('an `error: 429` answer is a RateLimitError with retryAfter and resetAt when the client may not wait', async () => {
    const other = ctx.client();
    for (let i = 0; i < 30; i++) await other.account.get();
    const error = await rejectionOf(ctx.client({ maxRateLimitWait: 0 }).account.get());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 200, retryAfter: 60 });
    expect((error as RateLimitError).resetAt).toEqual(new Date(ctx.clock.now() + 60_000));
  });

  it('a success answer of the wrong shape is a ResponseValidationError with the raw body and the issues', async () => {
    // Simulates a changed service: one answer with `id` as a word.
    ctx.server.use(
      http.get(
        `${BASE_URL}/api/account`,
        () => HttpResponse.json({ error: 0, data: { id: 'seven', email: 'a@b.co' } }),
        {
          once: true,
        },
      ),
    );
    const error = await rejectionOf(ctx.client().account.get());
    expect(error).toBeInstanceOf(ResponseValidationError);
    const e = error as ResponseValidationError;
    expect(e.body).toEqual({ error: 0, data: { id: 'seven', email: 'a@b.co' } });
    expect(e.issues.map((i) => i.path.join('.'))).toEqual(expect.arrayContaining(['data.id', 'data.username']));
    expect(e.message).toMatch(/account\.get: .*does not match the documented shape: data\.id/);
  });
});
