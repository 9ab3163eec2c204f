import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { constantTimeEqual } from '../../src/shared/constant-time.js';

const enc = (s: string) => new TextEncoder().encode(s);

describe('constantTimeEqual compares bytes without stopping early', () => {
  it('is true only for identical bytes', () => {
    expect(constantTimeEqual(enc('whsec_live_abc'), enc('whsec_live_abc'))).toBe(true);
    expect(constantTimeEqual(enc('whsec_live_abc'), enc('whsec_live_abd'))).toBe(false);
  });

  it('is false for a prefix, an extension, and the empty string', () => {
    expect(constantTimeEqual(enc('abc'), enc('ab'))).toBe(false);
    expect(constantTimeEqual(enc('ab'), enc('abc'))).toBe(false);
    expect(constantTimeEqual(enc(''), enc('a'))).toBe(false);
    expect(constantTimeEqual(enc(''), enc(''))).toBe(true);
  });

  it('does not mistake trailing zero bytes for a match', () => {
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0]))).toBe(false);
  });

  it('agrees with plain equality on random inputs', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ maxLength: 8 }), (a, b) => {
        expect(constantTimeEqual(a, b)).toBe(Buffer.from(a).equals(Buffer.from(b)));
      }),
    );
  });
});
