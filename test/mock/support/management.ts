import { ManualClock, type MockBackend, type MockBackendOptions } from 'linkgate/mock';
import type { UserRow } from '../../../mock/management/store.js';

/** The demo user with this username (demo seed: admin, alice, bob_smith). */
export function demoUser(backend: MockBackend, username: string): UserRow {
  const user = [...backend.store.users.values()].find((u) => u.username === username);
  if (!user) throw new Error(`no user ${username} in this backend`);
  return user;
}

/** A fresh normal user with a few records of each kind, for tests that start from the empty seed. */
export function addUserWithKey(backend: MockBackend, username: string): UserRow {
  return backend.store.addUser({ username, email: `${username}@example.com` });
}

/** Suite options with a fresh ManualClock (2026-01-01T00:00:00Z) per test. */
export function manualClock(extra: MockBackendOptions = {}): () => MockBackendOptions {
  return () => ({ clock: new ManualClock(), ...extra });
}
