import { ResponseTooLargeError } from './errors.js';

/** The default bound on one answer's body: the API's pages are a few KB, so this is generous yet keeps memory flat. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** Drops an answer's unread body: cancelling releases the connection, and its outcome does not matter any more. */
export function discard(response: Response): void {
  void response.body?.cancel().catch(() => {});
}

/**
 * Reads a response body as UTF-8 text, streaming, and stops at `maxBytes` (decoded bytes: the runtime has already
 * inflated gzip or brotli), so an endless, huge or compressed-bomb answer costs at most `maxBytes` of memory.
 * `call` (e.g. `GET /api/domains`) names the request in the error.
 */
export async function readBoundedText(response: Response, maxBytes: number, call: string): Promise<string> {
  const tooLarge = (what: string) =>
    new ResponseTooLargeError(
      `${call} answered HTTP ${response.status} with ${what} than maxResponseBytes (${maxBytes} bytes, counted after decompression). ` +
        'Raise the maxResponseBytes option if such answers are expected.',
      { status: response.status, headers: response.headers, maxResponseBytes: maxBytes },
    );
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const compressed = response.headers.has('content-encoding');
  // A declared length only bounds the decoded size when nothing is compressed.
  if (declared > maxBytes && !compressed) {
    discard(response);
    throw tooLarge(`a declared body of ${declared} bytes, more`);
  }
  // An uncompressed body with a declared length within the bound cannot grow past it (the HTTP parser enforces it).
  if (declared <= maxBytes && !compressed) return response.text();
  const body = response.body;
  if (!body) return '';
  const reader = body.getReader();
  // Decodes like Response.text(): UTF-8, a leading BOM dropped, invalid bytes replaced; a character split between
  // chunks is kept for the next one.
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > maxBytes) {
      // Cancelling releases the connection; its outcome does not matter any more.
      void reader.cancel().catch(() => {});
      throw tooLarge('a body larger');
    }
    text += decoder.decode(value, { stream: true });
  }
}
