import { constantTimeEqual, utf8 } from '../../src/webhooks/constant-time.js';

/**
 * Compares two secrets (API keys, tokens, digests) in time that depends only on their lengths, not on where they
 * first differ: the webhook toolkit's one constant-time comparer, over their UTF-8 bytes.
 */
export function secretsEqual(a: string, b: string): boolean {
  return constantTimeEqual(utf8(a), utf8(b));
}
