const encoder = new TextEncoder();
// Reused for the presented secret on every delivery: verification is synchronous up to the compare, so no caller
// can observe another's bytes, and the hot path allocates nothing.
const scratch = new Uint8Array(512);

/**
 * Compares two byte strings in time that depends only on their lengths, never on where they differ: it XORs over the
 * longer length and folds the length difference in, so a prefix of the right secret is no closer than any other guess.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  return equalBytes(a, a.length, b);
}

/** {@link constantTimeEqual} over the first `aLength` bytes of `a`. */
function equalBytes(a: Uint8Array, aLength: number, b: Uint8Array): boolean {
  const length = Math.max(aLength, b.length);
  let diff = aLength ^ b.length;
  for (let i = 0; i < length; i++) {
    // Past either end the byte counts as zero; the length difference above already decided the result.
    diff |= (i < aLength ? (a[i] as number) : 0) ^ (i < b.length ? (b[i] as number) : 0);
  }
  return diff === 0;
}

/**
 * Constant-time equality of two secrets held as text (the mock's API keys, tokens and digests), over their UTF-16
 * code units: no copy or encoding per call, since the mock runs it against every user's key on every request.
 */
export function secretsEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  // Past either end charCodeAt gives NaN, which `| 0` makes 0; the length difference above already decided.
  for (let i = 0; i < length; i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}

/** UTF-8 bytes of a string (the form secrets are compared in). */
export function utf8(value: string): Uint8Array {
  return encoder.encode(value);
}

/**
 * Checks a presented secret against every candidate without stopping at the first match, so timing reveals neither
 * whether nor which candidate matched. Both sides are compared as UTF-8 bytes.
 */
export function matchesAny(presented: string, candidates: readonly Uint8Array[]): boolean {
  let bytes: Uint8Array = scratch;
  let length = asciiInto(presented, scratch);
  if (length < 0) {
    // Non-ASCII or very long: no real secret looks like that, but compare it the same way anyway.
    bytes = encoder.encode(presented);
    length = bytes.length;
  }
  let matched = 0;
  for (const candidate of candidates) matched |= equalBytes(bytes, length, candidate) ? 1 : 0;
  return matched === 1;
}

/** Writes an ASCII string's bytes (its UTF-8 form) into `out`; -1 when it is not ASCII or does not fit. */
function asciiInto(text: string, out: Uint8Array): number {
  if (text.length > out.length) return -1;
  let high = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    high |= c;
    out[i] = c;
  }
  return high < 0x80 ? text.length : -1;
}
