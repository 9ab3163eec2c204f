import { createMockBackend, type MockBackend } from 'linkgate/mock';
import { beforeAll, describe, expect, it } from 'vitest';
import { IndexedTable } from '../../../mock/management/indexed-table.js';
import { addUserWithKey } from '../support/management.js';

// Creates must cost the same with 20,000 rows stored as with 20: the rules look rows up in the store's indexes
// instead of reading every stored row. Proven by counting, not timing: each stored row is wrapped in a proxy that
// counts the reads of its fields, and a create may read only the few rows its lookups find.
const STORED = 20_000;

let reads = 0;
const counted = <T extends object>(row: T): T =>
  new Proxy(row, {
    get(target, field, receiver) {
      // The auth guard compares the caller's key with every user's in constant time (by design); that is not a rule.
      if (field !== 'apikey' && field !== 'id') reads++;
      return Reflect.get(target, field, receiver);
    },
  });

function wrapRows<T extends { id: number }>(table: Map<number, T>): void {
  for (const [id, row] of [...table]) table.set(id, counted(row));
}

async function post(backend: MockBackend, key: string, path: string, body: unknown, method = 'POST') {
  const res = await backend.fetch(
    new Request(`https://api.linkgate.test${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  return (await res.json()) as { error: number; message?: string };
}

describe('store indexes', () => {
  let backend: MockBackend;
  let key: string;

  beforeAll(() => {
    backend = createMockBackend({ seed: 'empty', rateLimit: false });
    const { store } = backend;
    const owners = Array.from({ length: 50 }, (_, i) => addUserWithKey(backend, `owner${i}`));
    for (let i = 0; i < STORED; i++) {
      const owner = owners[i % owners.length]!;
      store.addDomain(owner.id, { domain: `https://go${i}.example.com` });
      store.addPixel(owner.id, { type: 'gapixel', name: `p${i}`, tag: `G-${i}` });
      store.addQr(owner.id, { type: 'text', data: `q${i}` });
    }
    key = addUserWithKey(backend, 'caller').apikey;
    for (const table of [store.users, store.domains, store.pixels, store.qrs])
      wrapRows(table as Map<number, { id: number }>);
    reads = 0;
  });

  it.each([
    ['adds a domain', '/api/domain/add', { domain: 'https://fresh.example.com' }, 0],
    [
      'refuses a taken host (another case, port and trailing dot)',
      '/api/domain/add',
      { domain: 'https://GO7.example.com.:8443' },
      1,
    ],
    ['adds a pixel', '/api/pixel/add', { type: 'gapixel', name: 'n', tag: 'G-fresh' }, 0],
    ['adds a QR code', '/api/qr/add', { type: 'text', data: 'fresh' }, 0],
    ['adds a user', '/api/user/add', { username: 'freshuser', email: 'fresh@example.com', password: 'secret' }, 0],
    [
      'refuses a taken username',
      '/api/user/add',
      { username: 'OWNER3', email: 'other@example.com', password: 'secret' },
      1,
    ],
  ])('%s reading at most a few stored rows with 20,000 stored', async (_case, path, body, error) => {
    // Users are admins' business: the caller of /api/user/add must be one.
    const caller = path === '/api/user/add' ? backend.adminKey : key;
    reads = 0;
    const res = await post(backend, caller, path, body);
    expect(res.error).toBe(error);
    expect(reads).toBeLessThan(40);
  });

  it("lists a caller's domains reading only that caller's rows", async () => {
    const owner = [...backend.store.users.values()].find((u) => u.username === 'owner1')!;
    reads = 0;
    const res = await backend.fetch(
      new Request('https://api.linkgate.test/api/domains?limit=5', {
        headers: { authorization: `Bearer ${owner.apikey}` },
      }),
    );
    expect(((await res.json()) as { data: { result: number } }).data.result).toBe(STORED / 50);
    // The caller's 400 rows are read (sorted, five answered); the other 19,600 are not.
    expect(reads).toBeLessThan((STORED / 50) * 20);
  });
});

describe('IndexedTable', () => {
  it('finds a row under its new key after reindex, and never under the old one', () => {
    const table = new IndexedTable<{ id: number; name: string }, 'name'>({ name: (r) => r.name });
    const row = { id: 1, name: 'old' };
    table.set(1, row);
    row.name = 'new';
    expect(table.findBy('name', 'old')).toEqual([]);
    table.reindex(row);
    expect(table.findBy('name', 'new')).toEqual([row]);
  });

  it('forgets rows on delete and clear', () => {
    const table = new IndexedTable<{ id: number; name: string }, 'name'>({ name: (r) => r.name });
    table.set(1, { id: 1, name: 'a' }).set(2, { id: 2, name: 'a' });
    table.delete(1);
    expect(table.findBy('name', 'a').map((r) => r.id)).toEqual([2]);
    table.clear();
    expect(table.findBy('name', 'a')).toEqual([]);
  });
});
