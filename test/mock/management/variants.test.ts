import { createMockBackend, ManualClock, type MockBackendOptions, PRODUCTION_VARIANT_NAMES } from 'linkgate/mock';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../mock/openapi/openapi-document.js';
import { OpenApiValidator } from '../../docs/support/openapi-validator.js';
import { type ApiResult, describeMock, type MockTestContext } from '../support/harness.js';
import { demoUser } from '../support/management.js';

const validator = new OpenApiValidator(buildOpenApiDocument());

/** The answer's JSON checked against the schema the OpenAPI document gives its operation and status. */
function documentProblems(method: string, path: string, res: ApiResult): string[] {
  const matched = validator.match(method, path);
  if (!matched) return [`${method} ${path} is not in the OpenAPI document`];
  const pointer = validator.responsePointer(matched, method, res.status);
  if (!pointer) return [`status ${res.status} of ${method} ${matched.template} is not documented`];
  return validator.check(pointer, res.json);
}

const withVariants = (variants: MockBackendOptions['variants']) => () => ({
  clock: new ManualClock(),
  seed: 'demo' as const,
  variants,
});

const overlays = (ctx: MockTestContext) =>
  ctx.api('GET', '/api/overlay', { key: demoUser(ctx.backend, 'alice').apikey });
const addDomain = (ctx: MockTestContext) =>
  ctx.api('POST', '/api/domain/add', { body: { domain: 'https://variant.example' } });
const addPixel = (ctx: MockTestContext) =>
  ctx.api('POST', '/api/pixel/add', { body: { type: 'gapixel', name: 'Analytics', tag: 'G-VARIANT1' } });
async function overLimit(ctx: MockTestContext): Promise<ApiResult> {
  for (let i = 0; i < 30; i++) await ctx.api('GET', '/api/account');
  return ctx.api('GET', '/api/account');
}

describeMock(
  'production variant overlayCollection',
  (ctx) => {
    it('answers GET /api/overlay under "overlay" instead of "cta", with the same items and paging', async () => {
      const res = await overlays(ctx);
      expect(res.json.data).not.toHaveProperty('cta');
      expect(res.json.data.overlay).toEqual([
        { id: 2, type: 'contact', name: 'Contact us', date: '2026-01-01 00:00:00' },
        { id: 1, type: 'message', name: 'Free shipping banner', date: '2026-01-01 00:00:00' },
      ]);
      expect(res.json.data).toMatchObject({ result: 2, perpage: 15, currentpage: 1, nextpage: null, maxpage: 1 });
      expect(documentProblems('GET', '/api/overlay', res)).toEqual([]);
    });

    it('leaves the other lists under their spec names', async () => {
      const res = await ctx.api('GET', '/api/splash', { key: demoUser(ctx.backend, 'alice').apikey });
      expect(res.json.data.splash).toHaveLength(2);
    });
  },
  withVariants(['overlayCollection']),
);

describeMock(
  'production variant stringIds',
  (ctx) => {
    it('answers POST /api/domain/add with the new id as a numeric string', async () => {
      const res = await addDomain(ctx);
      const row = [...ctx.backend.store.domains.values()].find((d) => d.domain === 'https://variant.example')!;
      expect(res.json).toEqual({ error: 0, id: String(row.id) });
      expect(res.text).toContain(`"id":"${row.id}"`);
      expect(documentProblems('POST', '/api/domain/add', res)).toEqual([]);
    });

    it('answers POST /api/pixel/add with the new id as a numeric string', async () => {
      const res = await addPixel(ctx);
      const row = [...ctx.backend.store.pixels.values()].find((p) => p.tag === 'G-VARIANT1')!;
      expect(res.json).toEqual({ error: 0, id: String(row.id) });
      expect(documentProblems('POST', '/api/pixel/add', res)).toEqual([]);
    });

    it('keeps ids numbers in lists, so the new id still finds its record', async () => {
      const { json } = await addDomain(ctx);
      const list = await ctx.api('GET', '/api/domains', { query: { limit: 100 } });
      expect(list.json.data.domains.map((d: { id: unknown }) => d.id)).toContain(Number(json.id));
    });
  },
  withVariants({ stringIds: true }),
);

describeMock(
  'production variant negativeRemaining',
  (ctx) => {
    it('sends X-RateLimit-Remaining: -1 on the over-limit answer', async () => {
      const res = await overLimit(ctx);
      expect(res.json).toMatchObject({ error: 429 });
      expect(res.headers.get('x-ratelimit-remaining')).toBe('-1');
      expect(documentProblems('GET', '/api/account', res)).toEqual([]);
    });

    it('still counts down to 0 on the admitted requests', async () => {
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 30; i++)
        remaining.push((await ctx.api('GET', '/api/account')).headers.get('x-ratelimit-remaining'));
      expect(remaining.at(-1)).toBe('0');
      expect(remaining).not.toContain('-1');
    });
  },
  withVariants(['negativeRemaining']),
);

describeMock(
  'production variants off (the default)',
  (ctx) => {
    it('keeps the spec’s shapes: "cta", numeric ids, Remaining clamped at 0', async () => {
      const list = await overlays(ctx);
      expect(list.json.data.cta).toHaveLength(2);
      expect(list.json.data).not.toHaveProperty('overlay');
      expect((await addDomain(ctx)).json.id).toEqual(expect.any(Number));
      expect((await addPixel(ctx)).json.id).toEqual(expect.any(Number));
      expect((await overLimit(ctx)).headers.get('x-ratelimit-remaining')).toBe('0');
    });
  },
  withVariants(undefined),
);

describeMock(
  'production variants together',
  (ctx) => {
    it('combine: each one changes its own answer', async () => {
      expect((await overlays(ctx)).json.data.overlay).toHaveLength(2);
      expect((await addDomain(ctx)).json.id).toEqual(expect.stringMatching(/^\d+$/));
      expect((await overLimit(ctx)).headers.get('x-ratelimit-remaining')).toBe('-1');
    });
  },
  withVariants([...PRODUCTION_VARIANT_NAMES]),
);

describe('the variants option', () => {
  it('is off by default and resolved to one flag per variant', () => {
    expect(createMockBackend().options.variants).toEqual({
      overlayCollection: false,
      stringIds: false,
      negativeRemaining: false,
      perAttemptDeliveryIds: false,
    });
    expect(createMockBackend({ variants: ['stringIds'] }).options.variants).toEqual({
      overlayCollection: false,
      stringIds: true,
      negativeRemaining: false,
      perAttemptDeliveryIds: false,
    });
    expect(createMockBackend({ variants: { overlayCollection: true, stringIds: false } }).options.variants).toEqual({
      overlayCollection: true,
      stringIds: false,
      negativeRemaining: false,
      perAttemptDeliveryIds: false,
    });
  });

  it.each([
    [
      ['overlays'],
      /unknown variant "overlays"; the known variants are overlayCollection, stringIds, negativeRemaining/,
    ],
    [{ stringId: true }, /unknown variant "stringId"; the known variants are overlayCollection, stringIds/],
    [[42], /unknown variant 42; the known variants are/],
    ['stringIds', /variants must be a list of names or an object of true\/false flags \(got "stringIds"\)/],
    [{ stringIds: 'yes' }, /variants\.stringIds must be true or false \(got "yes"\)/],
  ])('refuses %j with a TypeError naming the known variants', (variants, message) => {
    const make = () => createMockBackend({ variants: variants as MockBackendOptions['variants'] });
    expect(make).toThrow(TypeError);
    expect(make).toThrow(message);
  });
});
