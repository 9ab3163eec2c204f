// Who a request-log line names: the user a key belongs to now, even when the same key was logged before.
import { createMockBackend, describeCaller } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';
import { pathWithoutSecret } from '../../../mock/adapters/request-log.js';

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

describe('pathWithoutSecret', () => {
  const token = 'ctl_0123abcd';
  const encodeAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');

  it('hides the token spelt plainly or percent-encoded, and leaves any other path as it was sent', () => {
    expect(pathWithoutSecret(`/__mock/${token}`, token)).toBe('/__mock/[hidden]');
    expect(pathWithoutSecret(`/%23token=${token}`, token)).toBe('/%23token=[hidden]');
    expect(pathWithoutSecret(`/__mock/${encodeAll(token)}`, token)).toBe('/__mock/[hidden]');
    expect(pathWithoutSecret(`/a/${encodeAll(encodeAll(token))}/b%20c`, token)).toBe('/a/[hidden]/b c');
    expect(pathWithoutSecret('/api/links/caf%C3%A9%20menu', token)).toBe('/api/links/caf%C3%A9%20menu');
    expect(pathWithoutSecret('/api/100%zz', token)).toBe('/api/100%zz');
  });

  it('shows nothing past the first % of a path encoded more times than it looks through', () => {
    let deep = token;
    for (let i = 0; i < 5; i++) deep = encodeAll(deep);
    expect(pathWithoutSecret(`/x/${deep}`, token)).toBe('/x/[encoded 4 times over: not shown]');
  });

  it('takes linear time on a long hostile path', () => {
    const path = `/${'%25'.repeat(5_000)}`;
    const started = performance.now();
    pathWithoutSecret(path, token);
    expect(performance.now() - started).toBeLessThan(100);
  });
});
