import { NotFoundError, PermissionDeniedError, ValidationError } from 'linkgate';
import { describe, expect, it } from 'vitest';
import { rejectionOf, useMockApi } from './support/harness.js';

describe('client.plans', () => {
  const ctx = useMockApi();

  it('list() returns every plan', async () => {
    ctx.backend.store.addPlan({ name: 'Free' });
    ctx.backend.store.addPlan({ name: 'Pro', free: false, prices: { monthly: 9.99, yearly: 99, lifetime: 299 } });
    const plans = await ctx.client().plans.list();
    expect(plans.map((p) => p.name)).toEqual(['Free', 'Pro']);
    expect(plans[1]?.prices).toMatchObject({ monthly: 9.99 });
  });

  it('subscribe() puts a user on a plan with an explicit expiration', async () => {
    const plan = ctx.backend.store.addPlan({ name: 'Pro', free: false });
    const user = ctx.backend.store.addUser({ username: 'carol', email: 'carol@example.com' });
    const result = await ctx.client().plans.subscribe(plan.id, user.id, {
      type: 'monthly',
      expiration: '2027-01-01 00:00:00',
    });
    expect(result.message).toBe('User has been subscribed to this plan.');
    expect(ctx.backend.store.users.get(user.id)).toMatchObject({
      planid: plan.id,
      status: 'pro',
      expires: '2027-01-01 00:00:00',
    });
  });

  it('subscribe() to an unknown plan is a NotFoundError', async () => {
    const user = ctx.backend.store.addUser({ username: 'carol', email: 'carol@example.com' });
    expect(await rejectionOf(ctx.client().plans.subscribe(99, user.id, { type: 'yearly' }))).toBeInstanceOf(
      NotFoundError,
    );
  });

  it('subscribe() rejects a malformed expiration before sending', async () => {
    const error = await rejectionOf(ctx.client().plans.subscribe(1, 1, { type: 'yearly', expiration: 'tomorrow' }));
    expect(error).toMatchObject({ field: 'body.expiration' });
    expect(error).toBeInstanceOf(ValidationError);
  });

  it('list() as a normal user is a PermissionDeniedError', async () => {
    const user = ctx.backend.store.addUser({ username: 'carol', email: 'carol@example.com' });
    const error = await rejectionOf(ctx.client({ apiKey: user.apikey }).plans.list());
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect((error as PermissionDeniedError).status).toBe(403);
  });
});
