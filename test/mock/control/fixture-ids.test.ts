// A fixture row may name its id (a recording keeps the deployment's): kept as given, lists come back in the
// deployment's order, and a bad or taken id is refused with the field named, leaving nothing loaded.
import { createMockBackend } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';

const TOKEN = 'ctl-fixture-ids-token';

async function post(backend: ReturnType<typeof createMockBackend>, body: unknown) {
  const res = await backend.fetch('/__mock/fixture', {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const empty = () => createMockBackend({ seed: 'empty', rateLimit: false, gateway: { controlToken: TOKEN } });

describe('POST /__mock/fixture with ids', () => {
  it('keeps the ids given, lists newest first by them, and gives later rows ids past them', async () => {
    const backend = empty();
    const loaded = await post(backend, {
      users: [{ username: 'carol', email: 'carol@example.com', apikey: 'carol-key-0001' }],
      domains: [
        { id: 2, owner: 'carol', domain: 'https://a.example.com' },
        { id: 5, owner: 'carol', domain: 'https://x.example.com' },
        { owner: 'carol', domain: 'https://later.example.com' },
      ],
    });
    expect(loaded.status, JSON.stringify(loaded.body)).toBe(201);
    const list = await backend.fetch('/api/domains', { headers: { authorization: 'Bearer carol-key-0001' } });
    const { data } = (await list.json()) as { data: { domains: { id: number; domain: string }[] } };
    expect(data.domains.map((d) => [d.id, d.domain])).toEqual([
      [6, 'https://later.example.com'],
      [5, 'https://x.example.com'],
      [2, 'https://a.example.com'],
    ]);
  });

  it.each([
    [{ id: 'five' }, 'domains[0].id', 'must be a whole number of 1 or more (omit it to have one given)'],
    [{ id: 0 }, 'domains[0].id', 'must be a whole number of 1 or more (omit it to have one given)'],
  ])('refuses %j, naming the field', async (extra, field, rule) => {
    const backend = empty();
    const answer = await post(backend, {
      users: [{ username: 'carol', email: 'carol@example.com' }],
      domains: [{ owner: 'carol', domain: 'https://a.example.com', ...extra }],
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ field, rule });
  });

  it('refuses an id in use or below the next one, and a far id on a failing fixture leaves nothing behind', async () => {
    const backend = empty();
    expect((await post(backend, { users: [{ username: 'carol', email: 'carol@example.com' }] })).status).toBe(201);
    const taken = await post(backend, { domains: [{ owner: 'carol', domain: 'https://a.example.com', id: 3 }] });
    expect(taken.status).toBe(201);
    const again = await post(backend, { domains: [{ owner: 'carol', domain: 'https://b.example.com', id: 3 }] });
    expect(again.body).toMatchObject({
      field: 'domains[0].id',
      rule: "must be 4 or more: lower ids are or were in use (a recording keeps the deployment's ids: load it into linkgate mock --seed empty)",
    });
    const started = performance.now();
    const failing = await post(backend, {
      domains: [
        { owner: 'carol', domain: 'https://far.example.com', id: 900_000_000_000 },
        { owner: 'nobody', domain: 'https://c.example.com' },
      ],
    });
    expect(failing.status).toBe(400);
    expect(performance.now() - started).toBeLessThan(2_000);
    const after = await post(backend, { domains: [{ owner: 'carol', domain: 'https://d.example.com' }] });
    expect(after.body).toMatchObject({ domains: [{ id: 4, owner: 'carol' }] });
  });
});
