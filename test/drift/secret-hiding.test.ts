// How the drift commands hide keys seen on the wire: whole words only (a key never eats into an ordinary word),
// JSON kept valid whatever the key's characters, URL credentials hidden unknown, and a cost that does not grow with
// the number of keys seen.
import { describe, expect, it } from 'vitest';
import { cutForDisplay, HIDDEN, scrubFinding, secretHider } from '../../mock/drift/findings.js';
import { hideUrlCredentials, SecretSet } from '../../mock/drift/secret-hiding.js';

describe('hiding secrets', () => {
  it('hides a key where it stands as a word, never inside a longer word', () => {
    const secrets = new SecretSet();
    secrets.add('Bearer test');
    secrets.add('test');
    expect(secrets.hideText('Authorization: Bearer test')).toBe(`Authorization: ${HIDDEN}`);
    expect(secrets.hideText('credential=test, again test.')).toBe(`credential=${HIDDEN}, again ${HIDDEN}.`);
    expect(secrets.hideValues({ username: 'tester', email: 'tester@example.com', note: 'attest' })).toEqual({
      username: 'tester',
      email: 'tester@example.com',
      note: 'attest',
    });
    expect(secrets.hideValues({ key: 'test' })).toEqual({ key: HIDDEN });
  });

  it('keeps JSON valid with keys made of its own metacharacters, and finds such a key as a whole value or word', () => {
    const secrets = new SecretSet();
    for (const key of ['":"f', '\\",', '{}[]', 'ab/cd+ef==']) secrets.add(key);
    const entry = {
      type: 'finding',
      field: 'foo',
      seen: '":"f',
      note: 'see ":"f here',
      list: ['{}[]', 'x ab/cd+ef== y'],
    };
    const line = JSON.stringify(secrets.hideValues(entry));
    expect(JSON.parse(line)).toEqual({
      type: 'finding',
      field: 'foo',
      seen: HIDDEN,
      note: `see ${HIDDEN} here`,
      list: [HIDDEN, `x ${HIDDEN} y`],
    });
  });

  it('hides a password in a URL and secret-named query values without knowing them', () => {
    expect(hideUrlCredentials('https://deploy:s3cr3t-PW@example.com/landing?token=T0K3N&page=2&api_key=K3Y')).toBe(
      `https://deploy:${HIDDEN}@example.com/landing?token=${HIDDEN}&page=2&api_key=${HIDDEN}`,
    );
    expect(hideUrlCredentials('http://hooks@127.0.0.1:4000/?q=plain')).toBe('http://hooks@127.0.0.1:4000/?q=plain');
  });

  it('hides a key before cutting a finding for display, so no part of a key cut in half shows', () => {
    const key = 'sk_live_Q7w8E9r0T1y2U3i4O5p6A7s8D9f0';
    const seen = JSON.stringify(`the deployment echoes your credential=${key} back`);
    const scrubbed = scrubFinding(
      {
        side: 'response',
        operation: 'account.get',
        method: 'GET',
        path: '/api/account',
        field: 'data.note',
        kind: 'unknown-field',
        expected: 'no such field',
        seen,
      },
      secretHider([key]),
    );
    expect(scrubbed.seen).toBe(`"the deployment echoes your credential=${HIDDEN} back"`);
    expect(scrubbed.seen).not.toContain('sk_live');
    expect(cutForDisplay(`"${'x'.repeat(100)}"`)).toBe(`"${'x'.repeat(56)}..."`);
  });

  // The text-replacing hider cost one pass per key per line: 6,000 keys made 500 report lines about 100 times dearer
  // than 60 keys. Lookups per word keep both alike; best of five, so a busy machine slows both alike.
  it('costs the same with 6,000 distinct keys as with 60', () => {
    const line = JSON.stringify({
      type: 'finding',
      side: 'response',
      operation: 'domains.list',
      method: 'GET',
      path: '/api/domains',
      field: 'data.domains[3].redirectroot',
      expected: 'a string',
      seen: '"https://example.com/landing/page?campaign=autumn&ref=partner-42"',
    });
    const timeWith = (keys: number) => {
      const hide = secretHider(Array.from({ length: keys }, (_, i) => `key_${i.toString(36)}_${'x'.repeat(24)}`));
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 5; run++) {
        const started = performance.now();
        for (let i = 0; i < 500; i++) hide(line);
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    const few = timeWith(60);
    const many = timeWith(6_000);
    expect(many, `60 keys: ${few.toFixed(1)} ms, 6,000 keys: ${many.toFixed(1)} ms`).toBeLessThan(
      Math.max(few * 4, 20),
    );
  });
});
