// The drift checker's rules, one exchange at a time: what counts as a difference, on which side, at which path; which
// documented quirks name a production variant instead; and that secrets never reach a finding.
import { describe, expect, it } from 'vitest';
import { checkExchange, type Exchange } from '../../mock/drift/exchange-check.js';
import { HIDDEN, isIgnored, parseIgnore, scrubFinding, secretHider } from '../../mock/drift/findings.js';
import { OPERATION_IDS } from '../../mock/drift/operation-table.js';
import { page } from './support/drifting-server.js';

const limits = () => ({
  'X-RateLimit-Limit': '30',
  'X-RateLimit-Remaining': '29',
  'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60),
});

const exchange = (over: Partial<Exchange> & { json?: unknown; sent?: unknown }): Exchange => ({
  method: 'GET',
  url: '/api/account',
  requestHeaders: { Authorization: 'Bearer k3y-of-the-user', 'Content-Type': 'application/json' },
  requestBody: over.sent === undefined ? undefined : JSON.stringify(over.sent),
  status: 200,
  responseHeaders: limits(),
  responseBody: JSON.stringify(over.json),
  ...over,
});

const account = {
  id: 2,
  email: 'a@example.com',
  username: 'alice',
  avatar: '',
  status: 'pro',
  expires: null,
  registered: '2026-01-01 00:00:00',
};

const fields = (e: Exchange) => checkExchange(e).findings.map((f) => `${f.side} ${f.field}: ${f.expected} / ${f.seen}`);

describe('checkExchange: answers', () => {
  it('finds nothing in an answer exactly as the table states it', () => {
    expect(checkExchange(exchange({ json: { error: 0, data: account } }))).toEqual({
      operation: 'account.get',
      findings: [],
      variants: [],
    });
  });

  it('reports a renamed field as the table field missing and the new field unknown', () => {
    const { registered, ...rest } = account;
    expect(fields(exchange({ json: { error: 0, data: { ...rest, created: registered } } }))).toEqual([
      'response data.registered: a date in the form YYYY-MM-DD HH:MM:SS / absent',
      'response data.created: no such field / "2026-01-01 00:00:00"',
    ]);
  });

  it('reports a numeric string where the spec has an integer, but not the paged "0" the spec writes', () => {
    const e = exchange({ url: '/api/domains', json: page('domains', [{ id: '12', domain: 'https://d.example' }]) });
    expect(fields(e)).toEqual(['response data.domains[0].id: an integer / "12"']);
  });

  it('names stringIds for a new domain id sent as digits, and reports no difference', () => {
    const verdict = checkExchange(
      exchange({
        method: 'POST',
        url: '/api/domain/add',
        sent: { domain: 'https://d.example' },
        json: { error: 0, id: '12' },
      }),
    );
    expect(verdict).toMatchObject({ operation: 'domains.create', findings: [], variants: ['stringIds'] });
  });

  it('names overlayCollection for overlays under "overlay", and reports a list under neither name', () => {
    const overlay = { id: 1, type: 'message', name: 'n', date: '2026-01-01 00:00:00' };
    expect(checkExchange(exchange({ url: '/api/overlay', json: page('overlay', [overlay]) }))).toMatchObject({
      findings: [],
      variants: ['overlayCollection'],
    });
    expect(fields(exchange({ url: '/api/overlay', json: page('items', [overlay]) }))).toEqual([
      'response data.items: no such field / an array of 1',
      'response data.cta: an array / absent',
    ]);
  });

  it('names negativeRemaining for X-RateLimit-Remaining: -1, and reports a missing or millisecond header', () => {
    const headers = { ...limits(), 'X-RateLimit-Remaining': '-1' };
    const rateLimited = { error: 429, message: 'Too Many API Requests.', 'Retry-After': 30 };
    expect(checkExchange(exchange({ responseHeaders: headers, json: rateLimited }))).toMatchObject({
      findings: [],
      variants: ['negativeRemaining'],
    });
    const { 'X-RateLimit-Limit': _limit, ...noLimit } = limits();
    expect(fields(exchange({ responseHeaders: noLimit, json: { error: 0, data: account } }))).toEqual([
      'response header X-RateLimit-Limit: present / absent',
    ]);
    const ms = { ...limits(), 'X-RateLimit-Reset': String(Date.now() + 60_000) };
    expect(fields(exchange({ responseHeaders: ms, json: { error: 0, data: account } }))).toEqual([
      expect.stringMatching(/^response header X-RateLimit-Reset: Unix time in seconds, within a day of now \/ "\d+"$/),
    ]);
  });

  it('reports an undocumented status, a body that is not JSON, and paging numbers that break their rules', () => {
    expect(fields(exchange({ status: 500, json: { error: 1, message: 'x' } }))).toEqual([
      'response status: HTTP 200, or 403 with an error envelope for a refused key or a non-admin / HTTP 500',
    ]);
    expect(
      fields(
        exchange({ responseBody: '<html>login</html>', responseHeaders: { ...limits(), 'Content-Type': 'text/html' } }),
      ),
    ).toEqual(['response (body): a JSON body / HTTP 200 text/html: "<html>login</html>"']);
    const wrongPaging = page('domains', [], { result: 31, maxpage: 2, nextpage: null });
    expect(fields(exchange({ url: '/api/domains', json: wrongPaging }))).toEqual([
      'response data.maxpage: ceil(result / perpage) = 3 / 2',
      'response data.nextpage: currentpage + 1 = 2 / null',
    ]);
  });

  it("accepts the mock's failure answers (extra `issues`) and a 403 for a non-admin, without rate headers for a refused key", () => {
    const refusedKey = { error: 1, message: 'A valid API key is required to use this service.' };
    expect(checkExchange(exchange({ status: 403, responseHeaders: {}, json: refusedKey })).findings).toEqual([]);
    const notFound = { error: 1, message: 'QR does not exist.', issues: ['id: not found'] };
    expect(checkExchange(exchange({ url: '/api/qr/9', json: notFound })).findings).toEqual([]);
  });
});

describe('checkExchange: requests', () => {
  it('reports a body the table would refuse, an unknown body field and a missing key, on the request side', () => {
    const e = exchange({
      method: 'POST',
      url: '/api/pixel/add',
      requestHeaders: { 'Content-Type': 'application/json' },
      sent: { type: 'gtmpixel', name: 'n', tag: '', colour: 'red' },
      json: { error: 0, id: 4 },
    });
    expect(fields(e)).toEqual([
      'request header Authorization: "Bearer <key>" / absent',
      'request tag: a value that is required / ""',
      'request colour: no such field / "red"',
    ]);
  });

  it('reads query values as the integers they stand for, and reports one that is not', () => {
    expect(checkExchange(exchange({ url: '/api/domains?page=1&limit=5', json: page('domains', []) })).findings).toEqual(
      [],
    );
    expect(fields(exchange({ url: '/api/domains?limit=all', json: page('domains', []) }))).toEqual([
      'request query limit: a number / "all"',
    ]);
  });

  it("reports an /api/ path neither table has, and leaves the mock's own paths alone", () => {
    expect(fields(exchange({ url: '/api/links', json: {} }))).toEqual([
      'request GET /api/links: an operation of the table / no operation has this method and path',
    ]);
    expect(checkExchange(exchange({ url: '/__mock/reset', json: {} })).findings).toEqual([]);
    // A browser app's CORS preflight is forwarded, not judged.
    expect(checkExchange(exchange({ method: 'OPTIONS', url: '/api/domains', responseBody: '' })).findings).toEqual([]);
  });
});

describe('findings: secrets and --ignore', () => {
  it('hides the value of a secret field and every known key, wherever it appears', () => {
    const [finding] = checkExchange(
      exchange({ json: { error: 0, data: { ...account, api_token: 'tok_s3cret_value' } } }),
    ).findings;
    const hide = secretHider(['k3y-of-the-user']);
    expect(scrubFinding(finding!, hide)).toMatchObject({ field: 'data.api_token', seen: HIDDEN });
    expect(hide('Bearer k3y-of-the-user in a message')).toBe(`Bearer ${HIDDEN} in a message`);
  });

  it('hides a password the app sent, even where it breaks a rule', () => {
    const [finding] = checkExchange(
      exchange({
        method: 'PUT',
        url: '/api/account/update',
        sent: { password: 'abc' },
        json: { error: 0, message: 'ok' },
      }),
    ).findings;
    expect(finding).toMatchObject({ side: 'request', field: 'password', seen: '"abc"' });
    expect(scrubFinding(finding!, (t) => t)).toMatchObject({ field: 'password', seen: HIDDEN });
  });

  it('silences an operation, or one field of it on every record, and refuses an unknown operation id', () => {
    const finding = checkExchange(
      exchange({ url: '/api/domains', json: page('domains', [{ id: '1', domain: 'https://d.example' }]) }),
    ).findings[0]!;
    expect(isIgnored(finding, [parseIgnore('domains.list', OPERATION_IDS)])).toBe(true);
    expect(isIgnored(finding, [parseIgnore('domains.list:data.domains[].id', OPERATION_IDS)])).toBe(true);
    expect(isIgnored(finding, [parseIgnore('*:data.domains', OPERATION_IDS)])).toBe(true);
    expect(isIgnored(finding, [parseIgnore('domains.list:data.domains[].domain', OPERATION_IDS)])).toBe(false);
    expect(isIgnored(finding, [parseIgnore('pixels.list', OPERATION_IDS)])).toBe(false);
    expect(() => parseIgnore('domain.list', OPERATION_IDS)).toThrow(
      /"domain\.list" is not an operation id; use \* or one of account\.get/,
    );
  });
});
