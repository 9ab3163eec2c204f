import { expect, it } from 'vitest';
import { QrLogo } from '../../../src/schemas/qr.js';
import { describeMock } from '../support/harness.js';
import { manualClock } from '../support/management.js';

// 100 KB of the shapes that make a backtracking regex quadratic: a run the pattern re-scans from every start, then a
// character that makes the end fail. The QR logo rule took ~18 s on the first one.
const KB100 = 100 * 1024;
const repeat = (unit: string, tail = '') => unit.repeat(Math.ceil(KB100 / unit.length)) + tail;

const CRAFTED: [string, string, Record<string, unknown>][] = [
  ['a QR logo of ".png?" and a newline', '/api/qr/add', { type: 'text', data: 'x', logo: repeat('.png?', '\n') }],
  [
    'a QR logo of ".jpeg" and a letter',
    '/api/qr/add',
    { type: 'link', data: 'https://a.example', logo: repeat('.jpeg', 'x') },
  ],
  ['a QR colour of spaces', '/api/qr/add', { type: 'text', data: 'x', background: `rgb(${repeat(' ', '1,2,3)x')}` }],
  ['a QR phone of digits', '/api/qr/add', { type: 'phone', data: repeat('1', 'x') }],
  ['a QR link of slashes', '/api/qr/add', { type: 'link', data: `https://a.example${repeat('/', 'x')}` }],
  ['a domain of dots', '/api/domain/add', { domain: `https://${repeat('a.', '!')}` }],
  ['a redirect of slashes', '/api/domain/add', { domain: 'https://go.a.example', redirectroot: repeat('/', '\n') }],
  ['a pixel tag of digits', '/api/pixel/add', { type: 'fbpixel', name: 'n', tag: repeat('1', 'x') }],
  ['a pixel name of letters', '/api/pixel/add', { type: 'gapixel', name: repeat('a'), tag: 'G-1' }],
  [
    'a user email of word-dot pairs',
    '/api/user/add',
    { username: 'crafty', email: `a@${repeat('aa.', '!')}`, password: 'secret' },
  ],
  [
    'a username of word characters',
    '/api/user/add',
    { username: repeat('a', '!'), email: 'c@a.example', password: 'secret' },
  ],
  [
    'a planid of digits',
    '/api/user/add',
    { username: 'crafty', email: 'c@a.example', password: 'secret', planid: repeat('1', 'x') },
  ],
  [
    'an expiration of digits',
    '/api/user/add',
    { username: 'crafty', email: 'c@a.example', password: 'secret', expiration: repeat('1', 'x') },
  ],
];

describeMock(
  'crafted input',
  (ctx) => {
    it.each(CRAFTED)('refuses %s (100 KB) in under 100 ms and stores nothing', async (_case, path, body) => {
      const before = ctx.backend.store.snapshot();
      await ctx.api('POST', path, { body: {} }); // warms the route, so the clock times the rules alone
      // The fastest of up to five: the machine is shared and may pause any one request, but a rule that is quadratic in
      // the length is never fast (the logo took ~18 s).
      let fastest = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 5 && fastest >= 100; i++) {
        const started = performance.now();
        const res = await ctx.api('POST', path, { body });
        fastest = Math.min(fastest, performance.now() - started);
        expect(res.json.error).toBe(1);
      }
      expect(fastest).toBeLessThan(100);
      expect(ctx.backend.store.snapshot()).toEqual(before);
    });
  },
  manualClock({ seed: 'demo' }),
);

it('checks a 1 MB QR logo in linear time', () => {
  const started = performance.now();
  expect(QrLogo.safeParse(`${'.png?'.repeat(200_000)}\n`).success).toBe(false);
  expect(QrLogo.safeParse(`${'.jpg'.repeat(250_000)}x`).success).toBe(false);
  expect(performance.now() - started).toBeLessThan(2_000); // hours when quadratic; generous for a loaded machine
});
