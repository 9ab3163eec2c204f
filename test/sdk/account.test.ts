import { BadRequestError, ValidationError } from 'linkgate';
import { describe, expect, it } from 'vitest';
import { rejectionOf, useMockApi } from './support/harness.js';

describe('client.account', () => {
  const ctx = useMockApi();
  const admin = () => [...ctx.backend.store.users.values()].find((u) => u.admin)!;

  it('get() reads the caller’s account record', async () => {
    const account = await ctx.client().account.get();
    expect(account).toMatchObject({ id: admin().id, username: 'admin', email: 'admin@example.com', status: 'free' });
    expect(account).not.toHaveProperty('apikey');
  });

  it('update() changes the email and password and returns the confirmation', async () => {
    const result = await ctx.client().account.update({ email: 'root@example.com', password: 'new-secret' });
    expect(result).toEqual({ message: 'Account has been successfully updated.' });
    expect(admin()).toMatchObject({ email: 'root@example.com', password: 'new-secret' });
  });

  it('update() rejects a short password before sending anything', async () => {
    const before = ctx.backend.store.snapshot();
    const error = await rejectionOf(ctx.client().account.update({ password: 'abc' }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: 'body.password', rule: 'must be at least 5 characters' });
    expect(ctx.backend.store.snapshot()).toEqual(before);
  });

  it('update() surfaces the service’s refusal of an email another user has as BadRequestError', async () => {
    ctx.backend.store.addUser({ username: 'other', email: 'taken@example.com' });
    const error = await rejectionOf(ctx.client().account.update({ email: 'taken@example.com' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toMatch(/already associated/);
  });
});
