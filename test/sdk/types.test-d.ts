// The SDK's compile-time contract, checked by `npm test` (vitest's typecheck runs tsc over *.test-d.ts files): a line
// marked @ts-expect-error that starts compiling, or an expectTypeOf that no longer holds, fails the run.
import type {
  Account,
  APIPromise,
  Domain,
  Linkgate,
  LinkgateTypes,
  Overlay,
  Page,
  PagePromise,
  Pixel,
  Plan,
  Qr,
  QrStats,
  SendMessageResult,
  Splash,
  User,
} from 'linkgate';
import type { MessageReceivedEvent } from 'linkgate/webhooks';
import { describe, expectTypeOf, it } from 'vitest';
import type * as z from 'zod/mini';
import type { PlanSubscription } from '../../src/schemas/plan.js';

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

// Records the service sends are closed to the type checker: a typo in a field name does not compile.
function closedRecordChecks(
  d: Domain,
  a: Account,
  u: User,
  p: Pixel,
  q: Qr,
  s: QrStats,
  plan: Plan,
  o: Overlay,
  e: MessageReceivedEvent,
) {
  // @ts-expect-error: `redirectrot` is a typo of `redirectroot`
  d.redirectrot;
  // @ts-expect-error: `emial` is a typo of `email`
  a.emial;
  // @ts-expect-error: `apiKey` is spelled `apikey`
  u.apiKey;
  // @ts-expect-error: `tags` is a typo of `tag`
  p.tags;
  // @ts-expect-error: `scan` is a typo of `scans`
  q.scan;
  // @ts-expect-error: `uniqueclicks` is spelled `uniqueClicks`
  s.uniqueclicks;
  // @ts-expect-error: `limits.domains` is spelled `domain`
  plan.limits.domains;
  // @ts-expect-error: `prices.month` is spelled `monthly`
  plan.prices?.month;
  // @ts-expect-error: `nme` is a typo of `name`
  o.nme;
  // @ts-expect-error: `sendr` is a typo of `sender` (webhook payloads are closed too)
  e.data.sendr;
  // Fields the server adds are still there at run time; read them as a record.
  return (d as Record<string, unknown>).added;
}

describe('types', () => {
  it('infers results from the shared schemas', () => {
    expectTypeOf(compileTimeChecks).toBeFunction();
    expectTypeOf(closedRecordChecks).toBeFunction();
    expectTypeOf<keyof Domain>().toEqualTypeOf<'id' | 'domain' | 'redirectroot' | 'redirect404'>();
    expectTypeOf<keyof Pixel>().toEqualTypeOf<'id' | 'type' | 'name' | 'tag' | 'date'>();
    expectTypeOf<keyof Splash>().toEqualTypeOf<'id' | 'name' | 'date'>();
    expectTypeOf<keyof NonNullable<SendMessageResult['data']>>().toEqualTypeOf<
      'message_id' | 'device_id' | 'phone' | 'status'
    >();
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

describe('request bodies written out for the declaration bundler', () => {
  it('keeps plans.subscribe’s body the same as the PlanSubscription schema’s output', () => {
    expectTypeOf<LinkgateTypes.PlanSubscriptionBody>().toEqualTypeOf<z.output<typeof PlanSubscription>>();
  });
});
