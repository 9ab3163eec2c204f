const encoder = new TextEncoder();

/**
 * Compares two byte strings in time that depends only on their lengths, never on where they differ: it XORs over the
 * longer length and folds the length difference in, so a prefix of the right secret is no closer than any other guess.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i++) {
    // An index past the end reads undefined, and `undefined ^ x` is x: the shorter side counts as zeros.
    diff |= (a[i] as number) ^ (b[i] as number);
  }
  return diff === 0;
}

/** UTF-8 bytes of a string (the form secrets are compared in). */
export function utf8(value: string): Uint8Array {
  return encoder.encode(value);
}

/**
 * Checks a presented secret against every candidate without stopping at the first match, so timing reveals neither
 * whether nor which candidate matched.
 */
export function matchesAny(presented: string, candidates: readonly Uint8Array[]): boolean {
  const bytes = encoder.encode(presented);
  let matched = 0;
  for (const candidate of candidates) matched |= constantTimeEqual(bytes, candidate) ? 1 : 0;
  return matched === 1;
}
