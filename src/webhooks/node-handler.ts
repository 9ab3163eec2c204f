import { WebhookVerificationError } from './errors.js';
import type { NodeHeaders } from './header-reader.js';
import { concat, DEFAULT_MAX_BODY_BYTES, tooLarge } from './raw-body.js';

/**
 * The parts of Node's `IncomingMessage` (or an Express request) the adapter uses, stated structurally so this entry
 * imports nothing from `node:*`.
 */
export interface NodeRequestLike extends AsyncIterable<Uint8Array | string> {
  /** HTTP method. */
  method?: string | undefined;
  /** Request path and query. */
  url?: string | undefined;
  /** Lower-case header names to string or string[] values. */
  headers: NodeHeaders;
  /** A raw body some frameworks keep (a Buffer or string). */
  rawBody?: unknown;
  /** The body a framework already read: a Buffer/string is used; a parsed object is refused with directions. */
  body?: unknown;
  /** True once the stream has been read to its end (by a body parser, for example). */
  readableEnded?: boolean;
}

/** The parts of Node's `ServerResponse` the adapter uses. */
export interface NodeResponseLike {
  /** The status to send. */
  statusCode: number;
  /** Sets one response header. */
  setHeader(name: string, value: string): unknown;
  /** Sends the body and finishes the response. */
  end(chunk?: Uint8Array | string): unknown;
  /** True once headers went out. */
  readonly headersSent?: boolean;
}

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * Stop reading and answer 413 past this many bytes. Defaults to the handler's own limit; for a handler that does
   * not state one, 1 MB plus 64 KB of headroom, leaving the exact decision to the handler.
   */
  maxBodyBytes?: number;
}

/** A `(req, res)` listener for `node:http` and Express (`next` is called only for errors of the adapter itself). */
export type NodeWebhookHandler = (
  req: NodeRequestLike,
  res: NodeResponseLike,
  next?: (error?: unknown) => void,
) => Promise<void>;

const HEADROOM = 64 * 1024;

/**
 * Adapts a fetch-style handler (from {@link createWebhookHandler}) to `node:http` and Express. It reads the raw body
 * itself, or uses `req.rawBody` / a Buffer `req.body` when a framework already read it, and stops reading as soon as
 * the body passes the limit, answering 413 without buffering the rest.
 *
 * @example
 * http.createServer(toNodeHandler(createWebhookHandler({ secret, on }))).listen(3000);
 * // Express: mount it before express.json(), or on its own route:
 * app.post('/webhooks', toNodeHandler(handler));
 */
export function toNodeHandler(
  handler: ((request: Request) => Promise<Response>) & { maxBodyBytes?: number },
  options: NodeHandlerOptions = {},
): NodeWebhookHandler {
  const limit = options.maxBodyBytes ?? handler.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES + HEADROOM;
  // A limit that is not a number would compare false against every size and silently turn the 413 off.
  if (!Number.isInteger(limit) || limit < 1) {
    throw new TypeError(
      `toNodeHandler options.maxBodyBytes must be a positive integer number of bytes; got ${String(limit)}.`,
    );
  }
  return async (req, res, next) => {
    try {
      const body = await readNodeBody(req, limit);
      const method = req.method ?? 'POST';
      const request = new Request(requestUrl(req.url), {
        method,
        headers: toHeaders(req.headers),
        body: method === 'GET' || method === 'HEAD' ? null : (body as BodyInit),
      });
      await send(res, await handler(request));
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        await send(res, Response.json(error.toJSON(), { status: error.status }));
        if (error.code === 'body_too_large') drain(req);
      } else if (next) next(error);
      else if (!res.headersSent) {
        await send(
          res,
          Response.json(
            { status: 'error', code: 'internal_error', message: 'The webhook receiver failed.' },
            { status: 500 },
          ),
        );
      }
    }
  };
}

/** The raw body, from what a framework kept or from the stream, refusing parsed objects and oversized bodies. */
async function readNodeBody(req: NodeRequestLike, limit: number): Promise<Uint8Array | string> {
  for (const kept of [req.rawBody, req.body]) {
    if (typeof kept === 'string' || kept instanceof Uint8Array) {
      if ((typeof kept === 'string' ? kept.length : kept.byteLength) > limit) throw tooLarge(limit);
      return kept;
    }
  }
  if (req.body !== undefined && req.body !== null && req.readableEnded === true) {
    throw new WebhookVerificationError(
      'raw_body_required',
      'A body parser (e.g. express.json()) already consumed the request, and no raw body was kept. ' +
        "Mount the webhook route before express.json(), or use express.raw({ type: 'application/json' }) on it.",
    );
  }
  const declared = req.headers['content-length'];
  if (typeof declared === 'string' && /^\d+$/.test(declared) && Number(declared) > limit) throw tooLarge(limit);
  // Driving the iterator by hand: leaving a for-await early would destroy the socket before the 413 goes out.
  const iterator = req[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await iterator.next();
    if (done) break;
    const chunk = typeof value === 'string' ? new TextEncoder().encode(value) : value;
    total += chunk.byteLength;
    if (total > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return concat(chunks, total);
}

/** Lets the rest of an oversized body flow to nowhere, so the socket can still deliver the 413. */
function drain(req: NodeRequestLike): void {
  (req as { resume?: () => void }).resume?.();
}

function requestUrl(path: string | undefined): string {
  try {
    return new URL(path ?? '/', 'http://localhost').href;
  } catch {
    return 'http://localhost/';
  }
}

function toHeaders(headers: NodeHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    // HTTP/2 pseudo-headers (":path") are not valid header names.
    if (value === undefined || name.startsWith(':')) continue;
    try {
      if (typeof value === 'string') out.set(name, value);
      else for (const v of value) out.append(name, v);
    } catch {
      // A header the fetch Headers class rejects is dropped; gateway headers are plain ASCII.
    }
  }
  return out;
}

async function send(res: NodeResponseLike, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  res.end(new Uint8Array(await response.arrayBuffer()));
}
