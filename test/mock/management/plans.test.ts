import { ManualClock } from 'linkgate/mock';
import { expect, it } from 'vitest';
import * as z from 'zod/mini';
import { dataEnvelope, Plan } from '../../../src/schemas/index.js';
import { describeMock } from '../support/harness.js';
import { demoUser, manualClock } from '../support/management.js';

describeMock(
  'plans',
  (ctx) => {
    it('lists the plans, not paged, with realistic limits', async () => {
      const res = await ctx.api('GET', '/api/plans');
      expect(res.json.error).toBe(0);
      expect(res.json.data.map((p: { name: string }) => p.name)).toEqual(['Free', 'Pro']);
      expect(res.json.data[0]).toMatchObject({ free: true, prices: null });
      expect(res.json.data[1].prices).toEqual({ monthly: 9.99, yearly: 99, lifetime: 299 });
      expect(res.json.data[1].limits.domain).toEqual({ enabled: '1', count: '5' });
      expect(dataEnvelope(z.array(Plan)).safeParse(res.json).success).toBe(true);
    });

    it.each([
      ['monthly', '2026-02-01 00:00:00'],
      ['yearly', '2027-01-01 00:00:00'],
      ['lifetime', '2036-01-01 00:00:00'],
    ])('derives the expiry of a %s subscription from now', async (type, expires) => {
      const bob = demoUser(ctx.backend, 'bob_smith');
      const res = await ctx.api('PUT', `/api/plan/2/user/${bob.id}`, { body: { type } });
      expect(res.json).toEqual({ error: 0, message: 'User has been subscribed to this plan.' });
      expect(ctx.backend.store.users.get(bob.id)).toMatchObject({ planid: 2, status: 'pro', expires });
    });

    it('lets an explicit expiration win over the derived one', async () => {
      const bob = demoUser(ctx.backend, 'bob_smith');
      await ctx.api('PUT', `/api/plan/2/user/${bob.id}`, {
        body: { type: 'yearly', expiration: '2030-06-15 12:00:00' },
      });
      expect(ctx.backend.store.users.get(bob.id)?.expires).toBe('2030-06-15 12:00:00');
    });

    it('makes a user free again on the free plan', async () => {
      const alice = demoUser(ctx.backend, 'alice');
      await ctx.api('PUT', `/api/plan/1/user/${alice.id}`, { body: { type: 'monthly' } });
      expect(ctx.backend.store.users.get(alice.id)).toMatchObject({ planid: 1, status: 'free' });
    });

    it.each([
      ['no type', {}],
      ['an unknown type', { type: 'weekly' }],
    ])('answers the type message to %s and changes nothing', async (_case, body) => {
      const before = ctx.backend.store.snapshot();
      const res = await ctx.api('PUT', '/api/plan/2/user/3', { body });
      expect(res.json).toMatchObject({ error: 1, message: 'API request is missing the type parameter.' });
      expect(ctx.backend.store.snapshot()).toEqual(before);
    });

    it.each(['2026-13-01 00:00:00', '2026-02-30 10:00:00', 'tomorrow'])(
      'refuses the expiration %s',
      async (expiration) => {
        const res = await ctx.api('PUT', '/api/plan/2/user/3', { body: { type: 'monthly', expiration } });
        expect(res.json.error).toBe(1);
        expect(res.json.message).toMatch(
          /^Invalid request: "expiration" must be a (real )?date in the form YYYY-MM-DD HH:MM:SS\.$/,
        );
      },
    );

    it('answers "Plan does not exist." and "User does not exist."', async () => {
      expect((await ctx.api('PUT', '/api/plan/9/user/3', { body: { type: 'monthly' } })).json).toEqual({
        error: 1,
        message: 'Plan does not exist.',
      });
      expect((await ctx.api('PUT', '/api/plan/2/user/99', { body: { type: 'monthly' } })).json).toEqual({
        error: 1,
        message: 'User does not exist.',
      });
    });
  },
  manualClock({ seed: 'demo' }),
);

describeMock(
  'subscription months',
  (ctx) => {
    it('clamps a monthly expiry to the end of a shorter month', async () => {
      const res = await ctx.api('PUT', '/api/plan/1/user/1', { body: { type: 'monthly' } });
      expect(res.json.error).toBe(0);
      expect(ctx.backend.store.users.get(1)?.expires).toBe('2026-02-28 09:30:00');
    });
  },
  () => ({ clock: new ManualClock(Date.UTC(2026, 0, 31, 9, 30)), seed: 'demo' }),
);
