import { expect, it } from 'vitest';
import { Account, dataEnvelope, MessageEnvelope } from '../../../src/schemas/index.js';
import { describeMock } from '../support/harness.js';
import { addUserWithKey, manualClock } from '../support/management.js';

describeMock(
  'GET /api/account',
  (ctx) => {
    it("answers the caller's account record in the shape the SDK reads", async () => {
      const user = addUserWithKey(ctx.backend, 'carol');
      const res = await ctx.api('GET', '/api/account', { key: user.apikey });
      expect(res.status).toBe(200);
      expect(res.json.error).toBe(0);
      expect(res.json.data).toEqual({
        id: user.id,
        email: 'carol@example.com',
        username: 'carol',
        avatar: user.avatar,
        status: 'free',
        expires: null,
        registered: '2026-01-01 00:00:00',
      });
      expect(dataEnvelope(Account).safeParse(res.json).success).toBe(true);
    });

    it('never shows the API key or the password in the account record', async () => {
      const res = await ctx.api('GET', '/api/account');
      expect(res.text).not.toContain(ctx.backend.adminKey);
      expect(res.json.data).not.toHaveProperty('apikey');
      expect(res.json.data).not.toHaveProperty('password');
    });
  },
  manualClock(),
);

describeMock(
  'PUT /api/account/update',
  (ctx) => {
    it('changes the email and password and says so', async () => {
      const user = addUserWithKey(ctx.backend, 'carol');
      const res = await ctx.api('PUT', '/api/account/update', {
        key: user.apikey,
        body: { email: 'new@example.com', password: 'secret1' },
      });
      expect(res.json).toEqual({ error: 0, message: 'Account has been successfully updated.' });
      expect(MessageEnvelope.safeParse(res.json).success).toBe(true);
      expect(ctx.backend.store.users.get(user.id)).toMatchObject({ email: 'new@example.com', password: 'secret1' });
    });

    it('answers error 0 with "No changes were done" when no field is sent', async () => {
      const res = await ctx.api('PUT', '/api/account/update', { body: {} });
      expect(res.json).toEqual({ error: 0, message: 'No changes were done to the account.' });
    });

    it('also reads an absent body as no change', async () => {
      const res = await ctx.api('PUT', '/api/account/update');
      expect(res.json).toEqual({ error: 0, message: 'No changes were done to the account.' });
    });

    it.each([
      ['an invalid email', { email: 'not-an-email' }, 'Please enter a valid email.'],
      ['an email over 50 characters', { email: `${'a'.repeat(40)}@example.com` }, 'Please enter a valid email.'],
      ['a password under 5 characters', { password: 'abcd' }, 'Password must be at least 5 characters.'],
    ])('refuses %s and changes nothing', async (_case, body, message) => {
      const before = ctx.backend.store.snapshot();
      const res = await ctx.api('PUT', '/api/account/update', { body });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ error: 1, message });
      expect(ctx.backend.store.snapshot()).toEqual(before);
    });

    it("refuses another user's email, in any letter case", async () => {
      addUserWithKey(ctx.backend, 'carol');
      const res = await ctx.api('PUT', '/api/account/update', { body: { email: 'CAROL@example.com' } });
      expect(res.json).toEqual({ error: 1, message: 'An account is already associated with this email.' });
    });

    it('accepts the caller keeping their own email', async () => {
      const res = await ctx.api('PUT', '/api/account/update', { body: { email: 'admin@example.com' } });
      expect(res.json.error).toBe(0);
    });

    it('rejects a field of the wrong type naming the field and the rule', async () => {
      const before = ctx.backend.store.snapshot();
      const res = await ctx.api('PUT', '/api/account/update', { body: { email: 42 } });
      expect(res.json).toMatchObject({ error: 1, message: 'Invalid request: "email" must be a string.' });
      expect(ctx.backend.store.snapshot()).toEqual(before);
    });
  },
  manualClock(),
);
