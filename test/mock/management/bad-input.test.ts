import fc from 'fast-check';
import { createMockBackend, ManualClock } from 'linkgate/mock';
import { expect, it } from 'vitest';
import { describeMock } from '../support/harness.js';
import { demoUser, manualClock } from '../support/management.js';

describeMock(
  'bad input',
  (ctx) => {
    it('answers malformed JSON with error 1 and changes nothing', async () => {
      const before = ctx.backend.store.snapshot();
      const res = await ctx.api('POST', '/api/domain/add', { rawBody: '{"domain": "https://a.example",' });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        error: 1,
        message: 'Invalid request: the body is not valid JSON; send a JSON object.',
        issues: ['body: must be valid JSON'],
      });
      expect(ctx.backend.store.snapshot()).toEqual(before);
    });

    it('refuses a body that is not sent as application/json', async () => {
      const before = ctx.backend.store.snapshot();
      const res = await ctx.api('POST', '/api/pixel/add', {
        rawBody: JSON.stringify({ type: 'gapixel', name: 'n', tag: 'G-123' }),
        headers: { 'content-type': 'text/plain' },
      });
      expect(res.json.error).toBe(1);
      expect(res.json.message).toBe(
        'Invalid request: Content-Type must be application/json (got "text/plain"); send the body as JSON with that header.',
      );
      expect(ctx.backend.store.snapshot()).toEqual(before);
    });

    it('accepts application/json with a charset', async () => {
      const res = await ctx.api('POST', '/api/pixel/add', {
        rawBody: JSON.stringify({ type: 'gapixel', name: 'n', tag: 'G-123' }),
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expect(res.json.error).toBe(0);
    });

    it.each(['[1,2]', 'null', '"text"', '42'])(
      'refuses the JSON body %s because it is not an object',
      async (rawBody) => {
        const res = await ctx.api('PUT', '/api/account/update', { rawBody });
        expect(res.json).toMatchObject({ error: 1, message: 'Invalid request: the body must be a JSON object.' });
      },
    );

    it.each([
      ['PUT', '/api/domain/abc/update', 'id', 'abc'],
      ['DELETE', '/api/pixel/1.5/delete', 'id', '1.5'],
      ['GET', '/api/qr/0', 'id', '0'],
      ['DELETE', '/api/domain/-3/delete', 'id', '-3'],
      ['GET', '/api/user/1e3', 'id', '1e3'],
      ['PUT', '/api/plan/pro/user/1', 'planid', 'pro'],
      ['PUT', '/api/plan/1/user/me', 'userid', 'me'],
    ])('refuses %s %s because %s is not a positive integer', async (method, path, name, value) => {
      const before = ctx.backend.store.snapshot();
      const res = await ctx.api(
        method,
        path,
        method === 'GET' || method === 'DELETE' ? {} : { body: { type: 'monthly' } },
      );
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        error: 1,
        message: `Invalid request: "${name}" must be a positive integer (got "${value}").`,
        issues: [`${name}: must be a positive integer`],
      });
      expect(ctx.backend.store.snapshot()).toEqual(before);
    });

    it('refuses a body over 1 MB with HTTP 413 and stores nothing', async () => {
      const before = ctx.backend.store.snapshot();
      const res = await ctx.api('POST', '/api/qr/add', {
        body: { type: 'text', data: 'x', name: 'y'.repeat(1_048_576) },
      });
      expect(res.status).toBe(413);
      expect(res.json.error).toBe(1);
      expect(res.json.message).toContain('1 MB');
      expect(ctx.backend.store.snapshot()).toEqual(before);
    });

    it('names every field of the wrong type', async () => {
      const alice = demoUser(ctx.backend, 'alice');
      const res = await ctx.api('PUT', '/api/domain/1/update', {
        key: alice.apikey,
        body: { redirectroot: true, redirect404: ['https://x.example'] },
      });
      expect(res.json).toEqual({
        error: 1,
        message: 'Invalid request: "redirectroot" must be a string; "redirect404" must be a string.',
        issues: ['redirectroot: must be a string', 'redirect404: must be a string'],
      });
    });
  },
  manualClock({ seed: 'demo' }),
);

it('refuses an over-1 MB body in the core itself, before reading it as JSON', async () => {
  const backend = createMockBackend({ clock: new ManualClock() });
  const res = await backend.handle({
    method: 'POST',
    path: '/api/domain/add',
    query: new URLSearchParams(),
    headers: { authorization: `Bearer ${backend.adminKey}`, 'content-type': 'application/json' },
    body: `{"domain":"https://a.example","pad":"${'é'.repeat(600_000)}"}`,
    origin: 'http://localhost',
  });
  expect(res.status).toBe(413);
  expect(JSON.parse(String(res.body))).toMatchObject({ error: 1, issues: ['body: must be at most 1 MB'] });
  expect(backend.store.domains.size).toBe(0);
});

it('answers any JSON body on every write endpoint with error 0 or 1, never a crash or a 500', async () => {
  const backend = createMockBackend({ clock: new ManualClock(), seed: 'demo', rateLimit: false });
  const writes: [string, string][] = [
    ['PUT', '/api/account/update'],
    ['POST', '/api/domain/add'],
    ['PUT', '/api/domain/1/update'],
    ['POST', '/api/pixel/add'],
    ['PUT', '/api/pixel/1/update'],
    ['POST', '/api/qr/add'],
    ['PUT', '/api/qr/1/update'],
    ['PUT', '/api/plan/2/user/3'],
    ['POST', '/api/user/add'],
  ];
  const field = fc.constantFrom(
    'type',
    'data',
    'name',
    'tag',
    'domain',
    'email',
    'password',
    'username',
    'planid',
    'expiration',
    'redirectroot',
    'background',
    'logo',
    'ssid',
  );
  const body = fc.oneof(fc.jsonValue(), fc.dictionary(field, fc.jsonValue()));
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...writes), body, async ([method, path], value) => {
      const res = await backend.handle({
        method,
        path,
        query: new URLSearchParams(),
        headers: { authorization: `Bearer ${backend.adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(value),
        origin: 'http://localhost',
      });
      expect(res.status).toBe(200);
      expect([0, 1]).toContain(JSON.parse(String(res.body)).error);
    }),
    { numRuns: 400 },
  );
});
