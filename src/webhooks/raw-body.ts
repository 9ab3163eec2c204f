import type { Clock } from '../shared/clock.js';
import { WebhookVerificationError } from './webhook-errors.js';

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
  return bytesText(bytes, maxBytes);
}

/**
 * Bytes to UTF-8 text, enforcing the size limit: all a `Request` body needs, so a receiver reading Requests does not
 * ship the directions for parsed objects.
 */
function bytesText(bytes: Uint8Array, maxBytes: number): string {
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  try {
    return decoder.decode(bytes);
  } catch {
    throw new WebhookVerificationError('invalid_json', 'The body is not valid UTF-8, so it cannot be JSON.');
  }
}

/**
 * The gateway abandons an attempt after 8 s, so a body still arriving by then can no longer be acknowledged in time:
 * reading stops there and the delivery is refused with `body_timeout` (408).
 */
export const DEFAULT_BODY_TIMEOUT_MS = 8000;

/** How long a body may take to arrive, and the clock that times it. */
export interface BodyDeadline {
  /** Milliseconds from the start of reading to the body's end. */
  timeoutMs: number;
  /** Where the timer comes from (a `ManualClock` in tests). */
  clock: Pick<Clock, 'setTimeout'>;
}

/**
 * Reads a web `Request` body, stopping as soon as it passes `maxBytes` (an honest `Content-Length` above the limit is
 * refused before reading) or when it has not ended within the deadline, so an oversized or never-ending body is never
 * buffered whole nor waited for forever.
 */
export async function readRequestText(request: Request, maxBytes: number, deadline: BodyDeadline): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  if (request.bodyUsed) throw bodyAlreadyRead();
  if (request.body === null) return '';
  const reader = request.body.getReader();
  let timedOut = false;
  // Cancelling ends the pending read (done: true) and tells the source to stop, so its buffers are freed.
  const timer = deadline.clock.setTimeout(
    () => {
      timedOut = true;
      reader.cancel(bodyTimedOut(deadline.timeoutMs)).catch(() => {});
    },
    deadline.timeoutMs,
    // The handler awaits this read: a plain script must not exit under it.
    { keepAlive: true },
  );
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read().catch((error: unknown) => {
        throw error instanceof WebhookVerificationError ? error : incomplete(error);
      });
      if (timedOut) throw bodyTimedOut(deadline.timeoutMs);
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        reader.cancel().catch(() => {});
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } finally {
    timer.cancel();
  }
  return bytesText(concat(chunks, total), maxBytes);
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

/** The error for a body that did not arrive in time. */
export function bodyTimedOut(timeoutMs: number): WebhookVerificationError {
  return new WebhookVerificationError(
    'body_timeout',
    `The body did not arrive in full within ${timeoutMs} ms, so reading stopped. The gateway sends its small deliveries at once; ` +
      'this was a stalled or hostile client. If legitimate deliveries are cut off (a slow proxy in between), raise bodyTimeoutMs.',
  );
}

/** The error for a body whose stream failed or whose connection closed before its end. */
export function incomplete(cause?: unknown): WebhookVerificationError {
  const error = new WebhookVerificationError(
    'body_incomplete',
    'The request body ended before it was complete (the client closed the connection, or the body stream failed).',
  );
  if (cause !== undefined) error.cause = cause;
  return error;
}

/** The error for a `Request` whose body somebody read before the webhook handler got it. */
function bodyAlreadyRead(): WebhookVerificationError {
  return new WebhookVerificationError(
    'raw_body_required',
    'The request body was already read (request.bodyUsed) before the webhook handler got it, so it cannot be verified. ' +
      'Pass the Request untouched (in Hono: c.req.raw before any c.req.json() or c.req.text()), or pass request.clone() ' +
      'if your code must read it first.',
  );
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
