import { BadRequestError, NotFoundError, ValidationError } from 'linkgate';
import { describe, expect, it } from 'vitest';
import { rejectionOf, useMockApi } from './support/harness.js';

describe('client.users', () => {
  const ctx = useMockApi();

  it('list() returns every user, and filters by admin, free or pro', async () => {
    ctx.backend.store.addUser({ username: 'alice', email: 'alice@example.com', status: 'pro' });
    ctx.backend.store.addUser({ username: 'bobby', email: 'bob@example.com' });
    const client = ctx.client();
    expect((await client.users.list()).map((u) => u.username).sort()).toEqual(['admin', 'alice', 'bobby']);
    expect((await client.users.list({ filter: 'pro' })).map((u) => u.username)).toEqual(['alice']);
    expect((await client.users.list({ filter: 'admin' })).map((u) => u.username)).toEqual(['admin']);
    expect((await client.users.list({ filter: 'free' })).map((u) => u.username).sort()).toEqual(['admin', 'bobby']);
  });

  it('get() reads one user including plan id and API key', async () => {
    const row = ctx.backend.store.addUser({ username: 'alice', email: 'alice@example.com' });
    const user = await ctx.client().users.get(row.id);
    expect(user).toMatchObject({ id: row.id, username: 'alice', apikey: row.apikey });
  });

  it('create() registers a user and returns id, email and username', async () => {
    const created = await ctx
      .client()
      .users.create({ username: 'dave_1', email: 'dave@example.com', password: 'secret1' });
    expect(created).toEqual({ id: expect.any(Number), email: 'dave@example.com', username: 'dave_1' });
    expect(ctx.backend.store.users.get(created.id)?.username).toBe('dave_1');
  });

  it('create() of a taken username is a BadRequestError from the service', async () => {
    const error = await rejectionOf(
      ctx.client().users.create({ username: 'admin', email: 'x@example.com', password: 'secret1' }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toMatch(/Username already exists/);
  });

  it('create() rejects a 4-character password before sending', async () => {
    const error = await rejectionOf(
      ctx.client().users.create({ username: 'dave_1', email: 'dave@example.com', password: 'abcd' }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field: 'body.password', rule: 'must be at least 5 characters' });
    expect(ctx.backend.store.users.size).toBe(1);
  });

  it('delete() removes the user; get() afterwards is a NotFoundError', async () => {
    const row = ctx.backend.store.addUser({ username: 'alice', email: 'alice@example.com' });
    const client = ctx.client();
    expect((await client.users.delete(row.id)).message).toBe('User has been deleted.');
    expect(await rejectionOf(client.users.get(row.id))).toBeInstanceOf(NotFoundError);
  });
});
