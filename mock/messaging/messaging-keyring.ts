import { MESSAGING_KEY_PATTERN, MESSAGING_KEY_PREFIX } from '../../src/schemas/messaging.js';
import type { Clock } from '../../src/shared/clock.js';
import { secretsEqual } from '../../src/shared/constant-time.js';
import { GatewayInputError } from '../shared/gateway-input-error.js';
import { randomChars } from '../shared/random-text.js';
import { keyDigest } from './key-digest.js';

/** A messaging API key as listed (the key itself is shown only when it is created or regenerated). */
export interface MessagingKeyInfo {
  /** Stable id of the key slot, e.g. `key_1`. */
  id: string;
  tenant: string;
  label: string;
  /** The first characters of the key, for recognising it (`gw_live_abcd…`). */
  preview: string;
  revoked: boolean;
  createdAt: number;
}

/** A key just created or regenerated: the only time the full key is returned. */
export interface IssuedMessagingKey extends MessagingKeyInfo {
  key: string;
}

interface KeyRow extends MessagingKeyInfo {
  digest: string;
}

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The messaging API keys of every tenant. Keys are stored only as SHA-256 digests in a hash map, so validation is
 * one digest plus one lookup (well under the documented 0.2 ms) and never a character-by-character compare of keys.
 */
export class MessagingKeyring {
  readonly #byDigest = new Map<string, KeyRow>();
  readonly #byId = new Map<string, KeyRow>();
  readonly #clock: Clock;
  readonly #random: () => number;
  #seq = 0;

  constructor(clock: Clock, random: () => number) {
    this.#clock = clock;
    this.#random = random;
  }

  /**
   * Creates a key for `tenant`. Pass `key` to choose it (it must match `gw_live_` + 24 or more letters/digits).
   * @example keyring.create({ tenant: 'acme', label: 'CI' }).key // 'gw_live_…'
   */
  create(input: { tenant?: string; label?: string; key?: string } = {}): IssuedMessagingKey {
    const tenant = checkTenant(input.tenant);
    if (input.label !== undefined && typeof input.label !== 'string') {
      throw new GatewayInputError('label', 'must be a string');
    }
    let key: string;
    if (input.key === undefined) key = this.#generate();
    else if (typeof input.key !== 'string' || !MESSAGING_KEY_PATTERN.test(input.key)) {
      throw new GatewayInputError('key', `must be "${MESSAGING_KEY_PREFIX}" followed by 24 or more letters or digits`);
    } else key = input.key;
    const digest = keyDigest(key);
    if (this.#byDigest.has(digest)) throw new GatewayInputError('key', 'is already in use; choose another one', 409);
    const row: KeyRow = {
      id: `key_${++this.#seq}`,
      tenant,
      label: input.label ?? 'default',
      preview: `${key.slice(0, MESSAGING_KEY_PREFIX.length + 4)}…`,
      revoked: false,
      createdAt: this.#clock.now(),
      digest,
    };
    this.#byDigest.set(digest, row);
    this.#byId.set(row.id, row);
    return { ...info(row), key };
  }

  /** Revokes the key `id` and issues a new one with the same tenant and label (spec: regenerating revokes the old). */
  regenerate(id: string): IssuedMessagingKey {
    const old = this.#row(id);
    this.revoke(id);
    return this.create({ tenant: old.tenant, label: old.label });
  }

  /** Revokes the key `id`; requests with it get the 401 answer from then on. */
  revoke(id: string): MessagingKeyInfo {
    const row = this.#row(id);
    row.revoked = true;
    return info(row);
  }

  /**
   * The key's record when `authorization` is `Bearer <valid key>`, else null. Missing header, unknown key and
   * revoked key all give null (the caller answers the documented 401).
   */
  authenticate(authorization: string | undefined): MessagingKeyInfo | null {
    if (authorization === undefined || authorization.length < 8) return null;
    if (!authorization.startsWith('Bearer ')) return null;
    const key = authorization.slice(7).trim();
    const digest = keyDigest(key);
    const row = this.#byDigest.get(digest);
    // The map found the row by digest; compare the digests in constant time anyway so no compare leaks timing.
    if (!row || !secretsEqual(row.digest, digest) || row.revoked) return null;
    return row;
  }

  /** Keys of `tenant` (all tenants when omitted), without the keys themselves. */
  list(tenant?: string): MessagingKeyInfo[] {
    return [...this.#byId.values()].filter((r) => tenant === undefined || r.tenant === tenant).map(info);
  }

  /** Forgets every key. */
  clear(): void {
    this.#byDigest.clear();
    this.#byId.clear();
    this.#seq = 0;
  }

  /**
   * Every key slot as plain data (what a state snapshot holds): the keys themselves are not kept, only their SHA-256
   * digests in hex, which still let the same keys in after a restore.
   * @internal
   */
  exportState(): MessagingKeyringState {
    const keys = [...this.#byId.values()].map((row) => ({ ...info(row), digest: toHex(row.digest) }));
    return { seq: this.#seq, keys };
  }

  /**
   * A new keyring holding the key slots of `state`; throws a {@link GatewayInputError} naming `keys[i].<field>` on
   * the first bad one. Swap it in with {@link replaceWith}.
   * @internal
   */
  static fromState(clock: Clock, random: () => number, state: MessagingKeyringState): MessagingKeyring {
    const ring = new MessagingKeyring(clock, random);
    state.keys.forEach((key, i) => {
      const at = `keys[${i}]`;
      if (!/^key_\d{1,15}$/.test(key.id)) throw new GatewayInputError(`${at}.id`, 'must be "key_" and a number');
      if (ring.#byId.has(key.id)) throw new GatewayInputError(`${at}.id`, 'is already another key slot’s id');
      const tenant = checkTenant(key.tenant, `${at}.tenant`);
      if (!/^[0-9a-f]{64}$/.test(key.digest)) {
        throw new GatewayInputError(`${at}.digest`, 'must be 64 lower-case hex characters (a SHA-256)');
      }
      const digest = fromHex(key.digest);
      if (ring.#byDigest.has(digest)) throw new GatewayInputError(`${at}.digest`, 'is another key slot’s key');
      const row: KeyRow = { ...key, tenant, digest };
      ring.#byId.set(row.id, row);
      ring.#byDigest.set(digest, row);
    });
    ring.#seq = state.seq;
    return ring;
  }

  /** Takes every key slot and the id counter of `other` (built by `fromState`); cannot fail. @internal */
  replaceWith(other: MessagingKeyring): void {
    this.clear();
    for (const [id, row] of other.#byId) this.#byId.set(id, row);
    for (const [digest, row] of other.#byDigest) this.#byDigest.set(digest, row);
    this.#seq = other.#seq;
  }

  #row(id: unknown): KeyRow {
    if (typeof id !== 'string' || id.length === 0)
      throw new GatewayInputError('id', 'is required (a key id like "key_1")');
    const row = this.#byId.get(id);
    if (!row) throw new GatewayInputError('id', 'does not name a messaging key', 404);
    return row;
  }

  #generate(): string {
    return MESSAGING_KEY_PREFIX + randomChars(32, KEY_ALPHABET, this.#random);
  }
}

/** The default tenant of a mock that does not name one. */
export const DEFAULT_TENANT = 'default';

/** Checks a tenant id: a non-empty string of letters, digits, `_`, `-` or `.`; defaults to `default`. */
export function checkTenant(tenant: unknown, field = 'tenant'): string {
  if (tenant === undefined) return DEFAULT_TENANT;
  if (typeof tenant !== 'string' || !/^[\w.-]{1,64}$/.test(tenant)) {
    throw new GatewayInputError(field, 'must be 1-64 letters, digits, "_", "-" or "."');
  }
  return tenant;
}

/** A {@link MessagingKeyring} as plain data: its key slots with their keys' digests, and the slot counter. */
export interface MessagingKeyringState {
  seq: number;
  keys: (MessagingKeyInfo & { digest: string })[];
}

function toHex(binary: string): string {
  let hex = '';
  for (let i = 0; i < binary.length; i++) hex += binary.charCodeAt(i).toString(16).padStart(2, '0');
  return hex;
}

function fromHex(hex: string): string {
  let binary = '';
  for (let i = 0; i < hex.length; i += 2) binary += String.fromCharCode(Number.parseInt(hex.slice(i, i + 2), 16));
  return binary;
}

function info(row: KeyRow): MessagingKeyInfo {
  return {
    id: row.id,
    tenant: row.tenant,
    label: row.label,
    preview: row.preview,
    revoked: row.revoked,
    createdAt: row.createdAt,
  };
}
