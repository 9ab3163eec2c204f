import type { MockResponse } from './types.js';

// JSON is UTF-8 (RFC 8259); US-ASCII is a subset of it. Anything else would be read as mojibake, so it is refused.
const READABLE_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/**
 * The charset a `Content-Type` declares when the mock cannot read it (anything but UTF-8, in any spelling of case, or
 * its subset US-ASCII), else undefined. No charset means UTF-8.
 */
export function unreadableCharset(contentType: string | null | undefined): string | undefined {
  if (!contentType) return undefined;
  // Split on ';' and '=' rather than a regex over user input: linear whatever is sent.
  for (const part of contentType.split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    let value = part.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    return READABLE_CHARSETS.has(value.toLowerCase()) ? undefined : value.slice(0, 40);
  }
  return undefined;
}

/**
 * HTTP 415 for a body in a charset the mock cannot read, in the error shape of the API the path belongs to: the
 * management API's `{ error: 1, message, issues }`, the messaging API's `{ success: false, message, error }`, the
 * control API's `{ error, field, rule, message }`.
 */
export function unreadableCharsetResponse(path: string, charset: string): MockResponse {
  const rule = 'charset must be utf-8';
  const message = `The request body is declared as charset=${charset}, but the mock reads bodies as UTF-8 only; send the body encoded as UTF-8 (Content-Type: application/json; charset=utf-8, or no charset).`;
  let body: Record<string, unknown>;
  if (path.startsWith('/api/v1/')) body = { success: false, message, error: 'UNSUPPORTED_CHARSET' };
  else if (path.startsWith('/__mock')) body = { error: 'unsupported_media_type', field: 'Content-Type', rule, message };
  else body = { error: 1, message, issues: [`Content-Type: ${rule}`] };
  return { status: 415, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) };
}
