// What linkgate reads but the API documents otherwise is drift of its own kind (`tolerated`): the SDK's schemas stay
// tolerant, the check judges each field by the form service-spec.md states, found by walking the same declaration.
import { describe, expect, it } from 'vitest';
import { checkExchange, type Exchange } from '../../mock/drift/exchange-check.js';
import { formatFinding } from '../../mock/drift/findings.js';
import { Plan } from '../../mock/drift/operation-table.js';

const answer = (url: string, json: unknown): Exchange => ({
  method: 'GET',
  url,
  requestHeaders: { Authorization: 'Bearer k3y-of-the-admin' },
  requestBody: undefined,
  status: 200,
  responseHeaders: {
    'X-RateLimit-Limit': '30',
    'X-RateLimit-Remaining': '29',
    'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60),
  },
  responseBody: JSON.stringify(json),
});

const plan = {
  id: 2,
  name: 'Pro',
  free: false,
  prices: { monthly: 9.99, yearly: 99, lifetime: 299 },
  limits: { links: 100, custom: { enabled: '1' }, team: { enabled: '1', count: '5' } },
};

const found = (e: Exchange) => checkExchange(e).findings.map((f) => [f.field, f.kind, f.expected, f.seen]);

describe('tolerated forms', () => {
  it('finds nothing in a plan as the spec states it, which the SDK reads too', () => {
    expect(found(answer('/api/plans', { error: 0, data: [plan] }))).toEqual([]);
    expect(Plan.parse(plan)).toMatchObject({ free: false });
  });

  it('reports each plan field in a form the SDK reads but the spec does not state, as tolerated', () => {
    const tolerant = {
      ...plan,
      free: 'false',
      prices: { monthly: '9.99', yearly: 99, lifetime: 299 },
      limits: { links: '100', custom: { enabled: 1 }, team: { enabled: true, count: 5 } },
    };
    // The SDK reads it: the tolerance is linkgate's, not the API's.
    expect(() => Plan.parse(tolerant)).not.toThrow();
    expect(found(answer('/api/plans', { error: 0, data: [tolerant] }))).toEqual([
      ['data[0].free', 'tolerated', 'true or false', '"false"'],
      ['data[0].prices.monthly', 'tolerated', 'a number', '"9.99"'],
      ['data[0].limits.links', 'tolerated', 'an integer', '"100"'],
      ['data[0].limits.custom.enabled', 'tolerated', '"0" or "1"', '1'],
      ['data[0].limits.team.enabled', 'tolerated', '"0" or "1"', 'true'],
      ['data[0].limits.team.count', 'tolerated', 'a string of digits', '5'],
    ]);
  });

  it('reports a date in another form as tolerated, and a value the SDK would refuse as a type difference', () => {
    const account = { id: 2, email: 'a@x.io', username: 'al', avatar: '', status: 'pro', expires: null };
    expect(found(answer('/api/account', { error: 0, data: { ...account, registered: '2026-01-01' } }))).toEqual([
      ['data.registered', 'tolerated', 'a date in the form YYYY-MM-DD HH:MM:SS', '"2026-01-01"'],
    ]);
    expect(found(answer('/api/account', { error: 0, data: { ...account, registered: 20260101 } }))).toEqual([
      ['data.registered', 'type', 'a date in the form YYYY-MM-DD HH:MM:SS', '20260101'],
    ]);
    const bad = { ...plan, prices: { monthly: [9.99] } };
    expect(found(answer('/api/plans', { error: 0, data: [bad] }))).toEqual([
      ['data[0].prices.monthly', 'type', 'a number', 'an array of 1'],
    ]);
  });

  it('says so on every line it prints', () => {
    const [finding] = checkExchange(answer('/api/plans', { error: 0, data: [{ ...plan, free: 0 }] })).findings;
    expect(formatFinding(finding!)).toBe(
      'drift response plans.list GET /api/plans data[0].free: tolerated by linkgate, differs from the API: expected true or false, seen 0',
    );
  });
});
