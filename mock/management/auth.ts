import { secretsEqual } from '../../src/shared/constant-time.js';
import type { MockStore, UserRow } from './store.js';

/** Production's answer (HTTP 403) to a missing, unknown or expired management key. */
export const INVALID_KEY_MESSAGE = 'A valid API key is required to use this service.';
/** Production's answer (HTTP 403) to a normal user calling an admin-only endpoint. */
export const NO_PERMISSION_MESSAGE = 'You do not have permission to access this endpoint.';

/**
 * The key in an `Authorization: Bearer <key>` header, or undefined. A header without the `Bearer ` scheme counts
 * as missing, as in production; the scheme name itself is case-insensitive (RFC 9110).
 */
export function bearerKey(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/**
 * The user owning `key`: one look-up in the store's key index, then a constant-time compare of the key found. The
 * look-up hashes the whole presented key and compares hashes, so its time does not tell a near miss from a far one;
 * and it costs the same with 23,000 users stored as with 3 (a compare with every stored key cost 14 ms a request).
 */
export function userByKey(store: MockStore, key: string): UserRow | undefined {
  const user = store.users.firstBy('apikey', key);
  return user && secretsEqual(user.apikey, key) ? user : undefined;
}
