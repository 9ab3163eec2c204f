import { expect, it } from 'vitest';
import { pagedEnvelope, Qr, QrCreatedEnvelope, QrDetailEnvelope } from '../../../src/schemas/index.js';
import { describeMock } from '../support/harness.js';
import { manualClock } from '../support/management.js';

describeMock(
  'QR codes',
  (ctx) => {
    it('adds a code and answers its id and a link the mock serves', async () => {
      const res = await ctx.api('POST', '/api/qr/add', { body: { type: 'link', data: 'https://example.com' } });
      expect(res.json).toMatchObject({ error: 0, id: 1 });
      expect(res.json.link).toMatch(new RegExp(`^${ctx.baseUrl}/api/qr/image/[0-9a-f]{20}\\.png$`));
      expect(QrCreatedEnvelope.safeParse(res.json).success).toBe(true);
    });

    it('lists codes under "qrs" and reads one with details and statistics', async () => {
      const add = await ctx.api('POST', '/api/qr/add', {
        body: { type: 'text', data: 'hello', background: 'rgb(255,255,255)', foreground: 'rgb(0,0,0)', name: 'Hi' },
      });
      const list = await ctx.api('GET', '/api/qr');
      expect(list.json.data.qrs).toEqual([
        { id: 1, link: add.json.link, scans: 0, name: 'Hi', date: '2026-01-01 00:00:00' },
      ]);
      expect(pagedEnvelope(Qr, ['qrs']).safeParse(list.json).success).toBe(true);
      const one = await ctx.api('GET', '/api/qr/1');
      expect(one.json.details).toEqual(list.json.data.qrs[0]);
      expect(one.json.data).toEqual({
        clicks: 0,
        uniqueClicks: 0,
        topCountries: {},
        topReferrers: {},
        topBrowsers: {},
        topOs: {},
        socialCount: { facebook: 0, twitter: 0, instagram: 0 },
      });
      expect(QrDetailEnvelope.safeParse(one.json).success).toBe(true);
    });

    it.each([
      ['text', 'plain words'],
      ['link', 'https://example.com/x'],
      ['email', 'a@example.com'],
      ['email', { email: 'a@example.com', subject: 'Hi', body: 'There' }],
      ['phone', '+15551234567'],
      ['sms', { phone: '15551234567', message: 'hi' }],
      ['wifi', { ssid: 'Cafe', pass: 'secret', encryption: 'WPA' }],
      ['vcard', { fname: 'Ada', lname: 'Lovelace', org: 'Engines' }],
    ])('accepts a %s code with data %j', async (type, data) => {
      const res = await ctx.api('POST', '/api/qr/add', { body: { type, data } });
      expect(res.json.error).toBe(0);
      expect(ctx.backend.store.qrs.get(res.json.id)?.data).toEqual(data);
    });

    it.each([
      ['no type', { data: 'x' }],
      ['no data', { type: 'text' }],
      ['an unknown type', { type: 'bitcoin', data: 'x' }],
      ['wifi data as a plain string', { type: 'wifi', data: 'Cafe' }],
      ['wifi without ssid', { type: 'wifi', data: { pass: 'x', encryption: 'WPA' } }],
      ['sms with a non-numeric phone', { type: 'sms', data: { phone: 'call me', message: 'x' } }],
      ['a link that is not a URL', { type: 'link', data: 'not a url' }],
      ['a phone with letters', { type: 'phone', data: '555-CALL' }],
      ['vcard fields that are not strings', { type: 'vcard', data: { fname: 5 } }],
      ['text too long for any QR code', { type: 'text', data: 'x'.repeat(3000) }],
    ])('refuses %s with "Invalid QR format or missing data." and stores nothing', async (_case, body) => {
      const before = ctx.backend.store.snapshot();
      const res = await ctx.api('POST', '/api/qr/add', { body });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ error: 1, message: 'Invalid QR format or missing data.' });
      expect(res.json.issues.length).toBeGreaterThan(0);
      expect(ctx.backend.store.snapshot()).toEqual(before);
    });

    it.each([
      [
        'an unknown type',
        { type: 'bitcoin', data: 'x' },
        `type: must be one of ${'"text", "link", "email", "phone", "sms", "wifi", "vcard"'}`,
      ],
      ['wifi data as a plain string', { type: 'wifi', data: 'Cafe' }, 'data: must be an object'],
      ['no data', { type: 'text' }, 'data: is required'],
    ])('names the field and the rule for %s, not the body as a whole', async (_case, body, issue) => {
      const res = await ctx.api('POST', '/api/qr/add', { body });
      expect(res.json).toMatchObject({ error: 1, message: 'Invalid QR format or missing data.', issues: [issue] });
    });

    it('refuses a logo that is not a PNG or JPEG', async () => {
      const res = await ctx.api('POST', '/api/qr/add', {
        body: { type: 'text', data: 'x', logo: 'https://example.com/logo.gif' },
      });
      expect(res.json).toMatchObject({ error: 1, message: 'Logo must be either a PNG or a JPEG (Max 500kb).' });
    });

    it.each(['red', 'rgb(256,0,0)', '#ff0000'])('refuses the colour %s naming the field', async (colour) => {
      const res = await ctx.api('POST', '/api/qr/add', { body: { type: 'text', data: 'x', foreground: colour } });
      expect(res.json.error).toBe(1);
      expect(res.json.message).toBe(
        'Invalid request: "foreground" must be a colour in the form rgb(R,G,B) with each channel 0-255.',
      );
    });

    it('updates data and colours, checking data against the stored type', async () => {
      const row = ctx.backend.store.addQr(1, { type: 'sms', data: { phone: '123456', message: 'a' } });
      const bad = await ctx.api('PUT', `/api/qr/${row.id}/update`, { body: { data: 'just text' } });
      expect(bad.json).toMatchObject({ error: 1, message: 'Invalid QR format or missing data.' });
      const ok = await ctx.api('PUT', `/api/qr/${row.id}/update`, {
        body: { data: { phone: '654321', message: 'b' }, background: 'rgb(1,2,3)' },
      });
      expect(ok.json).toEqual({ error: 0, message: 'QR has been updated successfully.' });
      expect(ctx.backend.store.qrs.get(row.id)).toMatchObject({
        data: { phone: '654321', message: 'b' },
        background: 'rgb(1,2,3)',
      });
    });

    it('honours a type in the update body', async () => {
      const row = ctx.backend.store.addQr(1, { type: 'text', data: 'x' });
      const res = await ctx.api('PUT', `/api/qr/${row.id}/update`, { body: { type: 'phone', data: '+123456' } });
      expect(res.json.error).toBe(0);
      expect(ctx.backend.store.qrs.get(row.id)).toMatchObject({ type: 'phone', data: '+123456' });
    });

    it('requires data on update', async () => {
      const row = ctx.backend.store.addQr(1, { type: 'text', data: 'x' });
      const res = await ctx.api('PUT', `/api/qr/${row.id}/update`, { body: {} });
      expect(res.json).toMatchObject({ error: 1, message: 'Invalid QR format or missing data.' });
    });

    it.each([
      ['GET', '/api/qr/7'],
      ['PUT', '/api/qr/7/update'],
      ['DELETE', '/api/qr/7/delete'],
    ])('answers "QR does not exist." to %s on an unknown id', async (method, path) => {
      const res = await ctx.api(method, path, method === 'PUT' ? { body: { data: 'x' } } : {});
      expect(res.json).toEqual({ error: 1, message: 'QR does not exist.' });
    });

    it('deletes a code', async () => {
      const row = ctx.backend.store.addQr(1, { type: 'text', data: 'x' });
      const res = await ctx.api('DELETE', `/api/qr/${row.id}/delete`);
      expect(res.json).toEqual({ error: 0, message: 'QR Code has been deleted successfully.' });
      expect(ctx.backend.store.qrs.size).toBe(0);
    });
  },
  manualClock({ rateLimit: false }),
);

describeMock(
  'QR statistics',
  (ctx) => {
    it('answers the statistics of a link code with counts as strings', async () => {
      const alice = [...ctx.backend.store.users.values()].find((u) => u.username === 'alice')!;
      const list = await ctx.api('GET', '/api/qr', { key: alice.apikey });
      const link = list.json.data.qrs.find((q: { name: string }) => q.name === 'Restaurant menu');
      const res = await ctx.api('GET', `/api/qr/${link.id}`, { key: alice.apikey });
      expect(res.json.details.scans).toBe(42);
      expect(res.json.data.clicks).toBe(42);
      expect(res.json.data.uniqueClicks).toBe(31);
      expect(Object.values(res.json.data.topCountries).every((v) => typeof v === 'string')).toBe(true);
      expect(res.json.data.socialCount).toEqual({ facebook: 7, twitter: 10, instagram: 2 });
      expect(QrDetailEnvelope.safeParse(res.json).success).toBe(true);
    });

    it('answers empty statistics for text and vCard codes, which have no short link', async () => {
      const row = ctx.backend.store.addQr(1, {
        type: 'vcard',
        data: { fname: 'A' },
        stats: { clicks: 9, uniqueClicks: 9 },
      });
      const res = await ctx.api('GET', `/api/qr/${row.id}`);
      expect(res.json.data).toMatchObject({ clicks: 0, uniqueClicks: 0, topCountries: {} });
    });
  },
  manualClock({ seed: 'demo' }),
);
