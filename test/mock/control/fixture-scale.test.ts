// A fixture's cost grows with its rows, not with their square: each row is checked against the store's indexes, so a
// large fixture (the 1 MiB body limit holds about 23,000 users) answers in a moment and does not hold up other clients.
import { createMockBackend } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';

const TOKEN = 'ctl-fixture-scale-token';

/** Users `user_<from>`… and, when asked, one domain per user, owned by that user. */
function rows(from: number, n: number, owned: boolean) {
  const names = Array.from({ length: n }, (_, i) => `user_${from + i}`);
  const users = names.map((username) => ({ username, email: `${username}@example.com` }));
  if (!owned) return { users };
  return {
    users,
    domains: names.map((owner) => ({ owner, domain: `https://${owner}.example.com` })),
  };
}

async function post(backend: ReturnType<typeof createMockBackend>, body: unknown) {
  const res = await backend.fetch('/__mock/fixture', {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** A backend that already holds `stored` users (each with a domain when `owned`), loaded in fixtures of 4,000. */
async function backendHolding(stored: number, owned: boolean) {
  const backend = createMockBackend({ seed: 'demo', rateLimit: false, gateway: { controlToken: TOKEN } });
  // Stored in fixtures of 4,000, each under the 1 MiB body limit.
  for (let from = 0; from < stored; from += 4_000) {
    expect((await post(backend, rows(from, Math.min(4_000, stored - from), owned))).status).toBe(201);
  }
  return backend;
}

/** Microseconds per row of one fixture of `n` users starting at user `from`, sent to `backend`. */
async function microsPerRow(
  backend: ReturnType<typeof createMockBackend>,
  from: number,
  n: number,
  owned: boolean,
): Promise<number> {
  const started = performance.now();
  const { status } = await post(backend, rows(from, n, owned));
  const ms = performance.now() - started;
  expect(status).toBe(201);
  return (ms * 1000) / n;
}

describe('POST /__mock/fixture at scale', () => {
  // Checks that scanned every stored user made a row 20 times dearer against 20 times the stored rows (23,000 users
  // in one fixture took 26 s); index lookups keep it flat. The same fixture size meets a store of 800 and one of
  // 16,000, in turns, best of seven each: a busy machine slows both alike, and the garbage collector's pauses (more
  // often with a larger heap) drop out. The bound is loose (4x) for a busy machine.
  it.each([
    ['users', false],
    ['users, each with a domain', true],
  ])(
    'costs about the same per row with 16,000 %s stored as with 800',
    async (_what, owned) => {
      const n = 500;
      const few = await backendHolding(800, owned as boolean);
      const many = await backendHolding(16_000, owned as boolean);
      await microsPerRow(await backendHolding(0, owned as boolean), 0, n, owned as boolean); // warm-up: compiled code
      let [bestFew, bestMany] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
      for (let k = 0; k < 7; k++) {
        bestFew = Math.min(bestFew, await microsPerRow(few, 20_000 + k * n, n, owned as boolean));
        bestMany = Math.min(bestMany, await microsPerRow(many, 20_000 + k * n, n, owned as boolean));
      }
      expect(
        bestMany / bestFew,
        `${bestFew.toFixed(1)} µs per row with 800 stored, ${bestMany.toFixed(1)} µs with 16,000`,
      ).toBeLessThan(4);
    },
    120_000,
  );

  // Finding a caller by comparing the key with every stored one cost 14 ms a request with 23,000 users stored.
  it('answers an authenticated request about as fast with 16,000 users stored as with 1,600', async () => {
    const microsPerRequest = async (stored: number) => {
      const backend = createMockBackend({ seed: 'demo', rateLimit: false, gateway: { controlToken: TOKEN } });
      for (let from = 0; from < stored; from += 4_000) {
        expect((await post(backend, rows(from, Math.min(4_000, stored - from), false))).status).toBe(201);
      }
      const headers = { authorization: `Bearer ${backend.adminKey}` };
      let best = Number.POSITIVE_INFINITY;
      for (let batch = 0; batch < 5; batch++) {
        const started = performance.now();
        for (let i = 0; i < 100; i++) expect((await backend.fetch('/api/account', { headers })).status).toBe(200);
        best = Math.min(best, ((performance.now() - started) * 1000) / 100);
      }
      return best;
    };
    await microsPerRequest(0); // warm-up
    const few = await microsPerRequest(1_600);
    const many = await microsPerRequest(16_000);
    expect(
      many / few,
      `${few.toFixed(1)} µs a request with 1,600 users, ${many.toFixed(1)} µs with 16,000`,
    ).toBeLessThan(3);
  }, 60_000);

  it('changes nothing when the last of 5,000 users is bad', async () => {
    const backend = createMockBackend({ seed: 'demo', rateLimit: false, gateway: { controlToken: TOKEN } });
    const before = backend.store.snapshot();
    const { users } = rows(0, 5_000, false);
    users.push({ username: 'user_17', email: 'other@example.com' });
    const res = await post(backend, { users });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'users[5000].username', rule: 'is already taken' });
    expect(backend.store.snapshot()).toEqual(before);
  });

  it('refuses a user whose name differs from a stored one only in case, and a reused key', async () => {
    const backend = createMockBackend({ seed: 'demo', rateLimit: false, gateway: { controlToken: TOKEN } });
    const alice = [...backend.store.users.values()].find((u) => u.username === 'alice')!;
    const upper = await post(backend, { users: [{ username: 'ALICE', email: 'new@example.com' }] });
    expect(upper.body).toMatchObject({ field: 'users[0].username', rule: 'is already taken' });
    const email = await post(backend, { users: [{ username: 'alice2', email: alice.email.toUpperCase() }] });
    expect(email.body).toMatchObject({ field: 'users[0].email', rule: 'is already taken' });
    const key = await post(backend, { users: [{ username: 'alice2', email: 'a2@example.com', apikey: alice.apikey }] });
    expect(key.body).toMatchObject({ field: 'users[0].apikey', rule: "is another user's key" });
  });

  it('matches owners by their exact username', async () => {
    const backend = createMockBackend({ seed: 'demo', rateLimit: false, gateway: { controlToken: TOKEN } });
    const res = await post(backend, { domains: [{ owner: 'ALICE', domain: 'https://go.alice-upper.example' }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'domains[0].owner' });
  });

  it('adds no device when a later device is refused', async () => {
    const backend = createMockBackend({ rateLimit: false, gateway: { controlToken: TOKEN } });
    const before = backend.store.snapshot();
    // The second device's generated id (dev_2) is the first one's: found only while adding, after the checks.
    const res = await post(backend, {
      users: [{ username: 'carol_tester', email: 'carol@example.com' }],
      devices: [{ id: 'dev_2' }, {}],
    });
    expect(res.status).toBe(409);
    expect(backend.gateway.devices.list()).toEqual([]);
    expect(backend.store.snapshot()).toEqual(before);
  });
});
