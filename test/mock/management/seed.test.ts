import { createMockBackend, ManualClock } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';
import { seeded } from '../support/seeded.js';

describe('seeds', () => {
  it('starts the empty seed with the admin alone', () => {
    const backend = createMockBackend({ clock: new ManualClock() });
    expect([...backend.store.users.values()].map((u) => [u.username, u.admin])).toEqual([['admin', true]]);
    for (const table of ['domains', 'pixels', 'qrs', 'splash', 'overlays', 'plans'] as const) {
      expect(backend.store[table].size).toBe(0);
    }
    expect(backend.adminKey).toMatch(/^[0-9a-f]{32}$/);
  });

  it('fills the demo seed with two normal users, their records and the plans Free and Pro', () => {
    const { store } = createMockBackend({ clock: new ManualClock(), seed: 'demo' });
    expect([...store.users.values()].map((u) => u.username)).toEqual(['admin', 'alice', 'bob_smith']);
    expect([...store.plans.values()].map((p) => [p.name, p.free])).toEqual([
      ['Free', true],
      ['Pro', false],
    ]);
    for (const table of ['domains', 'pixels', 'qrs', 'splash', 'overlays'] as const) {
      const owners = new Set([...store[table].values()].map((row) => row.userId));
      expect(owners.size, table).toBe(2);
    }
    expect([...store.qrs.values()].some((q) => q.stats.clicks > 0)).toBe(true);
  });

  it('derives every key from the injected random', () => {
    const a = createMockBackend({ seed: 'demo', random: seeded(7) });
    const b = createMockBackend({ seed: 'demo', random: seeded(7) });
    const keys = (x: typeof a) => [...x.store.users.values()].map((u) => u.apikey);
    expect(keys(a)).toEqual(keys(b));
    expect(new Set(keys(a)).size).toBe(3);
  });

  it('uses the adminKey option as the admin key', () => {
    expect(createMockBackend({ adminKey: 'my-admin-key' }).adminKey).toBe('my-admin-key');
  });

  it('rejects an admin key that is empty or holds spaces, without echoing it', () => {
    for (const adminKey of ['', 'two words', 'tab\tkey']) {
      expect(() => createMockBackend({ adminKey })).toThrow(/adminKey must be a non-empty string without spaces/);
    }
    let refusal: unknown;
    try {
      createMockBackend({ adminKey: 'secret value' });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(TypeError);
    expect(String((refusal as Error).message)).toMatch(/adminKey must be/);
    expect(String((refusal as Error).message)).not.toContain('secret value');
  });

  it('rejects a seed name it does not know', () => {
    expect(() => createMockBackend({ seed: 'full' as 'demo' })).toThrow(/seed must be 'empty' or 'demo'/);
  });

  it('resets to the seeded state with the same keys', async () => {
    const backend = createMockBackend({ clock: new ManualClock(), seed: 'demo' });
    const seededState = backend.store.snapshot();
    const res = await backend.fetch('/api/user/2/delete', {
      method: 'DELETE',
      headers: { authorization: `Bearer ${backend.adminKey}` },
    });
    expect((await res.json()).error).toBe(0);
    backend.store.addUser({ username: 'extra', email: 'extra@example.com' });
    backend.reset();
    expect(backend.store.snapshot()).toEqual(seededState);
  });
});
