import { describe, expect, it } from 'vitest';
import { secretsEqual } from '../../src/shared/constant-time.js';

// The one constant-time comparer over text: the mock's API keys, control token and key digests go through it.
describe('secretsEqual', () => {
  it('holds two equal secrets equal and any other pair unequal', () => {
    expect(secretsEqual('gw_live_0123456789abcdefghijklmn', 'gw_live_0123456789abcdefghijklmn')).toBe(true);
    expect(secretsEqual('gw_live_0123456789abcdefghijklmn', 'gw_live_0123456789abcdefghijklmX')).toBe(false);
    expect(secretsEqual('abc', 'abcd')).toBe(false);
    expect(secretsEqual('abcd', 'abc')).toBe(false);
    expect(secretsEqual('', '')).toBe(true);
    expect(secretsEqual('', 'a')).toBe(false);
  });

  it('compares non-ASCII and very long secrets in full', () => {
    expect(secretsEqual('clé-secrète', 'clé-secrète')).toBe(true);
    expect(secretsEqual('clé-secrète', 'cle-secrete')).toBe(false);
    const long = 'k'.repeat(600);
    expect(secretsEqual(long, long)).toBe(true);
    expect(secretsEqual(long, `${long.slice(1)}x`)).toBe(false);
    // Two different lone surrogates encode to the same UTF-8 replacement bytes; as text they still differ.
    expect(secretsEqual('key\ud800', 'key\udbff')).toBe(false);
  });

  it('keeps no state between calls: a match is not carried over to the next pair', () => {
    expect(secretsEqual('token-one', 'token-one')).toBe(true);
    expect(secretsEqual('token', 'token-one')).toBe(false);
    expect(secretsEqual('token-one', 'token')).toBe(false);
  });
});
