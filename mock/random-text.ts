// Keys, tokens, secrets and ids of the mock are drawn from the backend's `random`, so a seeded generator makes them
// reproducible. Not cryptographic: the mock's secrets only have to be unguessable by accident.

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
