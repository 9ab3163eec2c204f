import { describe, expect, it } from 'vitest';
import { decodeQrImage, WebhookVerificationError } from '../../src/webhooks/index.js';
import { deviceQr } from './support/fixtures.js';

describe('decodeQrImage returns the PNG of a device.qr frame', () => {
  it('decodes the data URI to PNG bytes, from the event or its data', async () => {
    const event = await deviceQr();
    const png = decodeQrImage(event);
    expect(png).toBeInstanceOf(Uint8Array);
    expect([...png.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(Buffer.from(png).equals(Buffer.from(event.data.qr_image_url.split(',')[1]!, 'base64'))).toBe(true);
    expect(decodeQrImage(event.data)).toEqual(png);
  });

  it('decodes the data URI string itself too', async () => {
    const event = await deviceQr();
    expect(decodeQrImage(event.data.qr_image_url)).toEqual(decodeQrImage(event));
  });

  it('refuses input without a qr_image_url with a clear invalid_payload error, not a TypeError', () => {
    for (const input of [null, 42, {}, { data: null }]) {
      expect(() => decodeQrImage(input as never)).toThrow(/qr_image_url must be a data URI/);
    }
  });

  it('refuses base64 that is not a PNG', async () => {
    const event = await deviceQr();
    const jpeg = { ...event.data, qr_image_url: `data:image/png;base64,${btoa('\xff\xd8\xff\xe0 not a png')}` };
    expect(() => decodeQrImage(jpeg)).toThrow(/PNG signature is missing/);
  });

  it('refuses invalid base64 and other URIs', async () => {
    const event = await deviceQr();
    expect(() => decodeQrImage({ ...event.data, qr_image_url: 'data:image/png;base64,@@@' })).toThrow(
      WebhookVerificationError,
    );
    expect(() => decodeQrImage({ ...event.data, qr_image_url: 'https://x.test/qr.png' })).toThrow(/must be a data URI/);
  });
});
