/**
 * Testing your own code with the reference mock: msw intercepts the SDK's requests in-process, the mock keeps state
 * like the real service, and a ManualClock drives time (rate-limit windows) without sleeping.
 *
 *   npx vitest run examples/vitest-with-mock.test.ts
 */
import { Linkgate, NotFoundError } from 'linkgate';
import { createMockBackend, ManualClock } from 'linkgate/mock';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// The code under test: makes sure a branded domain exists and points its root where we want.
async function ensureDomain(client: Linkgate, domain: string, redirectroot: string): Promise<number> {
  for await (const existing of client.domains.list()) {
    if (existing.domain !== domain) continue;
    if (existing.redirectroot !== redirectroot) await client.domains.update(existing.id, { redirectroot });
    return existing.id;
  }
  const { id } = await client.domains.create({ domain, redirectroot });
  return id;
}

const BASE_URL = 'https://links.example.test';
const clock = new ManualClock();
const backend = createMockBackend({ baseUrl: BASE_URL, clock });
const server = setupServer(...backend.handlers);

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => backend.reset());
afterAll(() => server.close());

// A user of the mock to act as; the store helpers arrange state without going through the API.
function newClient() {
  const user = backend.store.addUser({ username: 'tester', email: 'tester@example.com' });
  return { user, client: new Linkgate({ apiKey: user.apikey, baseUrl: BASE_URL, clock }) };
}

describe('ensureDomain', () => {
  it('creates the domain when the account does not have it', async () => {
    const { client } = newClient();
    const id = await ensureDomain(client, 'https://go.example.com', 'https://example.com');
    const [domain] = await client.domains.list().toArray();
    expect(domain).toMatchObject({ id, domain: 'https://go.example.com', redirectroot: 'https://example.com' });
  });

  it('updates the redirect of a domain that already exists instead of adding another', async () => {
    const { user, client } = newClient();
    const row = backend.store.addDomain(user.id, {
      domain: 'https://go.example.com',
      redirectroot: 'https://old.example',
    });
    expect(await ensureDomain(client, 'https://go.example.com', 'https://example.com')).toBe(row.id);
    expect(backend.store.domains.size).toBe(1);
    expect(backend.store.domains.get(row.id)?.redirectroot).toBe('https://example.com');
  });

  it('finds the domain on a later page', async () => {
    const { user, client } = newClient();
    for (let i = 0; i < 40; i++) backend.store.addDomain(user.id, { domain: `https://d${i}.example.com` });
    expect(await ensureDomain(client, 'https://d0.example.com', 'https://example.com')).toBeGreaterThan(0);
    expect(backend.store.domains.size).toBe(40);
  });
});

describe('errors from the mock are typed like the real service’s', () => {
  it('turns "Domain not found" into NotFoundError', async () => {
    const { client } = newClient();
    await expect(client.domains.delete(12345)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('the rate limit, with a manual clock', () => {
  it('holds the 31st request of a minute until the window resets', async () => {
    const { client } = newClient();
    for (let i = 0; i < 30; i++) await client.account.get();
    let done = false;
    const held = client.account.get().then(() => {
      done = true;
    });
    await clock.advance(59_000);
    expect(done).toBe(false);
    await clock.advance(2_000);
    await held;
    expect(done).toBe(true);
  });
});
