// A URL the drift commands print never shows a user name, a password, a query or a fragment, parsed or not.
import { describe, expect, it } from 'vitest';
import { printableUrl } from '../../mock/drift/url-credentials.js';

describe('printableUrl', () => {
  it('hides credentials, the query and the fragment, and keeps the address', () => {
    expect(printableUrl(new URL('https://deploy:PASS@links.example.com/links?token=T#token=F'))).toBe(
      'https://[hidden]@links.example.com/links?[hidden]#[hidden]',
    );
    expect(printableUrl('http://u@127.0.0.1:4010/')).toBe('http://[hidden]@127.0.0.1:4010/');
    expect(printableUrl('http://127.0.0.1:4010/#token=ctl_x')).toBe('http://127.0.0.1:4010/#[hidden]');
    expect(printableUrl('https://links.example.com/links')).toBe('https://links.example.com/links');
  });

  it('cuts text that is no URL the same way, and stays linear on hostile input', () => {
    expect(printableUrl('http://u:PASS@host:port:x/a?b')).toBe('http://[hidden]@host:port:x/a?[hidden]');
    expect(printableUrl('u:PASS@host/links')).toBe('[hidden]@host/links');
    const hostile = `http://${'@'.repeat(200_000)}x`;
    const started = performance.now();
    expect(printableUrl(hostile)).toBe('http://[hidden]@x');
    expect(performance.now() - started).toBeLessThan(200);
  });
});
