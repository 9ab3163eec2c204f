import type { Media } from '../schemas/events.js';

/** The largest attachment the gateway accepts: 1 MB = 1,048,576 bytes (spec, Media rules). */
export const MAX_MEDIA_BYTES = 1_048_576;

/** The attachment types the gateway accepts: JPEG, PNG and WebP photos, PDF documents (spec, Media rules). */
export const ACCEPTED_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;

/** The verdict of {@link isMediaAcceptable}. */
export type MediaVerdict =
  | { ok: true }
  | {
      ok: false;
      /** Which rule failed. */
      code: 'no_media' | 'unsupported_type' | 'too_large' | 'invalid_size';
      /** The rule in words. */
      reason: string;
    };

/**
 * Checks an attachment against the documented media rules: JPEG, PNG, WebP or PDF, at most 1 MB. The gateway drops
 * anything else (with a `media_error`), so a `false` here explains why an attachment did not arrive.
 *
 * @example
 * const verdict = isMediaAcceptable(event.data.media);
 * if (!verdict.ok) console.warn(verdict.reason);
 */
export function isMediaAcceptable(media: Pick<Media, 'mime_type' | 'file_size'> | undefined): MediaVerdict {
  // `message.received` carries `media` only when there is one, so an absent attachment gets a verdict, not a TypeError.
  if (typeof media !== 'object' || media === null) {
    return { ok: false, code: 'no_media', reason: 'There is no attachment: media is absent (has_media is false).' };
  }
  // "image/JPEG; name=x.jpg" is still a JPEG: compare the bare type, case-insensitively.
  const mime = String(media.mime_type ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  const type = mime === 'image/jpg' ? 'image/jpeg' : mime;
  if (!(ACCEPTED_MEDIA_TYPES as readonly string[]).includes(type)) {
    return {
      ok: false,
      code: 'unsupported_type',
      reason: `${mime || 'an unknown type'} is not accepted; the gateway takes JPEG, PNG and WebP photos and PDF documents (no video or voice notes).`,
    };
  }
  const size = media.file_size;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) {
    return { ok: false, code: 'invalid_size', reason: 'file_size must be a whole number of bytes >= 0.' };
  }
  if (size > MAX_MEDIA_BYTES) {
    return {
      ok: false,
      code: 'too_large',
      reason: `${size} bytes is over the 1 MB (${MAX_MEDIA_BYTES} bytes) limit for attachments.`,
    };
  }
  return { ok: true };
}
