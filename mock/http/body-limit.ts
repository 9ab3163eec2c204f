import type { MockResponse } from './types.js';

/** The largest request body the mock accepts, in bytes (1 MB, the documented media limit; nothing in the API needs more). */
export const MAX_BODY_BYTES = 1024 * 1024;

/** What the mock says when a body is over the limit, whichever layer notices first. */
export const BODY_TOO_LARGE_MESSAGE = `The request body is larger than 1 MB (${MAX_BODY_BYTES} bytes); send a smaller body.`;

/**
 * The answer to a request whose body is over {@link MAX_BODY_BYTES}: HTTP 413 with the error shape of the API the
 * path belongs to (`{ error: 1, message }` for management, `{ success: false, message, error }` for messaging).
 */
export function bodyTooLargeResponse(path: string): MockResponse {
  const body = path.startsWith('/api/v1/')
    ? { success: false, message: BODY_TOO_LARGE_MESSAGE, error: 'PAYLOAD_TOO_LARGE' }
    : { error: 1, message: BODY_TOO_LARGE_MESSAGE };
  return {
    status: 413,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}

/** True when a declared Content-Length is over the limit; an absent or malformed one is checked while reading instead. */
export function declaresTooLarge(contentLength: string | null | undefined): boolean {
  if (!contentLength) return false;
  const n = Number(contentLength);
  return Number.isFinite(n) && n > MAX_BODY_BYTES;
}
