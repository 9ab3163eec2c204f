// Keys, tokens, secrets and ids of the mock are drawn from the backend's `random`: cryptographic by default
// ({@link cryptoRandom}), or a seeded generator a test passes to make them reproducible.

/** Lower-case hex digits. */
export const HEX_DIGITS = '0123456789abcdef';

/** `length` characters drawn from `alphabet` with `random` (values in [0, 1); a stray 1 is clamped). */
export function randomChars(length: number, alphabet: string, random: () => number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out += alphabet[Math.min(alphabet.length - 1, Math.floor(random() * alphabet.length))];
  }
  return out;
}

/** `length` lower-case hex characters from `random`. */
export function randomHex(length: number, random: () => number): string {
  return randomChars(length, HEX_DIGITS, random);
}

// Drawn in batches: one getRandomValues call per 256 numbers keeps key generation cheap.
const POOL_SIZE = 256;
let pool = new Uint32Array(0);
let next = 0;

/**
 * A number in [0, 1) from the platform's cryptographic random source (`crypto.getRandomValues`, in Node, browsers
 * and workers alike): the default randomness of the mock's keys, tokens and secrets. Pass a seeded `random` to the
 * backend only in tests that need reproducible keys.
 */
export function cryptoRandom(): number {
  if (next >= pool.length) {
    pool = globalThis.crypto.getRandomValues(new Uint32Array(POOL_SIZE));
    next = 0;
  }
  return pool[next++]! / 2 ** 32;
}
