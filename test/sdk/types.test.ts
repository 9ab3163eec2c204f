import type { Account, APIPromise, Domain, Linkgate, Page, PagePromise, Pixel, Plan, QrStats, User } from 'linkgate';
import { describe, expectTypeOf, it } from 'vitest';

// Compile-time contract: `npm run typecheck` fails if a line marked @ts-expect-error starts compiling.
// The function is never called; only its types matter.
function compileTimeChecks(client: Linkgate) {
  // @ts-expect-error: unknown pixel provider
  client.pixels.create({ type: 'myspace', name: 'x', tag: 'abc' });
  // @ts-expect-error: pixel tag is required
  client.pixels.create({ type: 'gapixel', name: 'x' });
  // @ts-expect-error: unknown QR type
  client.qr.create({ type: 'video', data: 'x' });
  // @ts-expect-error: wifi data must be an object
  client.qr.create({ type: 'wifi', data: 'Office' });
  // @ts-expect-error: domain is required
  client.domains.create({ redirectroot: 'https://example.com' });
  // @ts-expect-error: password is required
  client.users.create({ username: 'dave', email: 'd@example.com' });
  // @ts-expect-error: subscription type must be monthly, yearly or lifetime
  client.plans.subscribe(1, 2, { type: 'weekly' });
  // @ts-expect-error: ids are numbers
  client.domains.delete('3');
  // @ts-expect-error: users filter is admin, free or pro
  client.users.list({ filter: 'banned' });
  // Valid calls compile.
  client.qr.create({ type: 'sms', data: { phone: '+15551234', message: 'hi' } });
  client.qr.create({ type: 'link', data: 'https://example.com', foreground: 'rgb(0,0,0)' });
  client.pixels.create({ type: 'gtmpixel', name: 'GTM', tag: 'GTM-ABC123' });
}

describe('types', () => {
  it('infers results from the shared schemas', () => {
    expectTypeOf(compileTimeChecks).toBeFunction();
    expectTypeOf<ReturnType<Linkgate['account']['get']>>().toEqualTypeOf<APIPromise<Account>>();
    expectTypeOf<ReturnType<Linkgate['domains']['list']>>().toEqualTypeOf<PagePromise<Domain>>();
    expectTypeOf<Awaited<ReturnType<Linkgate['pixels']['list']>>>().toEqualTypeOf<Page<Pixel>>();
    expectTypeOf<Awaited<ReturnType<Linkgate['plans']['list']>>>().toEqualTypeOf<Plan[]>();
    expectTypeOf<Awaited<ReturnType<Linkgate['users']['get']>>>().toEqualTypeOf<User>();
    expectTypeOf<Awaited<ReturnType<Linkgate['qr']['get']>>['stats']>().toEqualTypeOf<QrStats>();
    expectTypeOf<Awaited<ReturnType<Linkgate['qr']['create']>>>().toEqualTypeOf<{ id: number; link: string }>();
    expectTypeOf<Awaited<ReturnType<Linkgate['users']['create']>>>().toEqualTypeOf<{
      id: number;
      email: string;
      username: string;
    }>();
  });
});
