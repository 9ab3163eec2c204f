// Crockford base32, the ULID alphabet (no I, L, O, U).
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID (26 characters: 48-bit millisecond time, then 80 random bits), the shape of the gateway's delivery ids.
 * Written here rather than importing `ulid`, because this entry loads nothing but zod; randomness comes from Web Crypto,
 * present on every runtime this entry supports.
 */
export function newDeliveryId(nowMs: number = Date.now()): string {
  let time = '';
  let t = Math.max(0, Math.floor(nowMs));
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32]! + time;
    t = Math.floor(t / 32);
  }
  const random = crypto.getRandomValues(new Uint8Array(16));
  let tail = '';
  // 16 characters of 5 bits each; taking the low 5 bits of a random byte keeps them uniform.
  for (const byte of random) tail += ALPHABET[byte & 31]!;
  return time + tail;
}
