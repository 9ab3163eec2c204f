import { WebhookVerificationError } from './errors.js';

/** The gateway's documented payload ceiling is 1 MB of media; a delivery body above 1 MiB is refused. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/** A raw request body: the exact text or bytes the gateway sent (a Node `Buffer` is a `Uint8Array`). */
export type RawBody = string | Uint8Array | ArrayBuffer | ArrayBufferView;

const decoder = new TextDecoder('utf-8', { fatal: true });

const PARSED_BODY_HELP =
  'Pass the raw request body (the string or bytes exactly as received), not a parsed object: ' +
  'in a fetch handler use `await request.text()` or pass the Request itself; in Express mount ' +
  "`express.raw({ type: 'application/json' })` on the webhook route (or use toNodeHandler, which reads the body itself); " +
  'in Next.js pages/api set `export const config = { api: { bodyParser: false } }`. ' +
  'linkgate needs the raw body to enforce the size limit and to parse and validate the JSON itself.';

/** Turns a raw body into text, enforcing the size limit; refuses parsed objects with directions to the raw body. */
export function rawBodyText(body: unknown, maxBytes: number): string {
  if (typeof body === 'string') {
    // A UTF-16 unit is at most 3 UTF-8 bytes, so only long strings need an exact count.
    if (body.length * 3 > maxBytes && utf8Length(body) > maxBytes) throw tooLarge(maxBytes);
    return body;
  }
  let bytes: Uint8Array;
  if (body instanceof Uint8Array) bytes = body;
  else if (body instanceof ArrayBuffer) bytes = new Uint8Array(body);
  else if (ArrayBuffer.isView(body)) bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  else if (body === undefined || body === null) {
    throw new WebhookVerificationError('raw_body_required', `The webhook body is ${String(body)}. ${PARSED_BODY_HELP}`);
  } else {
    const what = typeof body === 'object' ? (Array.isArray(body) ? 'a parsed array' : 'a parsed object') : typeof body;
    throw new WebhookVerificationError('raw_body_required', `The webhook body was ${what}. ${PARSED_BODY_HELP}`);
  }
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  try {
    return decoder.decode(bytes);
  } catch {
    throw new WebhookVerificationError('invalid_json', 'The body is not valid UTF-8, so it cannot be JSON.');
  }
}

/**
 * Reads a web `Request` body, stopping as soon as it passes `maxBytes` (an honest `Content-Length` above the limit is
 * refused before reading), so an oversized body is never buffered whole.
 */
export async function readRequestText(request: Request, maxBytes: number): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return rawBodyText(concat(chunks, total), maxBytes);
}

/** Joins chunks into one byte array (no copy for a single chunk). */
export function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** The error for a body above the limit. */
export function tooLarge(maxBytes: number): WebhookVerificationError {
  return new WebhookVerificationError(
    'body_too_large',
    `The body is larger than ${maxBytes} bytes. Gateway deliveries are small; if yours are legitimately larger, raise maxBodyBytes.`,
  );
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair is one 4-byte code point.
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
