import { expect, it } from 'vitest';
import * as z from 'zod/mini';
import { dataEnvelope, User, UserCreatedEnvelope } from '../../../src/schemas/index.js';
import { describeMock } from '../support/harness.js';
import { demoUser, manualClock } from '../support/management.js';

const NEW_USER = { username: 'dave_1', email: 'dave@example.com', password: 'secret' };

describeMock(
  'users',
  (ctx) => {
    it('lists every user with plan and API key when no filter is given', async () => {
      const res = await ctx.api('GET', '/api/users');
      expect(res.json.error).toBe(0);
      expect(res.json.data.map((u: { username: string }) => u.username)).toEqual(['admin', 'alice', 'bob_smith']);
      expect(res.json.data[1]).toMatchObject({
        planid: 2,
        status: 'pro',
        apikey: demoUser(ctx.backend, 'alice').apikey,
      });
      expect(dataEnvelope(z.array(User)).safeParse(res.json).success).toBe(true);
    });

    it.each([
      ['admin', ['admin']],
      ['pro', ['admin', 'alice']],
      ['free', ['bob_smith']],
    ])('filters by %s', async (filter, names) => {
      const res = await ctx.api('GET', '/api/users', { query: { filter } });
      expect(res.json.data.map((u: { username: string }) => u.username)).toEqual(names);
    });

    it('refuses an unknown filter naming the allowed values', async () => {
      const res = await ctx.api('GET', '/api/users', { query: { filter: 'vip' } });
      expect(res.json).toMatchObject({
        error: 1,
        message: 'Invalid request: "filter" must be one of "admin", "free", "pro".',
      });
    });

    it('reads one user', async () => {
      const alice = demoUser(ctx.backend, 'alice');
      const res = await ctx.api('GET', `/api/user/${alice.id}`);
      expect(res.json.data).toMatchObject({ id: alice.id, username: 'alice', apikey: alice.apikey, planid: 2 });
      expect(dataEnvelope(User).safeParse(res.json).success).toBe(true);
    });

    it('adds a user with a generated 32-hex API key that works at once', async () => {
      const res = await ctx.api('POST', '/api/user/add', { body: NEW_USER });
      expect(res.json).toEqual({
        error: 0,
        message: 'User has been registered.',
        data: { id: 4, email: 'dave@example.com', username: 'dave_1' },
      });
      expect(UserCreatedEnvelope.safeParse(res.json).success).toBe(true);
      const record = await ctx.api('GET', '/api/user/4');
      expect(record.json.data.apikey).toMatch(/^[0-9a-f]{32}$/);
      expect(record.json.data).toMatchObject({
        planid: 1,
        status: 'free',
        expires: null,
        registered: '2026-01-01 00:00:00',
      });
      const account = await ctx.api('GET', '/api/account', { key: record.json.data.apikey });
      expect(account.json.data.username).toBe('dave_1');
    });

    it('puts a new user on the plan and expiration given', async () => {
      await ctx.api('POST', '/api/user/add', { body: { ...NEW_USER, planid: 2, expiration: '2027-01-01 00:00:00' } });
      expect(ctx.backend.store.users.get(4)).toMatchObject({
        planid: 2,
        status: 'pro',
        expires: '2027-01-01 00:00:00',
      });
    });

    it.each([
      ['no username', { email: 'd@example.com', password: 'secret' }, 'Invalid request or incorrect data format.'],
      ['no email', { username: 'dave', password: 'secret' }, 'Invalid request or incorrect data format.'],
      ['no password', { username: 'dave', email: 'd@example.com' }, 'Invalid request or incorrect data format.'],
      ['a numeric username', { ...NEW_USER, username: 1234 }, 'Invalid request or incorrect data format.'],
      ['a short username', { ...NEW_USER, username: 'abc' }, 'Please enter a valid username.'],
      ['a username with spaces', { ...NEW_USER, username: 'dave smith' }, 'Please enter a valid username.'],
      ['a taken username', { ...NEW_USER, username: 'Alice' }, 'Username already exists.'],
      ['an invalid email', { ...NEW_USER, email: 'dave@' }, 'Please enter a valid email.'],
      [
        'a taken email',
        { ...NEW_USER, email: 'ALICE@example.com' },
        'An account is already associated with this email.',
      ],
      ['a short password', { ...NEW_USER, password: '1234' }, 'Password must be at least 5 characters.'],
      ['an unknown plan', { ...NEW_USER, planid: 9 }, 'Plan does not exist.'],
    ])('refuses %s and stores nothing', async (_case, body, message) => {
      const before = ctx.backend.store.snapshot();
      const res = await ctx.api('POST', '/api/user/add', { body });
      expect(res.json).toMatchObject({ error: 1, message });
      expect(ctx.backend.store.snapshot()).toEqual(before);
    });

    it.each([
      ['two', 'must be an integer or a string of digits'],
      [2.5, 'must be an integer'],
      [true, 'must be a number or a string'],
    ])('names the field when planid is %j', async (planid, rule) => {
      const res = await ctx.api('POST', '/api/user/add', { body: { ...NEW_USER, planid } });
      expect(res.json.message).toBe(`Invalid request: "planid" ${rule}.`);
    });

    it('deletes a user and everything they own', async () => {
      const alice = demoUser(ctx.backend, 'alice');
      const res = await ctx.api('DELETE', `/api/user/${alice.id}/delete`);
      expect(res.json).toEqual({ error: 0, message: 'User has been deleted.' });
      const { store } = ctx.backend;
      expect(store.users.has(alice.id)).toBe(false);
      for (const table of [store.domains, store.pixels, store.qrs, store.splash, store.overlays]) {
        expect([...table.values()].filter((row) => row.userId === alice.id)).toEqual([]);
      }
      expect(store.domains.size).toBeGreaterThan(0); // bob's records stay
      const gone = await ctx.api('GET', '/api/account', { key: alice.apikey });
      expect(gone.status).toBe(403);
    });

    it('refuses to delete the calling admin', async () => {
      const res = await ctx.api('DELETE', '/api/user/1/delete');
      expect(res.json.error).toBe(1);
      expect(ctx.backend.store.users.has(1)).toBe(true);
    });

    it.each([
      ['GET', '/api/user/99'],
      ['DELETE', '/api/user/99/delete'],
    ])('answers "User does not exist." to %s on an unknown id', async (method, path) => {
      const res = await ctx.api(method, path);
      expect(res.json).toEqual({ error: 1, message: 'User does not exist.' });
    });
  },
  manualClock({ seed: 'demo' }),
);
