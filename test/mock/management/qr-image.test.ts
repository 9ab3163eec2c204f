import QRCode from 'qrcode';
import { expect, it } from 'vitest';
import { encodeQrContent } from '../../../mock/management/qr-content.js';
import { describeMock } from '../harness.js';
import { manualClock } from './helpers.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

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
      const view = new DataView(res.bytes.buffer, res.bytes.byteOffset);
      const modules = QRCode.create('https://example.com', { errorCorrectionLevel: 'M' }).modules.size;
      // IHDR width: (modules + 2 * 4 quiet-zone modules) * 8 px.
      expect(view.getUint32(16)).toBe((modules + 8) * 8);
    });

    it('draws the pixels of the encoded content in the chosen colours', async () => {
      const add = await ctx.api('POST', '/api/qr/add', {
        body: { type: 'text', data: 'hello', foreground: 'rgb(10,20,30)', background: 'rgb(250,240,230)' },
      });
      const res = await ctx.api('GET', new URL(add.json.link).pathname, { key: null });
      const png = res.bytes;
      const plte = indexOfChunk(png, 'PLTE');
      expect([...png.slice(plte + 8, plte + 14)]).toEqual([250, 240, 230, 10, 20, 30]);
      const pixels = await decodeRows(png);
      const matrix = QRCode.create('hello', { errorCorrectionLevel: 'M' }).modules;
      for (let my = 0; my < matrix.size; my++) {
        for (let mx = 0; mx < matrix.size; mx++) {
          const x = (mx + 4) * 8 + 4;
          const y = (my + 4) * 8 + 4;
          expect(pixels(x, y)).toBe(matrix.get(my, mx) ? 1 : 0);
        }
      }
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

function indexOfChunk(png: Uint8Array, type: string): number {
  let at = 8;
  const view = new DataView(png.buffer, png.byteOffset);
  while (at < png.length) {
    const length = view.getUint32(at);
    if (String.fromCharCode(...png.slice(at + 4, at + 8)) === type) return at;
    at += 12 + length;
  }
  throw new Error(`no ${type} chunk`);
}

/** Inflates the IDAT data of a 1-bit palette PNG and returns a pixel reader. */
async function decodeRows(png: Uint8Array): Promise<(x: number, y: number) => number> {
  const view = new DataView(png.buffer, png.byteOffset);
  const width = view.getUint32(16);
  const idat = indexOfChunk(png, 'IDAT');
  const data = png.slice(idat + 8, idat + 8 + view.getUint32(idat));
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream('deflate'));
  const raw = new Uint8Array(await new Response(stream).arrayBuffer());
  const rowBytes = Math.ceil(width / 8) + 1;
  return (x, y) => (raw[y * rowBytes + 1 + (x >> 3)]! >> (7 - (x & 7))) & 1;
}
