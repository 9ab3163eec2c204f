import { describe, expect, it } from 'vitest';
import { isMediaAcceptable } from '../../src/webhooks/index.js';
import { MAX_MEDIA_BYTES } from '../../src/webhooks/media.js';

describe('isMediaAcceptable applies the spec media rules', () => {
  it.each(['image/jpeg', 'image/png', 'image/webp', 'application/pdf', 'IMAGE/JPEG', 'image/png; name=a.png'])(
    'accepts %s up to 1 MB',
    (mime_type) => {
      expect(isMediaAcceptable({ mime_type, file_size: MAX_MEDIA_BYTES })).toEqual({ ok: true });
    },
  );

  it('puts the limit at exactly 1,048,576 bytes', () => {
    expect(MAX_MEDIA_BYTES).toBe(1_048_576);
    expect(isMediaAcceptable({ mime_type: 'image/png', file_size: 1_048_577 })).toMatchObject({
      ok: false,
      code: 'too_large',
      reason: expect.stringContaining('1048577 bytes is over the 1 MB'),
    });
  });

  it.each(['video/mp4', 'audio/ogg', 'image/gif', ''])('refuses %s with a reason', (mime_type) => {
    expect(isMediaAcceptable({ mime_type, file_size: 10 })).toMatchObject({
      ok: false,
      code: 'unsupported_type',
      reason: expect.stringContaining('JPEG, PNG and WebP photos and PDF documents'),
    });
  });

  it('answers a message without an attachment with a no_media verdict instead of throwing', () => {
    expect(isMediaAcceptable(undefined)).toMatchObject({ ok: false, code: 'no_media' });
  });

  it('refuses a size that is not a whole number of bytes', () => {
    expect(isMediaAcceptable({ mime_type: 'image/png', file_size: -1 })).toMatchObject({
      ok: false,
      code: 'invalid_size',
    });
    expect(isMediaAcceptable({ mime_type: 'image/png', file_size: 1.5 })).toMatchObject({
      ok: false,
      code: 'invalid_size',
    });
  });
});
