import { expect, it } from 'vitest';
import { encodeQrContent } from '../../../mock/management/qr-content.js';
import { describeMock } from '../support/harness.js';
import { manualClock } from '../support/management.js';
import { decodePalettePng, drawnModules, expectedModules, PNG_SIGNATURE } from '../support/png.js';

describeMock(
  'QR images',
  (ctx) => {
    it('serves a real PNG at the link of a new code, without an API key', async () => {
      const add = await ctx.api('POST', '/api/qr/add', { body: { type: 'link', data: 'https://example.com' } });
      const path = new URL(add.json.link).pathname;
      const res = await ctx.api('GET', path, { key: null });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect([...res.bytes.slice(0, 8)]).toEqual(PNG_SIGNATURE);
      const image = await decodePalettePng(res.bytes);
      const modules = expectedModules('https://example.com', 'M').length;
      // (modules + 2 * 4 quiet-zone modules) * 8 px.
      expect([image.width, image.height]).toEqual([(modules + 8) * 8, (modules + 8) * 8]);
    });

    it('draws the pixels of the encoded content in the chosen colours', async () => {
      const add = await ctx.api('POST', '/api/qr/add', {
        body: { type: 'text', data: 'hello', foreground: 'rgb(10,20,30)', background: 'rgb(250,240,230)' },
      });
      const res = await ctx.api('GET', new URL(add.json.link).pathname, { key: null });
      const image = await decodePalettePng(res.bytes);
      expect(image.palette).toEqual([
        [250, 240, 230],
        [10, 20, 30],
      ]);
      const expected = expectedModules('hello', 'M');
      expect(drawnModules(image, expected.length, 8)).toEqual(expected);
    });

    it('answers 404 for a link whose code was deleted', async () => {
      const add = await ctx.api('POST', '/api/qr/add', { body: { type: 'text', data: 'x' } });
      await ctx.api('DELETE', `/api/qr/${add.json.id}/delete`);
      const res = await ctx.api('GET', new URL(add.json.link).pathname, { key: null });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 1, message: 'QR does not exist.' });
    });
  },
  manualClock(),
);

it.each([
  ['email', 'a@example.com', 'mailto:a@example.com'],
  [
    'email',
    { email: 'a@example.com', subject: 'Hi there', body: 'x&y' },
    'mailto:a@example.com?subject=Hi%20there&body=x%26y',
  ],
  ['phone', '+15551234', 'tel:+15551234'],
  ['sms', { phone: '15551234', message: 'on my way' }, 'smsto:15551234:on my way'],
  ['wifi', { ssid: 'Cafe;1', pass: 'p:w', encryption: 'WPA' }, 'WIFI:S:Cafe\\;1;T:WPA;P:p\\:w;;'],
  ['text', 'hello', 'hello'],
  ['link', 'https://example.com', 'https://example.com'],
] as const)('encodes %s data %j as %s', (type, data, expected) => {
  expect(encodeQrContent(type, data)).toBe(expected);
});

it('encodes vcard data as vCard 3.0', () => {
  const text = encodeQrContent('vcard', {
    fname: 'Ada',
    lname: 'Lovelace',
    org: 'Engines, Ltd',
    phone: '+441234',
    city: 'London',
  });
  expect(text.split('\r\n')).toEqual([
    'BEGIN:VCARD',
    'VERSION:3.0',
    'N:Lovelace;Ada;;;',
    'FN:Ada Lovelace',
    'ORG:Engines\\, Ltd',
    'TEL;TYPE=WORK,VOICE:+441234',
    'ADR;TYPE=WORK:;;;London;;;',
    'END:VCARD',
  ]);
});
