import { APIError } from 'linkgate';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { BASE_URL, rejectionOf, useMockApi } from './support/harness.js';

// Production bugs the mock does not copy (observed-behaviour.md): one request of each is overridden.
describe('empty and non-JSON answers', () => {
  const ctx = useMockApi();

  it('an HTTP 200 with an empty body is an APIError, not a crash', async () => {
    ctx.server.use(
      http.put(`${BASE_URL}/api/account/update`, () => new HttpResponse(null, { status: 200 }), { once: true }),
    );
    const error = await rejectionOf(ctx.client().account.update({ email: 'new@example.com' }));
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 200, body: '' });
    expect((error as Error).message).toMatch(/empty body; expected JSON/);
  });

  it('an HTML 500 page is an APIError carrying the page as its body', async () => {
    const page = '<html><body><h1>Whoops, looks like something went wrong.</h1></body></html>';
    ctx.server.use(http.post(`${BASE_URL}/api/qr/add`, () => HttpResponse.html(page, { status: 500 }), { once: true }));
    const error = await rejectionOf(ctx.client().qr.create({ type: 'text', data: 'hi' }));
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 500, body: page });
    expect((error as Error).message).toMatch(/HTTP 500 with a non-JSON body/);
  });

  it('an HTTP 200 with a non-JSON body is an APIError', async () => {
    ctx.server.use(http.get(`${BASE_URL}/api/account`, () => HttpResponse.text('OK'), { once: true }));
    const error = await rejectionOf(ctx.client().account.get());
    expect(error).toBeInstanceOf(APIError);
    expect((error as Error).message).toMatch(/not JSON/);
  });
});
