// One POST to a receiver, bounded in time and in what is read back: a receiver may hang, or answer with an endless body.

/** Bytes of the receiver's answer body kept and shown. */
export const ANSWER_BODY_LIMIT = 8 * 1024;
/** Bytes read (and dropped past the kept part) before the answer counts as endless and its connection is closed. */
export const ANSWER_READ_LIMIT = 1024 * 1024;

/** Why an answer body was not read whole. */
export type BodyCut = 'size' | 'time' | 'closed';

/** What one POST to a receiver came back with. */
export interface ReceiverAnswer {
  /** The HTTP status, or null when no answer came (see `error`). */
  status: number | null;
  /** The answer body as text, at most {@link ANSWER_BODY_LIMIT} bytes of it. */
  body: string;
  /** Bytes of body read in all (more than `body` holds when it was long). */
  bodyBytes: number;
  /**
   * Why the body was not read to its end: `size` past {@link ANSWER_READ_LIMIT}, `time` still arriving at the deadline, `closed` when the
   * connection ended mid-body; null when it is whole.
   */
  bodyCut: BodyCut | null;
  /** Why there is no status: `timeout` or a connection error, else null. */
  error: string | null;
  /** Milliseconds from sending to the end of the answer (or the deadline). */
  ms: number;
}

/** POSTs `body` with `headers` to `url`, without following redirects (the gateway does not), within `timeoutMs`. */
export async function postToReceiver(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<ReceiverAnswer> {
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: controller.signal });
  } catch (error) {
    clearTimeout(timer);
    const reason = controller.signal.aborted ? 'timeout' : describeConnectionError(error);
    return { status: null, body: '', bodyBytes: 0, bodyCut: null, error: reason, ms: elapsed() };
  }
  try {
    const { text, bytes, cut } = await readBounded(response, controller.signal);
    return { status: response.status, body: text, bodyBytes: bytes, bodyCut: cut, error: null, ms: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}

/** Keeps the first bytes and drops the rest up to the read limit, then cancels; an abort mid-body keeps what arrived. */
async function readBounded(
  response: Response,
  signal: AbortSignal,
): Promise<{ text: string; bytes: number; cut: BodyCut | null }> {
  if (!response.body) return { text: '', bytes: 0, cut: null };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut: BodyCut | null = null;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size < ANSWER_BODY_LIMIT) chunks.push(value);
      size += value.byteLength;
      if (size > ANSWER_READ_LIMIT) {
        cut = 'size';
        break;
      }
    }
  } catch {
    cut = signal.aborted ? 'time' : 'closed';
  }
  // Cancelling closes the connection, so an endless body stops flowing.
  if (cut !== null) await reader.cancel().catch(() => {});
  const bytes = new Uint8Array(Math.min(size, ANSWER_BODY_LIMIT));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - at);
    bytes.set(part, at);
    at += part.byteLength;
    if (at >= bytes.length) break;
  }
  return { text: new TextDecoder().decode(bytes), bytes: size, cut };
}

/** The connection failure in a few words, with a hint for the usual causes. */
function describeConnectionError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused (ECONNREFUSED): is the receiver running and listening there?';
  if (code === 'ENOTFOUND') return 'host not found (ENOTFOUND): check the host name in --to';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET')
    return `the receiver closed the connection without answering (${code})`;
  if (cause?.message === 'bad port') {
    return 'fetch refuses to connect to this port (a port of another protocol, such as 6000 or 6667); run the receiver on another port';
  }
  if (code && /CERT|SSL|TLS/.test(code)) {
    return `TLS error (${code}): for a self-signed certificate, point NODE_EXTRA_CA_CERTS at its CA, or use http:// on localhost`;
  }
  return `connection error: ${code ?? cause?.message ?? (error as Error).message}`;
}
