// Who a request-log line names: the user a key belongs to now, even when the same key was logged before.
import { createMockBackend, describeCaller } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';

describe('describeCaller', () => {
  it('names the key’s user again and again, and stops once the user is gone or their key has changed', () => {
    const backend = createMockBackend({ seed: 'demo' });
    const alice = [...backend.store.users.values()].find((u) => u.username === 'alice')!;
    const bob = [...backend.store.users.values()].find((u) => u.username === 'bob_smith')!;
    const aliceKey = alice.apikey;
    expect(describeCaller(backend, '/api/domains', `Bearer ${aliceKey}`)).toBe(`alice (user ${alice.id})`);
    expect(describeCaller(backend, '/api/domains', `Bearer ${aliceKey}`)).toBe(`alice (user ${alice.id})`);

    backend.store.deleteUser(alice.id);
    expect(describeCaller(backend, '/api/domains', `Bearer ${aliceKey}`)).toBe(`unknown key …${aliceKey.slice(-4)}`);

    const bobKey = bob.apikey;
    expect(describeCaller(backend, '/api/domains', `Bearer ${bobKey}`)).toBe(`bob_smith (user ${bob.id})`);
    bob.apikey = 'b'.repeat(32);
    backend.store.users.reindex(bob);
    expect(describeCaller(backend, '/api/domains', `Bearer ${bobKey}`)).toBe(`unknown key …${bobKey.slice(-4)}`);
    expect(describeCaller(backend, '/api/domains', `Bearer ${'b'.repeat(32)}`)).toBe(`bob_smith (user ${bob.id})`);
  });

  it('names the user again after a reset brought the key back', () => {
    const backend = createMockBackend({ seed: 'demo' });
    const alice = [...backend.store.users.values()].find((u) => u.username === 'alice')!;
    expect(describeCaller(backend, '/api/account', `Bearer ${alice.apikey}`)).toBe(`alice (user ${alice.id})`);
    backend.reset();
    expect(describeCaller(backend, '/api/account', `Bearer ${alice.apikey}`)).toBe(`alice (user ${alice.id})`);
  });
});
