// An app route on another origin, registered after the mock's msw handlers created without baseUrl, is answered by
// the mock (its paths on every origin): the answer says so, and how to scope the mock; with baseUrl it passes by.
import { createMockBackend } from 'linkgate/mock';
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVALID_KEY_MESSAGE } from '../../mock/management/auth.js';

const APP_ROUTE = 'https://myapp.test/api/account';
const appHandler = http.get(APP_ROUTE, () => HttpResponse.json({ from: 'app' }));

const unscoped = createMockBackend({ seed: 'demo' });
const scoped = createMockBackend({ seed: 'demo', baseUrl: 'https://api.linkgate.test' });
const server = setupServer(...scoped.handlers, ...unscoped.handlers, appHandler);
beforeAll(() => server.listen());
afterAll(() => server.close());

describe('msw handlers without baseUrl beside an app route on another origin', () => {
  it('answer the app route themselves, saying in a header and in the message who answered and how to scope it', async () => {
    const res = await fetch(APP_ROUTE);
    expect(res.status).toBe(403);
    expect(res.headers.get('x-linkgate-mock')).toMatch(/linkgate mock.*baseUrl/);
    const { message } = (await res.json()) as { message: string };
    expect(message.startsWith(INVALID_KEY_MESSAGE)).toBe(true);
    expect(message).toContain('linkgate mock');
    expect(message).toContain('/api/account on every origin, https://myapp.test included');
    expect(message).toContain('baseUrl');
  });

  it('keep answering the mock’s own calls with a valid key as before, marked by the header', async () => {
    const res = await fetch(APP_ROUTE, { headers: { authorization: `Bearer ${unscoped.adminKey}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { error: number }).error).toBe(0);
    expect(res.headers.get('x-linkgate-mock')).not.toBeNull();
  });
});

describe('msw handlers with baseUrl', () => {
  it('refuse a missing key on their own base URL with the exact message and no header', async () => {
    const res = await fetch('https://api.linkgate.test/api/account');
    expect(res.status).toBe(403);
    expect(res.headers.get('x-linkgate-mock')).toBeNull();
    expect(await res.json()).toEqual({ error: 1, message: INVALID_KEY_MESSAGE });
  });
});
